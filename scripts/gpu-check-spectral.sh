#!/usr/bin/env bash
# The spectral toolkit's GPU check (issue 18), run on the H200 from the repo root (configures build-gpu with CUDA
# on when scripts/gpu-check.sh has not):
#   1. builds loom and the spectral tests, runs every spectral test binary (test_spectral_gpu: every GPU strategy
#      against the CPU reference, dense and separable, the CSR filter through cuSPARSE; test_spectral_jacobian:
#      the CUDA DiffJac and SpatialCoordJac against naive loops);
#   2. compute-sanitizer memcheck on test_spectral_gpu and the CUDA Jacobian cases;
#   3. `loom spectral` on SpEC's production shell (10x19x38, T_abb) with every strategy, dense and separable;
#   4. `loom bench spectral --backend all` (GPU, CPU on 1 core and on all): the Jacobian sweep, cubes 8..64, the
#      SingleBH and BBH shell sequences, every strategy.
# Files left in $OUT (or ./gpu-check-out): spectral-summary.txt, spectral-shell.txt, bench-spectral.txt,
# bench-spectral.json, the plots (tools/plot_spectral.py, where matplotlib is present), spectral-logs.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
logs=$(mktemp -d)
summary="$out/spectral-summary.txt"
: > "$summary"
status() { printf '%-40s %s\n' "$1" "$2" >> "$summary"; }
tests=(test_spectral_gpu test_spectral_multi_tensor test_spectral_strategy_choice test_spectral_jacobian
       test_spectral_bases test_spectral_sphere test_spectral_topology
       test_spectral_operator_cache test_spectral_separable test_spectral_s2_filter test_spectral_tensor
       test_spectral_cli)
finish() {
  tar -czf "$out/spectral-logs.tar.gz" -C "$logs" . 2> /dev/null
  rm -rf "$logs"
  cat "$summary"
}
trap finish EXIT

scripts/configure-gpu-build.sh "$build" "$logs/configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target loom "${tests[@]}" > "$logs/build.log" 2>&1; then
  grep -E "error|FAILED" "$logs/build.log" | head -40
  exit 1
fi
status "build" "ok"

for t in "${tests[@]}"; do
  timeout 300 "$build/tests/spectral/$t" > "$logs/$t.log" 2>&1
  rc=$?
  status "$t" "rc=$rc $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$logs/$t.log" | tr '\n' ' ')"
done

for t in test_spectral_gpu test_spectral_jacobian; do
  filter=$([ "$t" = test_spectral_jacobian ] && echo '--gtest_filter=*cuda*' || echo '')
  timeout 600 compute-sanitizer --tool memcheck --error-exitcode 9 "$build/tests/spectral/$t" $filter \
    > "$logs/memcheck-$t.log" 2>&1
  status "memcheck $t" "rc=$? $(grep -E 'ERROR SUMMARY' "$logs/memcheck-$t.log" | tail -1)"
done

: > "$out/spectral-shell.txt"
for angular in dense separable; do
  for strategy in batched streamed fused; do
    echo "== --backend cuda --strategy $strategy --angular $angular" >> "$out/spectral-shell.txt"
    timeout 120 "$loom" spectral --extents 10,19,38 --tensor abb --backend cuda --strategy "$strategy" \
      --angular "$angular" --repeats 50 >> "$out/spectral-shell.txt" 2>&1
  done
  echo "== --backend cpu --strategy blas --angular $angular" >> "$out/spectral-shell.txt"
  timeout 120 "$loom" spectral --extents 10,19,38 --tensor abb --backend cpu --strategy blas --angular "$angular" \
    --repeats 10 >> "$out/spectral-shell.txt" 2>&1
done
status "loom spectral production shell" "see spectral-shell.txt"

# SPECTRAL_BENCH_ARGS adds or overrides flags (e.g. "--sweeps singlebh,bbh --cpu_threads 0").
read -r -a bench_args <<< "${SPECTRAL_BENCH_ARGS:---repeats 5}"
timeout 900 "$loom" bench spectral --backend all "${bench_args[@]}" --json "$out/bench-spectral.json" \
  > "$out/bench-spectral.txt" 2> "$logs/bench.err"
status "loom bench spectral" "rc=$? ($(grep -c . "$out/bench-spectral.txt") lines)"
python3 tools/plot_spectral.py "$out/bench-spectral.json" "$out/spectral" > /dev/null 2>&1 &&
  status "plots" "spectral_jacobian.png spectral_cube.png spectral_shells.png"
