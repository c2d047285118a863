#!/usr/bin/env bash
# Exports the committed tree (HEAD) plus .carry/ into .snapshot/ (git-ignored), so that a device run builds
# exactly what is committed even while uncommitted work sits in the checkout. Run the GPU check there:
#   device run, carry [".snapshot"], command: cd .snapshot && LOOM_GIT_COMMIT=<hash> scripts/gpu-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .snapshot
mkdir -p .snapshot
git archive HEAD | tar -x -C .snapshot
[[ -d .carry ]] && cp -r .carry .snapshot/
git rev-parse --short=12 HEAD > .snapshot/COMMIT
echo "snapshot of $(cat .snapshot/COMMIT) in .snapshot ($(du -sh .snapshot | cut -f1))"
