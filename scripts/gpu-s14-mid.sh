#!/usr/bin/env bash
# Fourteenth session's mid H200 call (the lead's), on a temporary merge of the helpers' branches: one build of every
# target their scripts need, then each named request in turn while MID_BUDGET (default 560 s) lasts; each step's
# stdout goes to $OUT/<name>.txt and its files to $OUT/<name>.tar.gz (at most eight files come back).
# Usage: scripts/gpu-s14-mid.sh spec9 vort9 fmm10   (the steps, in order)
set -uo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
out=${OUT:-gpu-s14-mid-out}; mkdir -p "$out"; logs=$(mktemp -d); t0=$(date +%s)
budget=${MID_BUDGET:-560}
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || { tail -20 "$logs/configure.log"; exit 1; }
cmake --build build-gpu -j 16 --target loom spectral_batch_timing test_spectral_gpu test_gr_gh_gpu test_fmm_mpi \
  test_fmm_gpu test_fmm_resident_gpu > "$logs/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$logs/build.log" | head -20; echo "build FAILED"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
left() { echo $(( budget - ($(date +%s) - t0) )); }
declare -A cmd_of=([spec9]="env GPU_REPEATS=20 scripts/gpu-spectral-batch.sh" [vort9]="scripts/gpu-vortex-refit.sh"
                   [fmm10]="scripts/gpu-fmm10.sh" [spec9quick]="env GPU_QUICK=1 GPU_REPEATS=20 scripts/gpu-spectral-batch.sh"
                   [vort9short]="env REFIT_T_END=0.2 scripts/gpu-vortex-refit.sh")
declare -A need_of=([spec9]=120 [vort9]=170 [fmm10]=110 [spec9quick]=90 [vort9short]=100)
for name in "$@"; do
  if (( $(left) < ${need_of[$name]} )); then echo "=== $name skipped ($(left) s left)"; continue; fi
  echo "=== $name ($(( $(date +%s) - t0 )) s)"; mkdir -p "$out/$name"
  OUT="$out/$name" timeout "$(left)" ${cmd_of[$name]} > "$out/$name.txt" 2>&1; echo "rc $?"
  tail -n "${TAIL:-14}" "$out/$name.txt"
  tar -czf "$out/$name.tar.gz" -C "$out" "$name" && rm -rf "${out:?}/$name"
done
echo "total $(( $(date +%s) - t0 )) s"
