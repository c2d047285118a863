#!/usr/bin/env bash
# Issue 22, fourteenth session (branch fmm10), one H200 call (~70 s build + ~100 s of runs, under 3 minutes):
# a GPU rank's local FMM nearer the resident path -- the evaluator kept between calls, the lists from the device
# traversal straight to the passes (the costs' work per cell counted there: no host copy of the lists), the
# cells' largest core radii on the device, the backend tree's arrays taken over on the device, and on a lone
# rank its bodies never copied to the host.
#   1. GPU gtests: test_fmm_mpi *Gpu* on 2 ranks sharing the device and on 1 rank (the lone rank's path), both
#      trees against one rank and a direct sum, the device-counted costs against the host's; test_fmm_gpu's
#      backend-tree evaluator against the CPU.
#   2. One rank at the paper's load, 1.68e7 Biot-Savart bodies, p 8, theta 0.6, device tree (fmm9: 3.860 s =
#      tree 1.550 (host copy 1.129), local 1.981 (kernels 0.597, lists 0.724, transfer 0.657), release 0.220).
#   3. The resident evaluator on 1.68e7 Biot-Savart bodies (same distribution and core radius, another seed),
#      device bodies to device results, tree included (test_fmm_resident_gpu's target line; 0.714 s before).
#   4. 1 and 2 ranks at 1e6 Laplace per rank, device tree (fmm9: 0.1772 / 0.3435 s).
# Usage on the device: scripts/gpu-fmm10.sh   (OUT receives the JSONs and logs.tar.gz; the tables go last)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-fmm10-out}; mkdir -p "$out"; logs=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_fmm_mpi test_fmm_gpu test_fmm_resident_gpu > "$logs/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$logs/build.log" | head -30; echo "build FAILED"; exit 1; }
git log -1 --format='commit %h %s' | cut -c1-100
echo "build done ($(elapsed) s)"

# gtest RANKS NAME FILTER: test_fmm_mpi on RANKS ranks sharing the GPU
gtest_mpi() {
  timeout 60 mpiexec --oversubscribe -n "$1" build-gpu/tests/fmm/test_fmm_mpi --gtest_filter="$3" \
    > "$logs/$2.log" 2>&1
  echo "$2 rc $? ($(elapsed) s)"
}
gtest_mpi 2 gtest-mpi-2 '*Gpu*:FmmRanksTree*:FmmRanksCost*'
gtest_mpi 1 gtest-mpi-1 '*Gpu*:FmmRanksTree*:FmmRanksCost*'
timeout 60 build-gpu/tests/fmm/test_fmm_gpu --gtest_filter='*BackendTree*:*SmallProblems*' > "$logs/gtest-gpu.log" 2>&1
echo "gtest-gpu rc $? ($(elapsed) s)"
timeout 90 build-gpu/tests/fmm/test_fmm_resident_gpu --gtest_filter='*BiotSavartTarget*:*LaplaceEqualsTheCpu*' \
  > "$logs/resident.log" 2>&1
echo "resident rc $? ($(elapsed) s)"

# ranks_run NAME RANKS BODIES LIMIT ARGS...: loom bench fmm over RANKS ranks sharing the GPU, 16/RANKS threads
ranks_run() {
  local name=$1 ranks=$2 bodies=$3 limit=$4; shift 4
  OMP_NUM_THREADS=$(( 16 / ranks )) timeout "$limit" mpiexec --oversubscribe --bind-to none -n "$ranks" \
    -x OMP_NUM_THREADS build-gpu/bin/loom bench fmm --ranks_bodies "$bodies" "$@" \
    --json "$out/$name.json" > "$logs/$name.log" 2>&1
  echo "$name rc $? ($(elapsed) s)"
}
paper=(--backend cuda --ranks_kernel biot-savart --p 8 --ranks_theta 0.6 --warmup 1 --repeats 2)
ranks_run paper-backend 1 16777216 60 "${paper[@]}" --ranks_tree backend
laplace=(--backend cuda --ranks_kernel laplace --warmup 1 --repeats 3)
for ranks in 1 2; do ranks_run "gpu-$ranks-backend" "$ranks" 1000000 30 "${laplace[@]}" --ranks_tree backend; done
tar -czf "$out/logs.tar.gz" -C "$logs" .

echo "=== summary (rank tables: the median evaluation, seconds)"
for name in gtest-mpi-2 gtest-mpi-1 gtest-gpu resident; do
  plain=$(sed 's/\x1b\[[0-9;]*m//g' "$logs/$name.log")  # gtest colours its lines under mpiexec
  echo "$name: $(grep -cE '^\[       OK' <<< "$plain") OK, $(grep -cE 'FAILED  \]' <<< "$plain") FAILED lines," \
    "$(grep -cE 'SKIPPED \]' <<< "$plain") skipped"
  grep -hE "Failure" -A3 "$logs/$name.log" | head -8
done
grep -h "^resident:" "$logs/resident.log"
for name in paper-backend gpu-1-backend gpu-2-backend; do
  [[ -f "$logs/$name.log" ]] || continue
  echo "--- $name"
  grep -E "^rank |^ +[0-9]+ +[0-9.]+ |median step" "$logs/$name.log"
done
echo "total $(elapsed) s"
