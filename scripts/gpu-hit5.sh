#!/usr/bin/env bash
# Issue 20, tenth session (hit5): the non-FFT traffic of the 512^3 RK4 step on the H200, from the repo root.
#   scripts/gpu-hit5.sh early   an Nsight Compute census of one pruned 512^3 step (every kernel's duration and DRAM
#                               bytes, summed per kernel; tools/hit_ncu_table.py) and the CPU's pruned transforms
#                               against the plain ones on the host's 16 cores (fft.pruned's CPU default);
#   scripts/gpu-hit5.sh final   the hit GPU tests, then `loom bench hit --backend cuda --sizes 256,512
#                               --fft.pruned both` and the same census of the step as built now.
# Builds loom and the hit tests in build-gpu (configured by scripts/configure-gpu-build.sh when missing). Logs and
# JSON under $OUT; the tables last.
set -uo pipefail
mode=${1:-final}
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom=$build/bin/loom
scripts/configure-gpu-build.sh "$build" "$out/hit5-configure.log" --if-missing || exit 1
targets=(loom)
[[ $mode == final ]] && targets+=(test_hit_pruned test_hit_backends test_hit_solver)
if ! cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" > "$out/hit5-build.log" 2>&1; then
  grep -E "error|FAILED" "$out/hit5-build.log" | head -30
  echo "hit5 build FAILED"
  exit 1
fi

census() {  # an ncu census of the first step of `loom bench hit` at 512^3 with fft.pruned = $1
  local ncu
  ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | head -1)
  if [[ -z $ncu ]]; then echo "no ncu on this machine: no census"; return; fi
  timeout 120 "$ncu" --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --page raw \
    --print-units base --print-kernel-base demangled --launch-count 130 "$loom" bench hit --backend cuda --sizes 512 --fft.pruned "$1" \
    --repeats 1 --warmup 0 > "$out/hit5-ncu-$1.csv" 2> "$out/hit5-ncu-$1.err"
  echo "ncu ($1): rc $?"
  python3 tools/hit_ncu_table.py "$out/hit5-ncu-$1.csv" | tee "$out/hit5-ncu-$1.txt"
}

if [[ $mode == early ]]; then
  census on
  for planning in estimate measure; do  # FFTW_MEASURE plans take long: 128^3 only
    sizes=128,256
    [[ $planning == measure ]] && sizes=128
    OMP_NUM_THREADS=16 timeout 80 "$loom" bench hit --backend cpu --sizes $sizes --fft.pruned both \
      --fft.pruned_form both --fft.planning "$planning" --repeats 3 --warmup 1 --json "$out/hit5-cpu-$planning.json" \
      > "$out/hit5-cpu-$planning.txt" 2> "$out/hit5-cpu-$planning.err"
    echo "== CPU, 16 threads, fft.planning $planning: rc $? =="
    cut -c1-135 "$out/hit5-cpu-$planning.txt"
  done
  exit 0
fi

for t in test_hit_pruned test_hit_backends test_hit_solver; do
  timeout 90 "$build/tests/hit/$t" > "$out/hit5-$t.log" 2>&1
  echo "$t: rc $? ($(grep -c '\[       OK \]' "$out/hit5-$t.log") ok, $(grep -c '\[  SKIPPED \]' "$out/hit5-$t.log") skipped)"
  grep -E "Failure|FAILED|error" "$out/hit5-$t.log" | head -10
done
census on
timeout 150 "$loom" bench hit --backend cuda --sizes 256,512 --fft.pruned both --repeats 3 --warmup 1 \
  --json "$out/hit5-bench.json" > "$out/hit5-bench.txt" 2> "$out/hit5-bench.err"
echo "loom bench hit: rc $?"
tail -3 "$out/hit5-bench.err"
cut -c1-150 "$out/hit5-bench.txt"
