#!/usr/bin/env bash
# Issue 18, thirteenth session: the 50 GH components' gradient on 10x19x38 with the tensor-core products in strips
# (cluster_strips.hpp) against the twelfth session's default, on the H200 (run from the repo root; configures
# build-gpu as the other GPU scripts do), about 3 minutes with the build:
#   1. builds spectral_cluster_timing and test_spectral_gpu; runs the cluster cases of test_spectral_gpu (every strip instance against the FFT reference);
#   2. `spectral_cluster_timing REPEATS strips`: each variant one call and per call of 20, the dense
#      strided-batched cuBLAS baseline by the same stopwatch, the empty launch of each variant's shape (the floor
#      of a single call), the phases of one stamped call per block; the summary table last.
# GPU_REPEATS (default 20). Files in $OUT (or gpu-check-out/spectral-strips/).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out/spectral-strips}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
repeats=${GPU_REPEATS:-20}
t0=$(date +%s)
git log -1 --format='tree %h %s' | cut -c1-90
scripts/configure-gpu-build.sh "$build" "$out/configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target spectral_cluster_timing test_spectral_gpu > "$out/build.log" 2>&1; then
  grep -E "error|FAILED" "$out/build.log" | head -40
  exit 1
fi
echo "build done ($(( $(date +%s) - t0 )) s)"
printf '%-32s %s\n' test_spectral_gpu "$(timeout 120 "$build/tests/spectral/test_spectral_gpu" \
  --gtest_filter='*ClusterRoute*' 2>&1 |
  grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|Expected|Which is|tensor' | head -30 | tr '\n' ' ')"
timeout 150 "$build/tests/spectral/spectral_cluster_timing" "$repeats" strips > "$out/strips.txt" 2>&1 ||
  echo "spectral_cluster_timing failed: $(tail -3 "$out/strips.txt")"
cat "$out/strips.txt"
echo "total $(( $(date +%s) - t0 )) s"
