#!/usr/bin/env bash
# Issue 21's step target on the paper's field: one vortex AB2 step (Biot-Savart velocity + stretching by the
# resident FMM, the tree re-fitted or rebuilt, the update) at 256^3 = 1.68e7 particles <= 1.5 s on the H200, at the
# accuracy the comparison uses (p 8, theta 0.6: Biot-Savart error 7.0e-5 at 1.68e7, session 8; target <= 1e-4).
# The particles are loom hit's Re_lambda 50 field (128^3 grid, particles.refine 2) as in gpu-vortex-paper.sh, stepped
# STEP_T_END (0.3: 15 steps of 0.02, reinit every 5) for each fmm.rebuild_growth in STEP_GROWTHS (1.1 1.3 1.6).
# At 1.1 the eleventh session's run rebuilt the tree at every evaluation (73 builds in 60 steps: AB2 step 1.503 s,
# tree 0.096); a larger factor re-fits instead (the boxes' radii re-measured, so the FMM's acceptance test and its
# error hold) at the price of larger cells. Prints last one line per factor from summary.json's
# seconds_per_ab2_step (the midpoint restarts after each reinitialisation apart). ~3 minutes with the build.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-step-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
t0=$(date +%s)
scripts/configure-gpu-build.sh "$build" "$out/configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target loom > "$out/build.log" 2>&1; then
  grep -E "error|FAILED" "$out/build.log" | head -40
  echo "build FAILED"
  exit 1
fi
echo "build ok ($(( $(date +%s) - t0 )) s)"
for g in ${STEP_GROWTHS:-1.1 1.3 1.6}; do
  timeout 150 "$loom" vortex --particles.n 128 --particles.refine 2 --initial.type hit --initial.seed 7 \
    --initial.k_peak 3 --physics.nu 0.0074 --time.t_end "${STEP_T_END:-0.3}" --time.dt 0.02 --backend cuda --quiet \
    --output.fields false --output.overwrite true --output.plots false --output.every 1000 \
    --output.checkpoint_every 0 --reinit.every 5 --fmm.order 8 --fmm.theta 0.6 --fmm.rebuild_growth "$g" \
    --output.dir "$out/growth-$g" > "$out/growth-$g.log" 2>&1
  echo "rebuild_growth $g: rc $? ($(( $(date +%s) - t0 )) s since the start)"
done
/usr/bin/python3 - "$out" ${STEP_GROWTHS:-1.1 1.3 1.6} << 'PYEOF'
import json, sys
out = sys.argv[1]
print(f"{'growth':>7} {'AB2 step s':>10} {'tree':>6} {'lists':>6} {'fmm':>6} {'update':>6} {'builds':>6} "
      f"{'all steps s':>11} {'target 1.5 s':>12}")
for g in sys.argv[2:]:
    try:
        j = json.load(open(f"{out}/growth-{g}/summary.json"))
    except (OSError, ValueError) as e:
        print(f"{g:>7} no result ({e})")
        continue
    a, s = j["seconds_per_ab2_step"], j["seconds_per_step"]
    print(f"{g:>7} {a['total']:10.3f} {a['tree']:6.3f} {a['lists']:6.3f} {a['fmm']:6.3f} {a['update']:6.3f} "
          f"{j['fmm'].get('tree_builds', 0):6d} {s['total']:11.3f} {'met' if a['total'] <= 1.5 else 'NOT met':>12}")
PYEOF
