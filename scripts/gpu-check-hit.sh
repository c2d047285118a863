#!/usr/bin/env bash
# The pseudo-spectral solver's GPU check (issue 20), run on the H200 from the repo root (configures build-gpu with
# CUDA on when no other script has). One run validates everything and prints a short table last:
#   1. builds loom and the hit tests, runs them (the CUDA cases: cuFFT solver against FFTW from the same seed, no
#      transfers while stepping, Taylor-Green against spectralDNS on the device; every HitSolver test on cuda);
#   2. compute-sanitizer memcheck on the GPU comparison test;
#   3. `loom bench hit` on the GPU (64^3 .. 1024^3; sizes that do not fit are skipped and listed) and on the CPU
#      (64^3 .. 256^3, all cores): seconds per RK4 step against the FFT floor measured in the same run;
#   4. the decaying-turbulence example (examples/hit/decay.toml's values as flags: the GPU machine may lack
#      toml++) on the GPU, to t = 5: its summary (Re_lambda, skewness) and series.csv.
# Files left in $OUT (or ./gpu-check-out): hit-summary.txt, bench-hit-gpu.json, bench-hit-cpu.json, bench-hit.txt,
# hit-decay/ (the run directory without its fields) and hit-logs.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
logs=$(mktemp -d)
summary="$out/hit-summary.txt"
: > "$summary"
status() { printf '%-34s %s\n' "$1" "$2" >> "$summary"; }
tests=(test_hit_backends test_hit_pruned test_hit_solver test_hit_observables test_hit_cli)
trap 'tar -czf "$out/hit-logs.tar.gz" -C "$logs" . 2> /dev/null; rm -rf "$logs"' EXIT

scripts/configure-gpu-build.sh "$build" "$logs/hit-configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target loom "${tests[@]}" > "$logs/hit-build.log" 2>&1; then
  grep -E "error|FAILED" "$logs/hit-build.log" | head -40
  echo "hit build FAILED"
  exit 1
fi
status "build" "ok"

for t in "${tests[@]}"; do
  timeout 600 "$build/tests/hit/$t" > "$logs/$t.log" 2>&1
  status "$t" "rc $? ($(grep -c '\[       OK \]' "$logs/$t.log") ok, $(grep -c '\[  SKIPPED \]' "$logs/$t.log") skipped lines)"
done

if command -v compute-sanitizer > /dev/null; then
  timeout 600 compute-sanitizer --tool memcheck --error-exitcode 99 "$build/tests/hit/test_hit_backends" \
    > "$logs/hit-memcheck.log" 2>&1
  status "compute-sanitizer memcheck" "rc $?"
fi

timeout 600 "$loom" bench hit --backend cuda --sizes 64,128,256,512,1024 --repeats 5 --warmup 2 \
  --json "$out/bench-hit-gpu.json" > "$logs/bench-gpu.txt" 2> "$logs/bench-gpu.err"
status "loom bench hit (cuda)" "rc $?"
timeout 900 "$loom" bench hit --backend cpu --sizes 64,128,256 --repeats 3 --warmup 1 --fft.planning measure \
  --json "$out/bench-hit-cpu.json" > "$logs/bench-cpu.txt" 2> "$logs/bench-cpu.err"
status "loom bench hit (cpu)" "rc $?"
cat "$logs/bench-gpu.txt" "$logs/bench-cpu.txt" > "$out/bench-hit.txt"

rm -rf "$out/hit-decay"
timeout 900 "$loom" hit --backend cuda --grid.n 128 --physics.nu 0.005774 --initial.type random \
  --initial.k_peak 4 --initial.energy 0.5 --initial.seed 1 --time.t_end 5 --time.cfl 0.5 --output.every 0.05 \
  --output.fields false --output.plots false --quiet --output.dir "$out/hit-decay" > "$logs/decay.txt" 2>&1
status "decay example (cuda, 128^3)" "rc $? $(tail -1 "$logs/decay.txt")"
rm -f "$out/hit-decay/checkpoint.h5"

cat "$summary" "$out/bench-hit.txt"
