#!/usr/bin/env bash
# The shell gradient's strategies side by side on the H200 (issue 18's targets), run from the repo root:
# builds loom and test_spectral_gpu (build-gpu, configured as the other GPU scripts do), runs the GPU strategy
# tests, then `loom spectral --op deriv` on the SingleBH k = 0 shell (9x6x12), SpEC's production shell
# (10x19x38) and SingleBH k = 10 (49x26x52) for T_aa, T_iaa, T_abb: the dense cuBLAS baseline (batched/dense),
# the fused two-launch route (fused/separable) and the CPU on all cores (blas, dense and separable).
# GPU_ONLY=1 leaves out the CPU rows. Prints one table row per run: shell, tensor, backend, strategy, angular, median us, relative error.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
log=$(mktemp)
scripts/configure-gpu-build.sh "$build" "$log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target loom test_spectral_gpu > "$log" 2>&1; then
  grep -E "error|FAILED" "$log" | head -40
  exit 1
fi
"$build/tests/spectral/test_spectral_gpu" 2>&1 | grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|expected|Which is" | head -20
row() {  # shell tensor backend strategy angular repeats
  local text
  text=$(timeout 300 "$loom" spectral --extents "$1" --radii 1.62,6 --tensor "$2" --backend "$3" --strategy "$4" \
         --angular "$5" --repeats "$6" 2>&1)
  printf '%-9s %-4s %-4s %-8s %-9s %12s %10s\n' "$1" "$2" "$3" "$4" "$5" \
    "$(grep -oP 'median \K[0-9.]+' <<< "$text")" "$(grep -oP 'gradient: \K[0-9.e+-]+' <<< "$text")"
}
printf '%-9s %-4s %-4s %-8s %-9s %12s %10s\n' shell T where strategy angular median_us rel_error
for shell in 9,6,12 10,19,38 49,26,52; do
  for tensor in aa iaa abb; do
    row "$shell" "$tensor" cuda batched dense 50
    row "$shell" "$tensor" cuda fused separable 50
    [[ ${GPU_ONLY:-0} == 1 ]] && continue
    row "$shell" "$tensor" cpu blas dense 5
    row "$shell" "$tensor" cpu blas separable 5
  done
done
