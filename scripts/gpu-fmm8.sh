#!/usr/bin/env bash
# Issue 22, thirteenth session (branch fmm8), one H200 call (~3 minutes of runs on a warm build, FMM8_BUDGET=180):
# the ranks' tree and lists built on the device (now the default of GPU ranks: `--ranks_tree auto`), and the
# 4096-GPU model fed with what one such rank takes at the paper's load.
#   1. GPU gtests, 2 ranks sharing the device: the ranks' sums with the host tree and with the device tree
#      against the one-rank FMM and a direct sum, GPU ranks against CPU ranks, the kept buffers; the device
#      tree's root cut into near-cubic pieces (its M2L pairs against the host cubic tree's).
#   2. One rank at the paper's load, 1.68e7 Biot-Savart bodies, p 8, theta 0.6 (the vortex method's), device tree:
#      its step is T_local of the model (the local FMM as a rank runs it, tree and lists included).
#   3. 1 and 2 ranks at 1e6 Laplace per rank (the last sessions' command) with the device tree.
#   4. The model at 4096 GPUs (b: p 8, theta 0.6) with that T_local; one volume for the LETs written and sent.
#   5. While the budget lasts: 1 and 2 ranks with the host tree, then the paper's load with the host tree.
#   FMM8_WEAK=1: then the CPU weak scaling at 1e6 Laplace per rank on 1, 2, 4 ranks (16/P threads, ~100 s).
# Usage on the device: scripts/gpu-fmm8.sh   (OUT receives the JSONs and logs.tar.gz; the table goes last)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-fmm8-out}; mkdir -p "$out"; logs=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
budget=${FMM8_BUDGET:-180}  # seconds of runs after the build
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_fmm_mpi > "$logs/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$logs/build.log" | head -30; echo "build FAILED"; exit 1; }
git log -1 --format='commit %h %s' | cut -c1-100
echo "build done ($(elapsed) s)"

t_runs=$(date +%s)
left() { echo $(( budget - ($(date +%s) - t_runs) )); }
timeout 40 mpiexec --oversubscribe -n 2 build-gpu/tests/fmm/test_fmm_mpi \
  --gtest_filter='*Gpu*:FmmRanksTree*' > "$logs/gtest-mpi.log" 2>&1
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
t_local=$(grep -oE '"step_median": [0-9.e+-]+' "$out/paper-backend.json" 2>/dev/null | grep -oE '[0-9.e+-]+$')
echo "T_local (one rank, 1.68e7 Biot-Savart, device tree): ${t_local:-none} s"
laplace=(--backend cuda --ranks_kernel laplace --warmup 1 --repeats 3)
for ranks in 1 2; do ranks_run "gpu-$ranks-backend" "$ranks" 1000000 30 "${laplace[@]}" --ranks_tree backend; done
OMP_NUM_THREADS=16 timeout 100 build-gpu/bin/loom bench fmm --model_ranks 4096 --model_kernel biot-savart \
  --model_bodies_per_rank 2000 --model_target_seconds "${t_local:-0.714}" --model_remote device --p 8 \
  --model_theta 0.6 --model_interior_bodies 524288 --json "$out/model-4096-b.json" > "$logs/model-b.log" 2>&1
echo "model b (T_local ${t_local:-0.714}) rc $? ($(elapsed) s)"
# what budget is left: the host tree in the same call (1e6 Laplace, then the paper's load)
for ranks in 1 2; do
  (( $(left) > 25 )) && ranks_run "gpu-$ranks-host" "$ranks" 1000000 25 "${laplace[@]}" --ranks_tree host
done
(( $(left) > 40 )) && ranks_run paper-host 1 16777216 $(( $(left) - 2 )) "${paper[@]}" --ranks_tree host
# FMM8_WEAK=1: the CPU weak scaling at the target's load (1e6 Laplace per rank, 1, 2, 4 ranks, ~100 s)
if [[ ${FMM8_WEAK:-0} == 1 ]]; then
  cpu=(--backend cpu --ranks_kernel laplace --warmup 1 --repeats 1)
  for ranks in 1 2 4; do ranks_run "cpu-$ranks" "$ranks" 1000000 60 "${cpu[@]}"; done
fi
tar -czf "$out/logs.tar.gz" -C "$logs" .

echo "=== summary (rank tables: the median evaluation, seconds)"
plain=$(sed 's/\x1b\[[0-9;]*m//g' "$logs/gtest-mpi.log")  # gtest colours its lines under mpiexec
echo "test_fmm_mpi Gpu*:FmmRanksTree* (2 ranks): rc $mpi_rc, $(grep -cE '^\[       OK' <<< "$plain") OK," \
  "$(grep -cE 'FAILED  \]' <<< "$plain") FAILED lines"
grep -hE "Failure|M2L pairs" "$logs/gtest-mpi.log" | head -6
for name in paper-backend paper-host gpu-1-backend gpu-2-backend gpu-1-host gpu-2-host cpu-1 cpu-2 cpu-4; do
  [[ -f "$logs/$name.log" ]] || continue
  echo "--- $name"
  grep -E "^rank |^ +[0-9]+ +[0-9]+ |median step" "$logs/$name.log"
done
grep -E "^interior|^ 4096|^at the target|^predicted" "$logs/model-b.log"
echo "total $(elapsed) s"
