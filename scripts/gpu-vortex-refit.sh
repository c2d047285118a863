#!/usr/bin/env bash
# Issue 21's tree re-fit in the paper's periodic case (fourteenth session): the re-fit keeps a particle that crossed
# a face at its image beside its leaf, and the periodic sums see a neutral box (vortex/neutral.hpp), so re-fits
# are kept where they were never kept before (session 13, H200: 20 builds, 0 re-fits). The particles are loom hit's
# Re_lambda 50 field (128^3 grid, particles.refine 2: 1.68e7) as in gpu-vortex-step.sh, stepped to REFIT_T_END
# (0.4: 20 steps of 0.02, reinit every 5, rows at t = 0, 0.2, 0.4) at fmm.rebuild_cost 0 (a tree every evaluation)
# and 1.05 (the rule). First the device re-fit gtest (test_fmm_resident_gpu: device counts and sums = CPU form's).
# Prints last one line per cost (AB2 step, its parts, builds, re-fits, all steps) and the statistics at each row of
# both runs with their relative difference (expected: the FMM's error, ~1e-5..1e-4). ~2.8 minutes with the build.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-refit-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
costs=${REFIT_COSTS:-0 1.05}
runs=${RUN_DIR:-$build/refit-runs}
t0=$(date +%s)
scripts/configure-gpu-build.sh "$build" "$out/configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target loom test_fmm_resident_gpu > "$out/build.log" 2>&1; then
  grep -E "error|FAILED" "$out/build.log" | head -40
  echo "build FAILED"
  exit 1
fi
echo "build ok ($(( $(date +%s) - t0 )) s)"
timeout 60 "$build/tests/fmm/test_fmm_resident_gpu" --gtest_filter='*Refit*' > "$out/test_fmm_resident_gpu.log" 2>&1
echo "test_fmm_resident_gpu (re-fit cases on the device): rc $?"
for c in $costs; do
  timeout 100 "$loom" vortex --particles.n 128 --particles.refine 2 --initial.type hit --initial.seed 7 \
    --initial.k_peak 3 --physics.nu 0.0074 --time.t_end "${REFIT_T_END:-0.4}" --time.dt 0.02 --backend cuda --quiet \
    --output.fields false --output.overwrite true --output.plots false --output.every 10 \
    --output.checkpoint_every 0 --reinit.every 5 --fmm.order 8 --fmm.theta 0.6 \
    --fmm.rebuild_cost "$c" --output.dir "$runs/cost-$c" > "$out/cost-$c.log" 2>&1
  echo "rebuild_cost $c: rc $? ($(( $(date +%s) - t0 )) s since the start)"
  mkdir -p "$out/cost-$c"  # $OUT keeps the small files only (the run directory holds snapshots)
  cp "$runs/cost-$c/summary.json" "$runs/cost-$c/series.csv" "$out/cost-$c/" 2> /dev/null
done
/usr/bin/python3 - "$out" $costs << 'PYEOF'
import csv, json, sys
out, costs = sys.argv[1], sys.argv[2:]
print(f"{'cost':>5} {'AB2 step s':>10} {'tree':>6} {'lists':>6} {'fmm':>6} {'update':>6} {'builds':>6} {'refits':>6} "
      f"{'all steps s':>11}")
rows = {}
for c in costs:
    try:
        j = json.load(open(f"{out}/cost-{c}/summary.json"))
        rows[c] = list(csv.DictReader(open(f"{out}/cost-{c}/series.csv")))
    except (OSError, ValueError) as e:
        print(f"{c:>5} no result ({e})")
        continue
    a, s, f = j["seconds_per_ab2_step"], j["seconds_per_step"], j["fmm"]
    print(f"{c:>5} {a['total']:10.3f} {a['tree']:6.3f} {a['lists']:6.3f} {a['fmm']:6.3f} {a['update']:6.3f} "
          f"{f.get('tree_builds', 0):6d} {f.get('tree_refits', 0):6d} {s['total']:11.3f}")
if len(rows) == 2:
    a, b = (rows[c] for c in costs)
    print(f"statistics, cost {costs[0]} against {costs[1]} (relative difference):")
    for ra, rb in zip(a, b):
        line = f"  t {float(ra['t']):.2f}"
        for k in ("energy", "dissipation", "skewness"):
            x, y = float(ra[k]), float(rb[k])
            line += f"  {k} {x:.6f} {y:.6f} ({(y - x) / abs(x):+.1e})"
        q = [float(rb[f"omega_total_{d}"]) for d in "xyz"]
        line += f"  sum alpha ({q[0]:+.1e}, {q[1]:+.1e}, {q[2]:+.1e})"
        print(line)
PYEOF
