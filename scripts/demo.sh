#!/usr/bin/env bash
# `make demo`: runs loom's main job on the best backend present and says where its outputs are.
# Until the GPE system lands the main job is the machine survey: `loom info` and `loom bench ceilings`.
set -euo pipefail
build=${1:-build}
loom="$build/bin/loom"
out=runs/demo
mkdir -p "$out"
"$loom" info
echo
"$loom" bench ceilings --repeats 5 --json "$out/ceilings.json"
echo
echo "demo outputs: $out/ceilings.json (measured ceilings, JSON)"
