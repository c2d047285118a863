#!/usr/bin/env bash
# Issue 21 item 1's check (<= 3 minutes on the H200, the build of the few targets included): the device tree and
# lists against their host forms (the block-per-cell split against the level-wide path's host form included), the
# resident evaluator against its CPU form, the Laplace 1e6 target at p 8 / theta 0.5 and at the accuracy budget's
# choice (fmm/accuracy_budget.hpp) with the per-phase split, and the budget's errors against the evaluator's at 1e6
# over three seeds ("error row:" lines). With nsys on the machine, also the CUDA API and kernel summary of the tree
# build and traversal at 1e6 bodies. FMMFAST_LARGE=1 adds the Biot-Savart 1.68e7 target (test_fmm_resident_gpu)
# with the device tree's build times at 1.68e7, and one vortex step at 256^3 (`loom bench vortex`, as
# scripts/gpu-vortex.sh; builds loom: ~2 more minutes unless built).
# From the repo root; the table last. Files in $OUT (or ./gpu-check-out): fmmfast-logs.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
logs=$(mktemp -d)
trap 'tar -czf "$out/fmmfast-logs.tar.gz" -C "$logs" . 2> /dev/null; rm -rf "$logs"' EXIT
t0=$(date +%s)
scripts/configure-gpu-build.sh "$build" "$logs/configure.log" --if-missing || exit 1
large=${FMMFAST_LARGE:-0}
tests=(test_fmm_device_tree_gpu test_fmm_resident_gpu)
targets=("${tests[@]}")
[[ $large == 1 ]] && targets+=(loom)
if ! cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" > "$logs/build.log" 2>&1; then
  grep -E "error|FAILED" "$logs/build.log" | head -40
  echo "fmmfast build FAILED"
  exit 1
fi
echo "build: $(( $(date +%s) - t0 )) s"
bin=$build/tests/fmm
# the 1.68e7 cases are the full check's (scripts/gpu-vortex.sh); here 1e6 only
tree_filter='*EqualTheHostForms*:*BlockSplit*:*AtOneMillion*'
[[ $large == 1 ]] && tree_filter+=':*BuildAndTraversalTimes*'  # 1e6 and 1.68e7, ncrit 64 and 256
timeout 90 "$bin/test_fmm_device_tree_gpu" --gtest_filter="$tree_filter" > "$logs/device_tree.log" 2>&1
echo "test_fmm_device_tree_gpu: rc $? $(grep -cE '^\[       OK' "$logs/device_tree.log") ok"
grep -E "FAILED|Failure|device tree:" "$logs/device_tree.log" | head -20
filter='*EqualsTheCpuForm*:*Laplace*Target*:*BudgetRows*:*ErrorsOverSeeds*'
[[ $large == 1 ]] && filter+=':*BiotSavartTarget*'
timeout 150 "$bin/test_fmm_resident_gpu" --gtest_filter="$filter" > "$logs/resident.log" 2>&1
echo "test_fmm_resident_gpu: rc $? $(grep -cE '^\[       OK' "$logs/resident.log") ok"
grep -E "FAILED|Failure|budget:" "$logs/resident.log" | head -20
if [[ $large == 1 ]]; then  # the vortex step at 256^3, as scripts/gpu-vortex.sh runs it
  timeout 200 "$build/bin/loom" bench vortex --backend cuda --particles 16777216 --box periodic --fmm.order 8 \
    --fmm.theta 0.6 --fmm.tree backend --steps 2 --warmup 1 --reinit.every 0 \
    --json "$logs/bench-vortex-resident.json" > "$logs/bench-vortex-resident.txt" 2>&1
  echo "bench vortex 256^3: rc $?"
  /usr/bin/python3 - "$logs/bench-vortex-resident.json" > "$logs/vortex-line.txt" << 'PYEOF'
import json, sys
try:
    steps = json.load(open(sys.argv[1])).get("steps", [])
except Exception as e:
    steps = []
    print(f"  no bench JSON ({e})")
for r in steps:
    print(f"vortex step {r['lattice_n']}^3: {r['step_s']:.3f} s (limit 1.5): tree {r['tree_s']:.3f} lists "
          f"{r['lists_s']:.3f} fmm {r['fmm_s']:.3f} update {r['update_s']:.3f} s; trees built {r.get('tree_builds')}")
PYEOF
fi
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
grep -hE "^(resident|budget row|error row):" "$logs/resident.log"
grep -h "^device tree:" "$logs/device_tree.log"
if [[ $large == 1 ]]; then cat "$logs/vortex-line.txt"; fi
