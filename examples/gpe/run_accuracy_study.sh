#!/usr/bin/env bash
# The paper's Fig. 5 and 6: the accuracy study on all six grids, then one comparison plot.
#   examples/gpe/run_accuracy_study.sh [build-dir] [extra loom flags...]
# Runs into runs/accuracy/<grid>/ and writes runs/accuracy/fig5_errors.png and fig6_splitting.png.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
for grid in cubic fcc bcc a15 c15 z; do
  "$build/bin/loom" gpe examples/gpe/accuracy.toml --grid.type "$grid" --output.dir "runs/accuracy/$grid" \
    --output.overwrite "$@"
done
"${LOOM_PYTHON:-/usr/bin/python3}" tools/plot_gpe_compare.py runs/accuracy runs/accuracy/cubic runs/accuracy/fcc runs/accuracy/bcc \
  runs/accuracy/a15 runs/accuracy/c15 runs/accuracy/z
echo "plots: runs/accuracy/fig5_errors.png runs/accuracy/fig6_splitting.png"
