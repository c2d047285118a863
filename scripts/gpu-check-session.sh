#!/usr/bin/env bash
# One device call that checks a merged main on the H200 (run from the repo root through the device tool, with
# .carry from scripts/prepare-carry.sh): CUDA build, every non-slow test (GPU and MPI cases included), then short
# runs of the newest systems on the GPU. Logs in $OUT (or ./gpu-check-out); a short table last.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$PWD/$build/bin/loom"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
t0=$(date +%s)
scripts/configure-gpu-build.sh "$build" "$out/configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1; then
  grep -E "error|FAILED" "$out/build.log" | head -40; echo "build FAILED"; exit 1
fi
echo "build: $(( $(date +%s) - t0 )) s"
(cd "$build" && OMP_NUM_THREADS=2 OMP_WAIT_POLICY=PASSIVE timeout "${CTEST_SECONDS:-330}" ctest -LE slow -j 8 \
   --timeout 240 --output-on-failure) > "$out/ctest.log" 2>&1
grep -E "tests passed|tests failed" "$out/ctest.log"
sed -n '/The following tests FAILED/,$p' "$out/ctest.log" | head -20
echo "ctest: $(( $(date +%s) - t0 )) s"
run() {  # label, command...
  local label=$1; shift
  local s=$(date +%s%N) rc
  timeout "${RUN_SECONDS:-120}" "$@" > "$out/$label.log" 2>&1; rc=$?
  # Integer arithmetic only: the device image has no bc.
  printf '%-28s rc=%-3s %6d ms  %s\n' "$label" "$rc" "$(( ($(date +%s%N) - s) / 1000000 ))" \
    "$(grep -vE '^\s*$' "$out/$label.log" | tail -1 | cut -c1-150)"
}
scratch=$(mktemp -d)
run bench-hit "$loom" bench hit --backend cuda --sizes 256,512 --repeats 3
run bench-bh "$loom" bench bh --steps 50 --warmup 2
run bh-cuda "$loom" bh --backend cuda --time.t_end 20 --output.dir "$scratch/bh" --output.plots false
run vortex-ring-cuda "$loom" vortex --backend cuda --output.dir "$scratch/ring" --output.plots false
run gpe-ppw400-refused "$loom" gpe --grid.points_per_wavelength 400 --backend cuda --output.dir "$scratch/g"
run hit-512-cuda "$loom" hit --grid.n 512 --backend cuda --time.t_end 0.01 --output.dir "$scratch/h" \
  --output.fields false --output.plots false
cp "$scratch/bh/series.csv" "$out/bh-series.csv" 2> /dev/null
cp "$scratch/ring/summary.json" "$out/ring-summary.json" 2> /dev/null
grep -A40 "module" "$out/bench-bh.log" | head -40
grep -E "^\s*(256|512)" "$out/bench-hit.log" | head
rm -rf "$scratch"
