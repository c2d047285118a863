#!/usr/bin/env bash
# `make demo`: runs loom's main job, a short GPE vortex run (examples/gpe/demo.toml), on the best backend present
# and says where its outputs are.
set -euo pipefail
build=${1:-build}
loom="$build/bin/loom"
"$loom" info
echo
"$loom" gpe examples/gpe/demo.toml
echo
echo "demo outputs in runs/demo-gpe/: E_t.png (E(t) and RMSE(t)), density_z0_initial.png and density_z0_final.png"
echo "(|psi|^2 at z = 0), series.csv, summary.json, psi.xdmf (open in ParaView), checkpoint.h5"
