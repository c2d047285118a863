#!/usr/bin/env bash
# The whole GPU check in one command (run on the H200 through the device tool, from the repo root):
#   build with CUDA in Release, run every test (GPU cases included, MPI cases under mpiexec), run the CUDA tests
#   under compute-sanitizer (memcheck, racecheck), measure `loom bench ceilings`, and print a short table last.
# Logs and JSON go to $OUT (the device tool's folder) or ./gpu-check-out. Carry .carry/ for toml++ headers
# (scripts/prepare-carry.sh); without them the build takes flags only.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
jobs=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0

# Files left in $out (the device tool returns at most 8): configure.log build.log ctest.log sanitizer.log
# ceilings.json report.txt.
status() { printf '%-36s %s\n' "$1" "$2" >> "$out/summary.txt"; }
: > "$out/summary.txt"

t0=$(date +%s)
scripts/configure-gpu-build.sh "$build" "$out/configure.log" || exit 1
if ! cmake --build "$build" -j "$jobs" > "$out/build.log" 2>&1; then
  grep -E "error|FAILED" "$out/build.log" | head -40; echo "build FAILED"; exit 1
fi
status "build" "ok ($(( $(date +%s) - t0 )) s, $(grep -c 'warning' "$out/build.log") warning lines)"

# 8 test processes share 16 cores: 2 OpenMP threads each, waiting passively (16 threads per process made the CPU
# cases of the GPE tests 30x slower on the H200 host).
(cd "$build" && OMP_NUM_THREADS=2 OMP_WAIT_POLICY=PASSIVE ctest --output-on-failure -j 8 --timeout 900) \
  > "$out/ctest.log" 2>&1
test_rc=$?
status "ctest (all labels)" "$(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1)"
skipped=$(grep -c '(Skipped)' "$out/ctest.log")
status "ctest skipped" "$skipped"
[[ $test_rc -ne 0 ]] && grep -E "Failed|FAILED|\*\*\*" "$out/ctest.log" | head -30

sanitizer_rc=0
if command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck; do
    for t in test_core_parallel_for test_core_array; do
      echo "=== compute-sanitizer --tool $tool $t" >> "$out/sanitizer.log"
      compute-sanitizer --tool "$tool" --error-exitcode 99 "$build/tests/$t" --gtest_filter='*cuda*' \
        >> "$out/sanitizer.log" 2>&1
      rc=$?
      [[ $rc -ne 0 ]] && sanitizer_rc=$rc
      status "sanitizer $tool $t" "$([[ $rc -eq 0 ]] && echo clean || echo "FAILED rc=$rc")"
    done
  done
else
  status "compute-sanitizer" "not found"
fi

{
  echo "=== loom info"
  "$build/bin/loom" info 2>&1
  echo "=== loom bench ceilings"
  "$build/bin/loom" bench ceilings --json "$out/ceilings.json" 2>&1
} > "$out/report.txt"
bench_rc=$?
cat "$out/report.txt"
echo "=== summary"; cat "$out/summary.txt"
cat "$out/summary.txt" >> "$out/report.txt"
rm -f "$out/summary.txt"
[[ $test_rc -eq 0 && $sanitizer_rc -eq 0 && $bench_rc -eq 0 ]]
