#!/usr/bin/env bash
# The long single-hole run and the resolution study of issue 19 on the H200, in one device call (about 8
# minutes; run from the repo root through the device tool, with .carry from scripts/prepare-carry.sh):
#   1. the CUDA build of loom and the GH GPU test (CPU and GPU agree after 100 steps, nothing crosses the bus);
#   2. the paper's case (two shells of 10x19x38, m = 1, chi = (0.2, 0.3, 0.4)) for 10^5 steps of dt = 0.033
#      (t = 3300; 3.4 ms per step measured at 74% of this), a series row every 10 m, checkpoints every 2 minutes;
#   3. the resolution study on the GPU: (8,15,30), (10,19,38), (12,23,46) to t = 50 at each grid's CFL step.
#   4. (mode bench only, a second call on the warm machine) `loom bench bh --json`: the per-module profile on one
#      CPU core, all 16 and the GPU, with the pies and the GPU speedup per module (tools/plot_bench_bh.py).
# Usage: [BH_ARGS="--filter.alpha 36 --filter.order 32"] scripts/gpu-bh-long.sh [all|long|resolution|bench]
# (all = long + resolution; BH_ARGS: extra keys for every bh run, e.g. the top-mode radial filter when the
# filter-free default grows, docs/gr.md "Open"). What comes back under
# $OUT (at most 8 files): bh-long-series.csv, bh-long-summary.json, bh-resolution.csv (t = 50 row of each
# grid), bh-gpu-test.log, bh-long.log; bench: bench-bh.json, bench-bh_pies.png, bench-bh_speedup.png.
# Expect: the long run's normalised constraint flat after t ~ 10 (no growth trend), psi error at the 1e-4
# level growing at most linearly (docs/gr.md); the resolution rows falling by factors ~6-8 per refinement
# (the CPU study at t = 2 in docs/performance.md).
set -uo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
out=${OUT:-gpu-bh-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$PWD/$build/bin/loom"
t0=$(date +%s)
logs=$(mktemp -d)  # build logs stay on the machine: $OUT brings back at most 8 files
scripts/configure-gpu-build.sh "$build" "$logs/configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target loom test_gr_gh_gpu > "$logs/build.log" 2>&1; then
  grep -E "error|FAILED" "$logs/build.log" | head -40; echo "build FAILED"; exit 1
fi
echo "build: $(( $(date +%s) - t0 )) s"
if [[ $what == bench ]]; then
  "$loom" bench bh --steps 20 --warmup 2 --json "$out/bench-bh.json" 2>&1 | tail -12
  echo "total: $(( $(date +%s) - t0 )) s"
  exit 0
fi
"$build/tests/gr/test_gr_gh_gpu" > "$out/bh-gpu-test.log" 2>&1
echo "test_gr_gh_gpu rc=$? ($(grep -cE '^\[       OK' "$out/bh-gpu-test.log") OK)"
runs=$(mktemp -d)
if [[ $what == all || $what == long ]]; then
  timeout 480 "$loom" bh ${BH_ARGS:-} --backend cuda --time.dt 0.033 --time.t_end 3300 --output.every 10 \
    --output.fields_every 1100 --output.checkpoint_every 120 --output.plots false --quiet \
    --output.dir "$runs/long" > "$out/bh-long.log" 2>&1
  echo "long run rc=$? after $(( $(date +%s) - t0 )) s: $(tail -1 "$out/bh-long.log" | cut -c1-200)"
  cp "$runs/long/series.csv" "$out/bh-long-series.csv" 2> /dev/null
  cp "$runs/long/summary.json" "$out/bh-long-summary.json" 2> /dev/null
  awk -F, 'NR == 2 || NR % 40 == 1' "$runs/long/series.csv" 2> /dev/null | cut -c1-160
fi
if [[ $what == all || $what == resolution ]]; then
  for e in 8,15,30 10,19,38 12,23,46; do
    timeout 120 "$loom" bh ${BH_ARGS:-} --backend cuda --grid.extents "$e" --time.t_end 50 --output.every 5 \
      --output.fields false --output.plots false --quiet --output.dir "$runs/res-$e" > /dev/null 2>&1
    echo "$e,$(tail -1 "$runs/res-$e/series.csv" 2> /dev/null)"
  done | sed '1i extents_r,extents_theta,extents_phi,t,gauge_constraint,three_index_constraint,normalized_constraint,psi_error,pi_error,phi_error' \
    | tee "$out/bh-resolution.csv"
fi
rm -rf "$runs"
echo "total: $(( $(date +%s) - t0 )) s"
