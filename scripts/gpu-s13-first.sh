#!/usr/bin/env bash
# Thirteenth session's first H200 calls (the lead's), on main, the questions the twelfth session left:
#   scripts/gpu-s13-first.sh a: one build, then the spectral variants (QUICK=1 GPU_REPEATS=20: the shipped
#                               two-accumulator default, 5-block clusters, shared d_r) and the FMM model against
#                               real runs (scripts/gpu-fmm6.sh check), ~6 minutes;
#   scripts/gpu-s13-first.sh b: the paper's case without the radial filter (scripts/gpu-bh8-second.sh, T_END 300),
#                               then the vortex experiment at Re_lambda 50 to t = 1.6 with physics.spreading reinit,
#                               ~8 minutes.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-s13-out}; mkdir -p "$out"; t0=$(date +%s)
git log -1 --format='tree %h %s' | cut -c1-90
scripts/configure-gpu-build.sh build-gpu "$out/configure.log" --if-missing || exit 1
if [[ ${1:-a} == a ]]; then
  cmake --build build-gpu -j 16 --target loom test_spectral_gpu spectral_cluster_timing > "$out/build.log" 2>&1 \
    || { grep -E "error|FAILED" "$out/build.log" | head -30; echo "build FAILED"; exit 1; }
  echo "build done ($(( $(date +%s) - t0 )) s)"
  echo "=== QUICK=1 GPU_REPEATS=20 scripts/gpu-spectral-variants.sh"
  QUICK=1 GPU_REPEATS=20 timeout 150 scripts/gpu-spectral-variants.sh > "$out/spectral.txt" 2>&1
  tail -n 40 "$out/spectral.txt"
  echo "=== scripts/gpu-fmm6.sh check ($(( $(date +%s) - t0 )) s)"
  OUT="$out/fmm" timeout 330 scripts/gpu-fmm6.sh check > "$out/fmm.txt" 2>&1
  tail -n 40 "$out/fmm.txt"
  tar czf "$out/fmm.tar.gz" -C "$out" fmm && rm -rf "$out/fmm"
else
  echo "=== T_END=300 LIMIT=120 scripts/gpu-bh8-second.sh"
  T_END=300 LIMIT=120 timeout 230 scripts/gpu-bh8-second.sh > "$out/bh.txt" 2>&1
  tail -n 25 "$out/bh.txt"
  echo "=== vortex paper, Re_lambda 50, t = 1.6, reinit ($(( $(date +%s) - t0 )) s)"
  OUT="$out/paper" PAPER_RE=50 PAPER_T_END=1.6 PAPER_REFINE=2 PAPER_DT=0.02 PAPER_THETA=0.6 PAPER_EVERY=20 \
    PAPER_GPU_TEST=0 PAPER_SPREADING=reinit timeout 330 scripts/gpu-vortex-paper.sh > "$out/vortex.txt" 2>&1
  tail -n 30 "$out/vortex.txt"
  tar czf "$out/paper.tar.gz" -C "$out" paper && rm -rf "$out/paper"
fi
echo "total $(( $(date +%s) - t0 )) s"
