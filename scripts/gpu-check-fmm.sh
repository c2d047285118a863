#!/usr/bin/env bash
# The FMM's GPU check (issue 6), run on the H200 from the repo root after scripts/gpu-check.sh has built
# build-gpu with CUDA on: builds the FMM targets if needed, runs the FMM's GPU tests (CUDA against the CPU),
# compute-sanitizer memcheck and racecheck on a small case, then `loom bench fmm` at the issue's sizes (Laplace
# to 1.68e7 bodies with error against time for p = 4..14 at 1e6; Biot-Savart to 1.68e7), and prints a short
# table last. Logs and JSON go to $OUT (the device tool's folder) or ./gpu-check-out. About 5 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
summary="$out/fmm-summary.txt"
: > "$summary"
status() { printf '%-34s %s\n' "$1" "$2" >> "$summary"; }

if ! cmake --build "$build" -j "$(nproc)" --target loom test_fmm_gpu test_fmm_laplace test_fmm_biot_savart \
     > "$out/fmm-build.log" 2>&1; then
  grep -E "error|FAILED" "$out/fmm-build.log" | head -40; echo "fmm build FAILED"; exit 1
fi
status "build" "ok"

"$build/tests/fmm/test_fmm_gpu" > "$out/fmm-test-gpu.log" 2>&1
gpu_rc=$?
status "test_fmm_gpu" "$(grep -E '^\[  (PASSED|FAILED)  \]' "$out/fmm-test-gpu.log" | tr '\n' ' ') (rc $gpu_rc)"
status "  skipped" "$(grep -c '^\[  SKIPPED \]' "$out/fmm-test-gpu.log")"
grep -E "^\[ (cube|sphere|plummer) \]" "$out/fmm-test-gpu.log" >> "$summary"

sanitizer_rc=0
if command -v compute-sanitizer > /dev/null; then
  for tool in memcheck racecheck; do
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$build/tests/fmm/test_fmm_gpu" \
      --gtest_filter='*SmallProblems*:*PlainDirect*' > "$out/fmm-sanitizer-$tool.log" 2>&1
    rc=$?
    [[ $rc -ne 0 ]] && sanitizer_rc=$rc
    status "sanitizer $tool" "$([[ $rc -eq 0 ]] && echo clean || echo "FAILED rc=$rc")"
  done
else
  status "compute-sanitizer" "not found"
fi

# The CPU runs use every core; the CPU sweep is shorter than the GPU's (orders 4, 8, 12).
timeout 420 "$loom" bench fmm --kernel laplace --sizes 10000,100000,1000000,16777216 --cpu_max_n 1000000 \
  --sweep_n 1000000 --orders 4,6,8,10,12,14 --cpu_orders 4,8,12 --thetas 0.4,0.6 --repeats 3 --warmup 1 \
  --json "$out/bench-fmm-laplace.json" > "$out/bench-fmm-laplace.txt" 2> "$out/bench-fmm-laplace.err"
bench_rc=$?
status "loom bench fmm (laplace)" "rc $bench_rc"
timeout 300 "$loom" bench fmm --kernel biot-savart --sizes 100000,1000000,16777216 --cpu_max_n 100000 --p 8 --thetas 0.5 \
  --repeats 2 --warmup 1 --json "$out/bench-fmm-biot-savart.json" > "$out/bench-fmm-biot-savart.txt" \
  2> "$out/bench-fmm-biot-savart.err"
bench_bs_rc=$?
status "loom bench fmm (biot-savart)" "rc $bench_bs_rc"

echo "=== loom bench fmm --kernel laplace"; cat "$out/bench-fmm-laplace.txt"; tail -3 "$out/bench-fmm-laplace.err"
echo "=== loom bench fmm --kernel biot-savart"; cat "$out/bench-fmm-biot-savart.txt"; tail -3 "$out/bench-fmm-biot-savart.err"
echo "=== test_fmm_gpu failures"; grep -E "Failure|FAILED" -A4 "$out/fmm-test-gpu.log" | head -40
echo "=== fmm summary (targets: 1e6 Laplace <= 1e-4 in <= 20 ms and <= 1e-6 in <= 60 ms; 1.68e7 Biot-Savart in <= 1 s)"
cat "$summary"
grep -E "^fastest|^direct-sum" "$out/bench-fmm-laplace.txt"
grep -E "^(cuda|cpu) +(laplace|biot-savart) +(1000000|16777216) " "$out/bench-fmm-laplace.txt" "$out/bench-fmm-biot-savart.txt" \
  | sed 's/^[^:]*://' | awk '{printf "%-5s %-11s n %-9s p %-3s eval %s s  err %s\n", $1, $2, $3, $4, $13, $14}'
[[ $gpu_rc -eq 0 && $sanitizer_rc -eq 0 && $bench_rc -eq 0 && $bench_bs_rc -eq 0 ]]
