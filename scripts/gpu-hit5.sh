#!/usr/bin/env bash
# Issue 20, tenth session (hit5): the non-FFT traffic of the 512^3 RK4 step on the H200, from the repo root.
#   scripts/gpu-hit5.sh early   an Nsight Compute census of one pruned 512^3 step (every kernel's duration and DRAM
#                               bytes, summed per kernel; tools/hit_ncu_table.py) and the CPU's pruned transforms
#                               against the plain ones on the host's 16 cores (fft.pruned's CPU default);
#   scripts/gpu-hit5.sh mid     (under 2.5 minutes) the pruned GPU tests, `loom bench hit --backend cuda --sizes 512
#                               --fft.pruned both` and the census of the step as built now;
#   scripts/gpu-hit5.sh final   the hit GPU tests, `loom bench hit --backend cuda --sizes 256,512 --fft.pruned both`
#                               and the census.
# Builds in build-gpu (configured by scripts/configure-gpu-build.sh when missing). Logs and CSV go into one tarball
# under $OUT (hit5-logs.tar.gz: $OUT brings back few files); the tables are printed.
set -uo pipefail
mode=${1:-final}
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
logs=$(mktemp -d)
mkdir -p "$out"
trap 'tar -czf "$out/hit5-logs.tar.gz" -C "$logs" . 2> /dev/null' EXIT
build=${BUILD_DIR:-build-gpu}
loom=$build/bin/loom
scripts/configure-gpu-build.sh "$build" "$logs/configure.log" --if-missing || exit 1
targets=(loom)
[[ $mode != early ]] && targets+=(test_hit_pruned)
[[ $mode == final ]] && targets+=(test_hit_backends test_hit_solver)
if ! cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" > "$logs/build.log" 2>&1; then
  grep -E "error|FAILED" "$logs/build.log" | head -30
  echo "hit5 build FAILED"
  exit 1
fi

census() {  # an ncu census of the first step of `loom bench hit` at 512^3 with fft.pruned = $1
  local ncu
  ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | head -1)
  if [[ -z $ncu ]]; then echo "no ncu on this machine: no census"; return; fi
  timeout "$2" "$ncu" --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv --page raw \
    --print-units base --print-kernel-base demangled --launch-count 140 "$loom" bench hit --backend cuda --sizes 512 \
    --fft.pruned "$1" --repeats 1 --warmup 0 > "$logs/ncu-$1.csv" 2> "$logs/ncu-$1.err"
  echo "ncu ($1): rc $?"
  python3 tools/hit_ncu_table.py "$logs/ncu-$1.csv" 30 | tee "$logs/ncu-$1.txt"
}

bench() {  # loom bench hit on the GPU at sizes $1
  timeout 150 "$loom" bench hit --backend cuda --sizes "$1" --fft.pruned both --repeats 3 --warmup 1 \
    --json "$logs/bench.json" > "$logs/bench.txt" 2> "$logs/bench.err"
  echo "loom bench hit: rc $?"
  tail -3 "$logs/bench.err"
  cut -c1-150 "$logs/bench.txt"
}

if [[ $mode == early ]]; then
  census on 120
  for planning in estimate measure; do  # FFTW_MEASURE plans take long: 128^3 only
    sizes=128,256
    [[ $planning == measure ]] && sizes=128
    OMP_NUM_THREADS=16 timeout 80 "$loom" bench hit --backend cpu --sizes $sizes --fft.pruned both \
      --fft.pruned_form both --fft.planning "$planning" --repeats 3 --warmup 1 --json "$logs/cpu-$planning.json" \
      > "$logs/cpu-$planning.txt" 2> "$logs/cpu-$planning.err"
    echo "== CPU, 16 threads, fft.planning $planning: rc $? =="
    cut -c1-135 "$logs/cpu-$planning.txt"
  done
  exit 0
fi

tests=(test_hit_pruned)
[[ $mode == final ]] && tests+=(test_hit_backends test_hit_solver)
for t in "${tests[@]}"; do
  filter='*'
  [[ $mode == mid ]] && filter='HitPrunedGpu.*'
  timeout 90 "$build/tests/hit/$t" --gtest_filter="$filter" > "$logs/$t.log" 2>&1
  echo "$t: rc $? ($(grep -c '\[       OK \]' "$logs/$t.log") ok, $(grep -c '\[  SKIPPED \]' "$logs/$t.log") skipped)"
  grep -E "Failure|FAILED|error" "$logs/$t.log" | head -10
done
if [[ $mode == mid ]]; then
  census on 75
  bench 512
else
  census on 120
  bench 256,512
fi
