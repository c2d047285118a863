#!/usr/bin/env bash
# Issue 18, thirteenth session: the 50 GH components' gradient on 10x19x38 with the tensor-core products in strips
# (cluster_strips.hpp) against the twelfth session's default, on the H200 (run from the repo root; configures
# build-gpu as the other GPU scripts do), about 3 minutes with the build:
#   1. builds spectral_cluster_timing and test_spectral_gpu; runs the cluster cases of test_spectral_gpu (every strip instance against the FFT reference);
#   2. `spectral_cluster_timing REPEATS strips`: each variant one call and per call of 20, the dense
#      strided-batched cuBLAS baseline by the same stopwatch, the empty launch of each variant's shape (the floor
#      of a single call), the phases of one stamped call per block; the summary table last;
#   3. when ncu is on the PATH: one launch per variant (`strips-once`): instructions, cycles, shared wavefronts;
#   4. `loom spectral` rows (the strategy's default variant, dense cuBLAS), one call and per call of 20.
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
if ! cmake --build "$build" -j "$(nproc)" --target loom spectral_cluster_timing test_spectral_gpu > "$out/build.log" 2>&1; then
  grep -E "error|FAILED" "$out/build.log" | head -40
  exit 1
fi
echo "build done ($(( $(date +%s) - t0 )) s)"
printf '%-32s %s\n' test_spectral_gpu "$(timeout 120 "$build/tests/spectral/test_spectral_gpu" \
  --gtest_filter='*ClusterRoute*' 2>&1 |
  grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|Expected|Which is|tensor' | head -30 | tr '\n' ' ')"
timeout 150 "$build/tests/spectral/spectral_cluster_timing" "$repeats" strips > "$out/strips.txt" 2>&1 ||
  echo "spectral_cluster_timing failed: $(tail -3 "$out/strips.txt")"
if command -v ncu > /dev/null; then  # one launch per variant, in the order of the summary: instructions, cycles
  timeout 60 ncu --kernel-name regex:cluster_kernel --csv --metrics \
gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.avg,smsp__inst_executed.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,\
sm__ops_path_tensor_src_fp64.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
    "$build/tests/spectral/spectral_cluster_timing" 1 strips-once > "$out/ncu.csv" 2> "$out/ncu.err" ||
    echo "ncu failed: $(grep -i error "$out/ncu.err" "$out/ncu.csv" | head -3)"
  python3 - "$out/ncu.csv" <<'PY'
import csv, sys
rows = [l for l in open(sys.argv[1]).read().splitlines() if l.startswith('"')]
launches = {}
for r in csv.DictReader(rows):
    try:
        launches.setdefault(int(r["ID"]), {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    except (KeyError, ValueError):
        pass
names = [("gpu__time_duration.sum", "ncu us", 1e-3), ("smsp__inst_executed.sum", "inst M", 1e-6),
         ("sm__cycles_active.avg", "active k", 1e-3), ("sm__cycles_elapsed.avg", "elapsed k", 1e-3),
         ("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "shared M", 1e-6),
         ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "confl M", 1e-6),
         ("sm__ops_path_tensor_src_fp64.sum", "dmma ops M", 1e-6),
         ("sm__warps_active.avg.pct_of_peak_sustained_active", "warps %", 1)]
print("== ncu, one launch per variant (order of the summary) ==")
print(" ".join(f"{n:>10}" for _, n, _ in names))
for k in sorted(launches):
    print(" ".join(f"{launches[k].get(m, float('nan')) * s:>10.2f}" for m, _, s in names))
PY
fi
# what a user gets (`loom spectral`: the strategy's default variant of the cluster route, and dense cuBLAS)
row() {  # name strategy angular calls
  timeout 60 "$build/bin/loom" spectral --extents 10,19,38 --radii 1.62,6 --tensor aa,iaa,aa --backend cuda \
    --strategy "$2" --angular "$3" --repeats "$repeats" --calls "$4" > "$out/$1.txt" 2>&1 ||
    echo "row $1 failed: $(tail -1 "$out/$1.txt")"
  printf '%-12s %s\n' "$1" "$(grep -iE 'backend|median|error' "$out/$1.txt" | head -3 | tr '\n' ' ' | cut -c1-150)"
}
echo "== loom spectral (the strategy's default variant and dense cuBLAS) =="
row cluster-1 cluster separable 1
row cluster-20 cluster separable 20
row dense-1 batched dense 1
row dense-20 batched dense 20
cat "$out/strips.txt"
echo "total $(( $(date +%s) - t0 )) s"
