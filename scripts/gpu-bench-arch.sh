#!/usr/bin/env bash
# The speed check of a refactoring (issue 15): the GPE march and soa kernels at the issue-5 record sizes and the
# FMM evaluation at the issue-6 targets, in one command on the H200, from the repo root:
#   scripts/gpu-bench-arch.sh          (carry .carry for toml++: scripts/prepare-carry.sh)
# Builds build-gpu (loom only), then prints each benchmark's table and a short summary last. JSON in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-bench-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
scripts/configure-gpu-build.sh "$build" "$out/configure.log" --if-missing || exit 1
cmake --build "$build" -j "$(nproc)" --target loom > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
git log -1 --format='commit %h %s' | cut -c1-100

run() {  # name, then the bench arguments
  local name=$1; shift
  echo "=== $name: loom bench $*"
  timeout 240 "$loom" bench "$@" --json "$out/$name.json" 2>&1 | tee "$out/$name.txt"
}
run gpe-bcc gpe --backend cuda --grids bcc --kernels march --dof 1e8,1.4e8,1.66e8,236196000 --repeats 5
run gpe-c15 gpe --backend cuda --grids c15 --kernels soa --dof 142000000 --repeats 5
run fmm-laplace fmm --backend cuda --kernel laplace --sizes 1000000 --p 8 --thetas 0.7 --precision single-fast \
  --sweep_n 1000000 --orders 8,14 --sweep_precisions single-fast --repeats 5 --warmup 1
run fmm-bs fmm --backend cuda --kernel biot-savart --sizes 16777216 --p 10 --thetas 0.6 --repeats 3 --warmup 1

echo "=== summary"
"${LOOM_PYTHON:-python3}" - "$out" <<'PY'
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
def rows(name):
    p = out / f"{name}.json"
    return json.loads(p.read_text()) if p.exists() else {}
for name in ("gpe-bcc", "gpe-c15"):
    for r in rows(name).get("results", []):
        if r.get("backend") == "cuda":
            print(f"{name:12} {r['grid']} dof {r['dof']:.3e} {r['variant']}: {r['dof_updates_per_s']/1e9:.2f} G DOF/s"
                  f" ({100*r['fraction_of_copy']:.1f}% of copy)")
for name in ("fmm-laplace", "fmm-bs"):
    for r in rows(name).get("runs", []):
        print(f"{name:12} n {r['n']} p {r['p']} theta {r['theta']} {r['precision']}: evaluate {r['evaluate']*1e3:.2f} ms"
              f" err {r.get('gradient_error', r.get('velocity_error'))}")
PY
