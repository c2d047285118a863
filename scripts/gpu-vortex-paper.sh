#!/usr/bin/env bash
# Issue 21's experiment (the paper's): decaying isotropic turbulence from one seeded field, run by loom hit
# (pseudo-spectral) and loom vortex (vortex particles, the FMM on the GPU), at Re_lambda(0) ~ 50 and ~ 100, 128^3.
# Prints last a table per Re_lambda: energy, dissipation and skewness of both at several times, the largest relative
# difference of energy and dissipation over the run against the 5% target, and the cost per step of each method.
#
# The field: loom hit's random field, E(k) ~ k^4 exp(-2 (k/3)^2), energy 0.5, seed 7. With k_peak 3 at 128^3 hit's
# Re_lambda(0) is 1/nu times 0.370 (measured: nu 0.0074 -> 50.0, kmax eta 1.96; nu 0.0037 -> 99.9, kmax eta 1.39);
# the eddy turnover L/u' is 1.34 at t = 0.
#
# Also runs the GPU test of the reinitialisation on the device (its agreement with the CPU form, its time at 128^3).
# Usage, from the repo root on the GPU machine (build-gpu configured by scripts/configure-gpu-build.sh):
#   scripts/gpu-vortex-paper.sh               the full run: Re_lambda 50 and 100 to t = PAPER_T_END (default 4, three
#                                             eddy turnovers; ~3 minutes each on the H200: 0.25 s per vortex step)
#   PAPER_RE=50 PAPER_T_END=0.2 scripts/gpu-vortex-paper.sh   a short check (about 3 minutes with the build)
# Environment: PAPER_RE (the list of Re_lambda, each 50 or 100), PAPER_T_END, PAPER_N (128), PAPER_REINIT (5),
# PAPER_REFINE (particles per grid spacing and direction, particles.refine: 1 puts n^3 particles on hit's grid, 2 puts
# 8 n^3; 2), PAPER_DT (the vortex run's time step, 0.01; hit's stays 0.01), PAPER_THETA (the FMM's theta, 0.5),
# PAPER_SPREADING (physics.spreading: steps, the cores spread every step, or reinit, the diffusion applied at the
# reinitialisations by Strang splitting; default: loom's), PAPER_TIMEOUT (seconds per vortex run; default from the
# steps, covering the whole run), PAPER_GPU_TEST (1; 0 skips the reinitialisation's GPU test), PAPER_EVERY (steps between the statistics, 20; measured on the particle
# lattice's grid, 256^3 for refine 2, with the resident FMM at a reinitialisation step), OUT (the output folder, default gpu-paper-out), BUILD_DIR.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-paper-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
n=${PAPER_N:-128}
t_end=${PAPER_T_END:-4}
every=${PAPER_EVERY:-20}
t0=$(date +%s)
scripts/configure-gpu-build.sh "$build" "$out/configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target loom test_vortex_gpu > "$out/build.log" 2>&1; then
  grep -E "error|FAILED" "$out/build.log" | head -40
  echo "build FAILED"
  exit 1
fi
echo "build ok ($(( $(date +%s) - t0 )) s)"
if [[ ${PAPER_GPU_TEST:-1} == 1 ]]; then
  timeout 120 "$build/tests/vortex/test_vortex_gpu" --gtest_filter='*Reinitialisation*' > "$out/test_vortex_gpu.log" 2>&1
  echo "test_vortex_gpu (reinitialisation): rc $?; $(grep -h '^device reinit' "$out/test_vortex_gpu.log")"
fi

declare -A nu_of=([50]=0.0074 [100]=0.0037)
runs=()
for re in ${PAPER_RE:-50 100}; do
  nu=${nu_of[$re]:-}
  if [[ -z $nu ]]; then echo "PAPER_RE = $re: expected 50 or 100"; exit 2; fi
  common=(--initial.seed 7 --initial.k_peak 3 --physics.nu "$nu" --time.t_end "$t_end" --backend cuda
          --quiet --output.fields false --output.overwrite true)
  dir="$out/re$re"
  timeout 120 "$loom" hit --grid.n "$n" --initial.type random "${common[@]}" --time.dt 0.01 --output.every 0.05 \
    --output.dir "$dir/hit" > "$dir-hit.log" 2>&1
  echo "hit Re_lambda $re: rc $?"
  # the whole run inside the limit: the steps (2.4 s each at 256^3 particles, the reinitialisation amortised), the
  # start (~15 s), the statistics rows (~4 s each) and the end (last row, checkpoint, plots)
  steps=$(/usr/bin/python3 -c "import math; print(math.ceil($t_end / ${PAPER_DT:-0.01} - 1e-9))")
  limit=${PAPER_TIMEOUT:-$(( 120 + 3 * steps + 6 * steps / every ))}
  echo "vortex Re_lambda $re: $steps steps, limit $limit s"
  timeout "$limit" "$loom" vortex --particles.n "$n" --particles.refine "${PAPER_REFINE:-2}" \
    --initial.type hit "${common[@]}" --time.dt "${PAPER_DT:-0.01}" \
    --reinit.every "${PAPER_REINIT:-5}" ${PAPER_SPREADING:+--physics.spreading "$PAPER_SPREADING"} \
    --fmm.order 8 --fmm.theta "${PAPER_THETA:-0.5}" --output.every "$every" \
    --output.checkpoint_every 0 --output.dir "$dir/vortex" --compare "$dir/hit" > "$dir-vortex.log" 2>&1
  echo "vortex Re_lambda $re: rc $? ($(( $(date +%s) - t0 )) s since the start)"
  runs+=("$re:$dir")
done
tar -czf "$out/paper-runs.tar.gz" -C "$out" --exclude='*.tar.gz' --exclude='*.h5' . 2> /dev/null

/usr/bin/python3 scripts/vortex_paper_table.py "${runs[@]}"
