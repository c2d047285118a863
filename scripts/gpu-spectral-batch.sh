#!/usr/bin/env bash
# Issue 18, fourteenth session: several shells' 50-component gradients in one launch of the cluster route
# (cluster::Shells, Differentiator::cartesian_gradients) on the H200, about 3 minutes with the build (run from the
# repo root; configures build-gpu as the other GPU scripts do):
#   1. builds loom, spectral_batch_timing, test_spectral_gpu, test_gr_gh_gpu; runs the cluster cases of
#      test_spectral_gpu (every kernel instance and the shells in one launch against the FFT reference) and
#      test_gr_gh_gpu's 100 steps on two shells, linear and inverse maps (loom bh's GPU right-hand side, now with
#      both shells' gradients in one launch) against the CPU;
#   2. `spectral_batch_timing REPEATS`: K = 1, 2, 4, 8 shells of 10x19x38 in one launch per variant (the default;
#      with the inverse Jacobian prefetched; 1 per cluster of 8 at 4/SM; 2 per cluster of 5 and of 4 on 1024-thread
#      blocks), time per shell one call and per call of 20, the empty launch of the same grid, dense cuBLAS per
#      shell, the route as loom bh calls it; its summary table last;
#   3. `loom spectral` rows of the strategy's default (one shell), one call and per call of 20, dense beside.
# GPU_REPEATS (default 20); GPU_QUICK=1: `spectral_batch_timing REPEATS quick` (the four variants that decide the
# defaults: 2 per cluster of 8 on 512 threads and 1 per cluster of 8 at 4/SM, whole and split groups). Files in
# $OUT (or gpu-check-out/spectral-batch/).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out/spectral-batch}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
repeats=${GPU_REPEATS:-20}
t0=$(date +%s)
git log -1 --format='tree %h %s' | cut -c1-90
scripts/configure-gpu-build.sh "$build" "$out/configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target loom spectral_batch_timing test_spectral_gpu test_gr_gh_gpu \
     > "$out/build.log" 2>&1; then
  grep -E "error|FAILED" "$out/build.log" | head -40
  exit 1
fi
echo "build done ($(( $(date +%s) - t0 )) s)"
printf '%-20s %s\n' test_spectral_gpu "$(timeout 120 "$build/tests/spectral/test_spectral_gpu" \
  --gtest_filter='*ClusterRoute*' 2>&1 |
  grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|Expected|Which is|shell|tensor' | head -20 | tr '\n' ' ')"
t1=$(date +%s)
printf '%-20s %s\n' test_gr_gh_gpu "$(timeout 150 "$build/tests/gr/test_gr_gh_gpu" \
  --gtest_filter='GhGpu.HundredStepsAgreeWithTheCpu:GhGpu.HundredStepsOnTheInverseMapAgreeWithTheCpu' 2>&1 |
  grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|Expected|Which is' | head -20 | tr '\n' ' ') ($(( $(date +%s) - t1 )) s)"
timeout 120 "$build/tests/spectral/spectral_batch_timing" "$repeats" ${GPU_QUICK:+quick} > "$out/batch.txt" 2>&1 ||
  echo "spectral_batch_timing failed: $(tail -3 "$out/batch.txt")"
row() {  # name strategy angular calls
  timeout 60 "$build/bin/loom" spectral --extents 10,19,38 --radii 1.62,6 --tensor aa,iaa,aa --backend cuda \
    --strategy "$2" --angular "$3" --repeats "$repeats" --calls "$4" > "$out/$1.txt" 2>&1 ||
    echo "row $1 failed: $(tail -1 "$out/$1.txt")"
  printf '%-12s %s\n' "$1" "$(grep -iE 'backend|median|error' "$out/$1.txt" | head -3 | tr '\n' ' ' | cut -c1-150)"
}
echo "== loom spectral (the strategy's default variant, one shell, and dense cuBLAS) =="
row cluster-1 cluster separable 1
row cluster-20 cluster separable 20
row dense-1 batched dense 1
row dense-20 batched dense 20
cat "$out/batch.txt"
echo "total $(( $(date +%s) - t0 )) s"
