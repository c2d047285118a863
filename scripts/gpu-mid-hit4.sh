#!/usr/bin/env bash
# fft.pruned on the H200 in under 3 minutes (issue 20, the ninth session's mid-session check), from the repo root:
# builds loom and the hit GPU tests (build-gpu, configured by scripts/configure-gpu-build.sh when missing), runs the
# pruned transforms' GPU cases and the CPU-against-GPU cases (whose GPU solver now prunes by default), then
# `loom bench hit` at 256^3 and 512^3 with the plain and the pruned transforms; the table last. Logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
scripts/configure-gpu-build.sh "$build" "$out/hit4-configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target loom test_hit_pruned test_hit_backends > "$out/hit4-build.log" 2>&1
then
  grep -E "error|FAILED" "$out/hit4-build.log" | head -30
  echo "hit4 build FAILED"
  exit 1
fi
for t in test_hit_pruned test_hit_backends; do
  timeout 60 "$build/tests/hit/$t" > "$out/hit4-$t.log" 2>&1
  echo "$t: rc $? ($(grep -c '\[       OK \]' "$out/hit4-$t.log") ok, $(grep -c '\[  SKIPPED \]' "$out/hit4-$t.log") skipped)"
  grep -E "Failure|FAILED|error" "$out/hit4-$t.log" | head -10
done
timeout 150 "$build/bin/loom" bench hit --backend cuda --sizes 256,512 --fft.pruned both --fft.pruned_form both --repeats 3 --warmup 1 \
  --json "$out/hit4-bench.json" > "$out/hit4-bench.txt" 2> "$out/hit4-bench.err"
echo "loom bench hit: rc $?"
tail -3 "$out/hit4-bench.err"
cat "$out/hit4-bench.txt"
