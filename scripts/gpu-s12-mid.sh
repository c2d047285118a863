#!/usr/bin/env bash
# Twelfth session's mid H200 calls (the lead's), on a temporary merge of the helpers' branches:
#   scripts/gpu-s12-mid.sh a: one build of every target, then bh8's request (scripts/gpu-bh8.sh) and spec7's
#                             (GPU_REPEATS=30 scripts/gpu-spectral-variants.sh), ~7 minutes;
#   scripts/gpu-s12-mid.sh b: fmm7's request (scripts/gpu-fmm6.sh), ~3 minutes on a warm build.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-s12-out}; mkdir -p "$out"; t0=$(date +%s)
git log -1 --format='tree %h %s' | cut -c1-90
if [[ ${1:-a} == a ]]; then
  scripts/configure-gpu-build.sh build-gpu "$out/configure.log" --if-missing || exit 1
  cmake --build build-gpu -j 16 --target loom test_gr_gh_gpu test_spectral_gpu spectral_cluster_timing test_fmm_mpi \
    test_fmm_let_field > "$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | head -30; echo "build FAILED"; exit 1; }
  echo "build done ($(( $(date +%s) - t0 )) s)"
  echo "=== spec7: GPU_REPEATS=30 scripts/gpu-spectral-variants.sh"
  GPU_REPEATS=30 timeout 200 scripts/gpu-spectral-variants.sh 2>&1 | tail -n 45
  echo "=== bh8: scripts/gpu-bh8.sh ($(( $(date +%s) - t0 )) s)"
  T_END=${T_END:-700} timeout 330 scripts/gpu-bh8.sh 2>&1 | tail -n 30
else
  echo "=== fmm7: scripts/gpu-fmm6.sh"
  timeout 330 scripts/gpu-fmm6.sh 2>&1 | tail -n 30
fi
echo "total $(( $(date +%s) - t0 )) s"
