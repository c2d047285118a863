#!/usr/bin/env bash
# Issue 7 in one command: strong and weak scaling of the GPE leapfrog step over the GPUs of one host (the DEC-GPE
# paper's Fig. 9: BCC, 87 x 87 x 302 structures; weak scaling from the same problem per rank), one MPI rank per
# GPU, then Amdahl's and Gustafson's fits (tools/fit_scaling.py) and the Fig. 9-style plot. Run from the repo root
# on a multi-GPU machine (configures build-gpu with CUDA when scripts/gpu-check.sh has not):
#   scripts/gpu-scaling-gpe.sh                 # every GPU nvidia-smi lists, rank counts 1, 2, 4, 8 (those <= GPUs)
#   SCALING_RANKS=2 scripts/gpu-scaling-gpe.sh  # two ranks (on one GPU they share it: a check, not a measurement)
#   SCALING_BACKEND=cpu SCALING_RANKS=2 SCALING_STRUCTURES=12,12,40 scripts/gpu-scaling-gpe.sh  # the CPU path
# Each rank takes the GPU of its node-local rank. NVLink multicast stays off (NCCL_NVLS_ENABLE=0, the device
# notes); the halos travel by MPI (CUDA-aware where the library reports it, pinned host buffers otherwise).
# Files in $OUT (or ./gpu-check-out): scaling.json (the benchmark), scaling-fits.json, fig9-scaling.png,
# scaling.txt (the tables, printed last).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
backend=${SCALING_BACKEND:-cuda}
structures=${SCALING_STRUCTURES:-87,87,302}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0

if [[ $backend == cuda ]]; then
  gpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU')
  [[ $gpus -ge 1 ]] || { echo "no GPU listed by nvidia-smi"; exit 1; }
  scripts/configure-gpu-build.sh "$build" "$out/configure.log" --if-missing || exit 1
else
  gpus=$(nproc)
  build=${BUILD_DIR:-build}
fi
cmake --build "$build" -j "$(nproc)" --target loom > "$out/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$out/build.log" | head -20; echo "build FAILED"; exit 1; }

ranks=${SCALING_RANKS:-}
if [[ -z $ranks ]]; then  # the largest power of two up to the GPUs
  ranks=1
  while (( ranks * 2 <= gpus && ranks < 8 )); do ranks=$(( ranks * 2 )); done
fi
counts=$(r=1; while (( r <= ranks )); do printf '%s,' "$r"; r=$(( r * 2 )); done)
counts=${counts%,}
(( ranks > gpus )) && echo "note: $ranks ranks on $gpus GPU(s): ranks share devices" | tee "$out/scaling.txt"

timeout 540 mpiexec --oversubscribe --bind-to none -n "$ranks" "$build/bin/loom" bench gpe --backend "$backend" \
  --scaling both --ranks "$counts" --strong_structures "$structures" --weak_structures "$structures" \
  --repeats "${SCALING_REPEATS:-5}" --json "$out/scaling.json" >> "$out/scaling.txt" 2>&1
rc=$?
echo "loom bench gpe --scaling both on $ranks ranks ($counts): rc $rc" >> "$out/scaling.txt"
if [[ $rc -eq 0 ]]; then
  python3 tools/fit_scaling.py "$out/scaling.json" --json "$out/scaling-fits.json" --plot "$out/fig9-scaling.png" \
    >> "$out/scaling.txt" 2>&1
  echo "tools/fit_scaling.py: rc $?" >> "$out/scaling.txt"
fi
cat "$out/scaling.txt"
exit $rc
