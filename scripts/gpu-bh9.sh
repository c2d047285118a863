#!/usr/bin/env bash
# Issue 19, session 13 (branch bh9): the tensor filter's cost after the ring form (one triad field per conjugate/
# symmetry class, 31 of 65; phi by FFTW per ring set on the host, a block per ring set with the phi sums in shared
# memory on the device). (1) test_gr_gh_gpu's tensor cases (the new ring kernel against the direct form and the
# CPU; 100 steps CPU vs GPU). (2) spin_filter_timing: apply against apply_direct (the twelfth session's five
# loops) on 1 and 16 CPU threads and the GPU, 8x11x22 and 10x19x38. (3) The bench of the docs' 123x / 8.8x
# (session 8: `loom bench bh --steps 20 --warmup 2`, the paper's case): now with the tensor filter (the default)
# and with filter.angular scalar, on one core, 16 and the GPU. Usage: scripts/gpu-bh9.sh (about 3 minutes).
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d); t0=$(date +%s)
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_gr_gh_gpu spin_filter_timing > "$logs/build.log" 2>&1 \
  || { grep -E "error|FAILED" "$logs/build.log" | head -20; echo "build FAILED"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s; commit $(git rev-parse --short HEAD 2>/dev/null)"
timeout 120 build-gpu/tests/gr/test_gr_gh_gpu --gtest_filter='*Tensor*' > "$logs/gr.log" 2>&1
echo "test_gr_gh_gpu *Tensor*: rc $? $(grep -aE '^\[  (PASSED|FAILED)|FAILED  \]|Failure|Expected|actual' "$logs/gr.log" | tr '\n' ' ' | cut -c1-500)"
echo "== spin_filter_timing (ms per call, the 50 GH components, one shell)"
timeout 90 build-gpu/tests/spectral/spin_filter_timing 10 2>&1 | tail -8
for f in tensor scalar; do
  echo "== loom bench bh --steps 20 --warmup 2 --filter.angular $f"
  timeout 120 build-gpu/bin/loom bench bh --steps 20 --warmup 2 --filter.angular "$f" --json "$logs/bench-$f.json" \
    2>&1 | grep -v "^wrote\|plot" | tail -9
done
echo "total $(( $(date +%s) - t0 )) s"
echo "== summary: loom bench bh, the paper's case, ms per step (Filter ms), GPU speedup"
python3 - "$logs" <<'PY'
import json, sys
print("| filter.angular | cpu x1 step (Filter) | cpu x16 step (Filter) | cuda step (Filter) | cuda/x1 | cuda/x16 |")
print("| --- | --- | --- | --- | --- | --- |")
for f in ("tensor", "scalar"):
    try:
        rows = {r["backend"] + ("x%d" % r["threads"] if r["backend"] == "cpu" else ""): r
                for r in json.load(open("%s/bench-%s.json" % (sys.argv[1], f)))["profiles"]}
    except Exception as e:
        print("| %s | no result (%s) | | | | |" % (f, e)); continue
    cpu1 = rows.get("cpux1"); cpun = next((r for k, r in rows.items() if k.startswith("cpu") and k != "cpux1"), None)
    gpu = rows.get("cuda")
    cell = lambda r: "%.3f (%.3f)" % (1e3 * r["step_s"], 1e3 * r["modules_s_per_step"]["Filter"]) if r else "-"
    ratio = lambda r: "%.1fx" % (r["step_s"] / gpu["step_s"]) if r and gpu else "-"
    print("| %s | %s | %s | %s | %s | %s |" % (f, cell(cpu1), cell(cpun), cell(gpu), ratio(cpu1), ratio(cpun)))
PY
