#!/usr/bin/env bash
# Issue 18, the 50 GH components' gradient on SpEC's production shell (10x19x38): the cluster route's variants
# against the dense strided-batched cuBLAS baseline, single call against single call and stream against stream,
# on the H200 (run from the repo root; configures build-gpu as the other GPU scripts do):
#   1. builds loom, the spectral GPU tests and spectral_cluster_timing; runs the shell-gradient and cluster
#      cases of test_spectral_gpu (the tensor-core and padded kernels against the FFT reference among them);
#   2. `loom spectral` rows (what a user gets): cluster (default variant) and dense, each one call and per call
#      of 20, and auto;
#   3. spectral_cluster_timing: every variant (register tiles or FP64 tensor cores, natural or padded rows,
#      components per cluster, fixed or run-time extents) one call and per call of 20, with the dense baseline
#      timed by the same stopwatch in the same process and each variant's ratio to it in both modes;
#   4. when ncu is on the PATH: one launch of each variant (`spectral_cluster_timing 1 once`) under Nsight
#      Compute, the L1/shared-memory pipe, shared wavefronts and bank conflicts, FP64 and tensor (DMMA) pipes;
#   5. the table, printed last.
# QUICK=1 (about a minute on a warm build): only the tests of the tensor-core variants and
# `spectral_cluster_timing REPEATS quick` (the default, the best tensor-core variant, clusters of 5 with and without
# d_r from shared memory), no loom rows, no ncu. GPU_REPEATS (default 30) sets the repeats; WITH_GR=1 also builds and runs test_gr_gh_gpu (loom bh's derivatives
# take the cluster route's default variant) and the strategy-choice GPU test. Files in
# $OUT/spectral-variants.tar.gz (or gpu-check-out/).
# Usage: scripts/gpu-spectral-variants.sh
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -n "${OUT:-}" ]; then out=$(mktemp -d)/spectral-variants; else out=gpu-check-out/spectral-variants; fi
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
log="$out/build.log"
repeats=${GPU_REPEATS:-30}
scripts/configure-gpu-build.sh "$build" "$log" --if-missing || exit 1
extra=()
[ "${WITH_GR:-0}" = 1 ] && extra=(test_gr_gh_gpu test_spectral_strategy_choice)
quick=${QUICK:-0}
app=(loom)
[ "$quick" = 1 ] && app=()
if ! cmake --build "$build" -j "$(nproc)" --target "${app[@]}" spectral_cluster_timing test_spectral_gpu "${extra[@]}" \
  > "$log" 2>&1; then
  grep -E "error|FAILED" "$log" | head -40
  exit 1
fi
printf '%-32s %s\n' test_spectral_gpu "$(timeout 300 "$build/tests/spectral/test_spectral_gpu" \
  --gtest_filter='*ShellGradient*:*ClusterRoute*' 2>&1 |
  grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|Expected|Which is|tensor' | head -30 | tr '\n' ' ')"
if [ "${WITH_GR:-0}" = 1 ]; then
  printf '%-32s %s\n' test_spectral_strategy_choice "$(timeout 300 "$build/tests/spectral/test_spectral_strategy_choice" \
    --gtest_filter='*Gpu*:*NeverPicks*' 2>&1 | grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure' | head -10 | tr '\n' ' ')"
  printf '%-32s %s\n' test_gr_gh_gpu "$(timeout 300 "$build/tests/gr/test_gr_gh_gpu" 2>&1 |
    grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|Expected|Which is' | head -10 | tr '\n' ' ')"
fi

if [ "$quick" = 1 ]; then
  timeout 120 "$build/tests/spectral/spectral_cluster_timing" "$repeats" quick > "$out/variants.txt" 2>&1 ||
    echo "spectral_cluster_timing failed: $(tail -2 "$out/variants.txt")"
  python3 scripts/spectral_variants_table.py "$out" | tee "$out/table.txt"
  [ -n "${OUT:-}" ] && tar czf "$OUT/spectral-variants.tar.gz" -C "$(dirname "$out")" spectral-variants
  exit 0
fi

row() {  # name strategy angular calls
  timeout 300 "$loom" spectral --extents 10,19,38 --radii 1.62,6 --tensor aa,iaa,aa --backend cuda --strategy "$2" \
    --angular "$3" --repeats "$repeats" --calls "$4" --json "$out/$1.json" > "$out/$1.txt" 2>&1 ||
    echo "row $1 failed: $(tail -1 "$out/$1.txt")"
}
row cluster-1 cluster separable 1
row cluster-20 cluster separable 20
row dense-1 batched dense 1
row dense-20 batched dense 20
row auto-1 auto auto 1

timeout 300 "$build/tests/spectral/spectral_cluster_timing" "$repeats" > "$out/variants.txt" 2>&1 ||
  echo "spectral_cluster_timing failed: $(tail -2 "$out/variants.txt")"

if command -v ncu > /dev/null; then
  # one launch per variant, in the order of the table; sections first (always available), then raw counters
  timeout 120 ncu --kernel-name regex:cluster_kernel --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --csv \
    "$build/tests/spectral/spectral_cluster_timing" 1 once > "$out/ncu-sections.csv" 2> "$out/ncu-sections.err" ||
    echo "ncu sections failed: $(tail -2 "$out/ncu-sections.err")"
  timeout 120 ncu --kernel-name regex:cluster_kernel --csv --metrics \
gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.avg,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,\
sm__inst_executed_pipe_fp64.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed,\
sm__ops_path_tensor_src_fp64.sum,smsp__inst_executed.sum \
    "$build/tests/spectral/spectral_cluster_timing" 1 once > "$out/ncu-metrics.csv" 2> "$out/ncu-metrics.err" ||
    echo "ncu metrics failed: $(grep -i error "$out/ncu-metrics.err" "$out/ncu-metrics.csv" | head -3)"
else
  echo "(ncu is not on this machine's PATH: no pipe fractions)"
fi

python3 scripts/spectral_variants_table.py "$out" | tee "$out/table.txt"
if [ -n "${OUT:-}" ]; then
  tar czf "$OUT/spectral-variants.tar.gz" -C "$(dirname "$out")" spectral-variants && rm -rf "$(dirname "$out")"
fi
