#!/usr/bin/env bash
# Fourteenth session's mid H200 call (the lead's), on a temporary merge of the helpers' branches: one build of every
# target their scripts need, then each named request in turn while MID_BUDGET (default 560 s) lasts; each step's
# stdout goes to $OUT/<name>.txt and its files to $OUT/<name>.tar.gz (scripts/gpu-lib.sh).
# Usage: scripts/gpu-s14-mid.sh spec9 vort9 fmm10   (the steps, in order)
set -uo pipefail
cd "$(dirname "$0")/.."
out=gpu-s14-mid-out budget=${MID_BUDGET:-560}
source scripts/gpu-lib.sh
gpu_build loom spectral_batch_timing test_spectral_gpu test_gr_gh_gpu test_fmm_mpi test_fmm_gpu test_fmm_resident_gpu
declare -A cmd_of=([spec9]="env GPU_REPEATS=20 scripts/gpu-spectral-batch.sh" [vort9]="scripts/gpu-vortex-refit.sh"
                   [fmm10]="scripts/gpu-fmm10.sh" [spec9quick]="env GPU_QUICK=1 GPU_REPEATS=20 scripts/gpu-spectral-batch.sh"
                   [vort9short]="env REFIT_T_END=0.2 scripts/gpu-vortex-refit.sh")
declare -A need_of=([spec9]=120 [vort9]=170 [fmm10]=110 [spec9quick]=90 [vort9short]=100)
for name in "$@"; do
  # shellcheck disable=SC2086  # the command's words
  step "$name" "${need_of[$name]}" ${cmd_of[$name]}
done
echo "total $(( $(date +%s) - t0 )) s"
