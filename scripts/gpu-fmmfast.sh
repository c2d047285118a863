#!/usr/bin/env bash
# Issue 21 item 1's mid-session check (<= 3 minutes on the H200, the build of the few targets included): the device
# tree and lists against their host forms, the resident evaluator against its CPU form, and the Laplace 1e6 target
# at p 8 / theta 0.5 and at the accuracy budget's choice (fmm/accuracy_budget.hpp), with the per-phase split. With
# nsys on the machine, also the CUDA API and kernel summary of the tree build and traversal at 1e6 bodies. From the
# repo root; the table last. Files in $OUT (or ./gpu-check-out): fmmfast-logs.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
logs=$(mktemp -d)
trap 'tar -czf "$out/fmmfast-logs.tar.gz" -C "$logs" . 2> /dev/null; rm -rf "$logs"' EXIT
t0=$(date +%s)
scripts/configure-gpu-build.sh "$build" "$logs/configure.log" --if-missing || exit 1
tests=(test_fmm_device_tree_gpu test_fmm_resident_gpu)
if ! cmake --build "$build" -j "$(nproc)" --target "${tests[@]}" > "$logs/build.log" 2>&1; then
  grep -E "error|FAILED" "$logs/build.log" | head -40
  echo "fmmfast build FAILED"
  exit 1
fi
echo "build: $(( $(date +%s) - t0 )) s"
bin=$build/tests/fmm
# the 1.68e7 cases are the full check's (scripts/gpu-vortex.sh); here 1e6 only
timeout 60 "$bin/test_fmm_device_tree_gpu" --gtest_filter='*EqualTheHostForms*:*AtOneMillion*' \
  > "$logs/device_tree.log" 2>&1
echo "test_fmm_device_tree_gpu: rc $? $(grep -cE '^\[       OK' "$logs/device_tree.log") ok"
grep -E "FAILED|Failure|device tree:" "$logs/device_tree.log" | head -20
timeout 90 "$bin/test_fmm_resident_gpu" --gtest_filter='*EqualsTheCpuForm*:*Laplace*Target*:*BudgetRows*' > "$logs/resident.log" 2>&1
echo "test_fmm_resident_gpu: rc $? $(grep -cE '^\[       OK' "$logs/resident.log") ok"
grep -E "FAILED|Failure|budget:" "$logs/resident.log" | head -20
if command -v nsys > /dev/null && (( $(date +%s) - t0 < 120 )); then
  timeout 45 nsys profile --force-overwrite true -o "$logs/tree" --stats=false \
    "$bin/test_fmm_device_tree_gpu" --gtest_filter='*AtOneMillion*' > "$logs/nsys.log" 2>&1 &&
    timeout 20 nsys stats --report cuda_api_sum,cuda_gpu_kern_sum --format csv "$logs/tree.nsys-rep" \
      > "$logs/nsys-stats.csv" 2>&1
  echo "nsys (top CUDA API calls and kernels by total time, tree build + lists at 1e6, 3 runs):"
  /usr/bin/python3 - "$logs/nsys-stats.csv" << 'PYEOF'
import csv, io, sys
text = open(sys.argv[1]).read()
for block in text.split("\n\n"):
    rows = [r for r in csv.reader(io.StringIO(block.strip())) if r]
    head = next((i for i, r in enumerate(rows) if r and r[0].startswith("Time")), None)
    if head is None:
        continue
    cols = rows[head]
    name = cols.index("Name") if "Name" in cols else len(cols) - 1
    total = cols.index("Total Time (ns)") if "Total Time (ns)" in cols else 1
    calls = next((cols.index(c) for c in ("Num Calls", "Instances", "Count") if c in cols), 2)
    for r in rows[head + 1: head + 9]:
        print(f"  {float(r[total]) / 1e6:9.2f} ms {r[calls]:>7}x  {r[name][:90]}")
PYEOF
fi
echo "split (seconds; best of three after a warm-up):"
grep -hE "^(resident|budget row):" "$logs/resident.log"
grep -h "^device tree:" "$logs/device_tree.log"
