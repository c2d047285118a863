#!/usr/bin/env bash
# Issue 22, thirteenth session (branch fmm9), one H200 call (~75 s of runs on a warm build, under 2 minutes):
# a rank's step itemised (the second table of each run: call = tree + let+comm + local + remote + cost + release
# + unnamed; local = kernels + lists + transfer + rest; the tree's host copy inside tree), after the waste removed
# (no costs or rows on one rank, the strengths read in place, the results kept between calls).
#   1. GPU gtests, 2 ranks sharing the device (both trees against one rank and a direct sum, kept buffers).
#   2. One rank at the paper's load, 1.68e7 Biot-Savart bodies, p 8, theta 0.6, device tree (fmm8: 4.039 s).
#   3. 1 and 2 ranks at 1e6 Laplace per rank, device tree (fmm8: 0.1883 / 0.3156 s).
# Usage on the device: scripts/gpu-fmm9.sh   (OUT receives the JSONs and logs.tar.gz; the tables go last)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-fmm9-out}; mkdir -p "$out"; logs=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_fmm_mpi > "$logs/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$logs/build.log" | head -30; echo "build FAILED"; exit 1; }
git log -1 --format='commit %h %s' | cut -c1-100
echo "build done ($(elapsed) s)"

timeout 40 mpiexec --oversubscribe -n 2 build-gpu/tests/fmm/test_fmm_mpi \
  --gtest_filter='*Gpu*:FmmRanksTree*:FmmRanksCost*' > "$logs/gtest-mpi.log" 2>&1
mpi_rc=$?
echo "gtests rc $mpi_rc ($(elapsed) s)"

# ranks_run NAME RANKS BODIES LIMIT ARGS...: loom bench fmm over RANKS ranks sharing the GPU, 16/RANKS threads
ranks_run() {
  local name=$1 ranks=$2 bodies=$3 limit=$4; shift 4
  OMP_NUM_THREADS=$(( 16 / ranks )) timeout "$limit" mpiexec --oversubscribe --bind-to none -n "$ranks" \
    -x OMP_NUM_THREADS build-gpu/bin/loom bench fmm --ranks_bodies "$bodies" "$@" \
    --json "$out/$name.json" > "$logs/$name.log" 2>&1
  echo "$name rc $? ($(elapsed) s)"
}
paper=(--backend cuda --ranks_kernel biot-savart --p 8 --ranks_theta 0.6 --warmup 1 --repeats 1)
ranks_run paper-backend 1 16777216 60 "${paper[@]}" --ranks_tree backend
laplace=(--backend cuda --ranks_kernel laplace --warmup 1 --repeats 3)
for ranks in 1 2; do ranks_run "gpu-$ranks-backend" "$ranks" 1000000 30 "${laplace[@]}" --ranks_tree backend; done
tar -czf "$out/logs.tar.gz" -C "$logs" .

echo "=== summary (rank tables: the median evaluation, seconds)"
plain=$(sed 's/\x1b\[[0-9;]*m//g' "$logs/gtest-mpi.log")  # gtest colours its lines under mpiexec
echo "test_fmm_mpi Gpu*:FmmRanksTree*:FmmRanksCost* (2 ranks): rc $mpi_rc," \
  "$(grep -cE '^\[       OK' <<< "$plain") OK, $(grep -cE 'FAILED  \]' <<< "$plain") FAILED lines"
grep -hE "Failure" "$logs/gtest-mpi.log" | head -6
for name in paper-backend gpu-1-backend gpu-2-backend; do
  [[ -f "$logs/$name.log" ]] || continue
  echo "--- $name"
  grep -E "^rank |^ +[0-9]+ +[0-9.]+ |median step" "$logs/$name.log"
done
echo "total $(elapsed) s"
