#!/usr/bin/env bash
# Thirteenth session's last H200 call (the lead's), on the merged main:
#   1. build loom and every GPU target the session touched;
#   2. the GPU gtests: test_fmm_mpi *Gpu* on 2 ranks sharing the device (ranks' device tree), test_fmm_let_field
#      *Gpu*, test_gr_gh_gpu (ring-kernel tensor filter, the strips gradient), test_spectral_gpu (strips),
#      test_vortex_gpu and test_fmm_resident_gpu (re-fit rule);
#   3. while FINAL_BUDGET (default 540 s) lasts: the vortex experiment at Re_lambda 100 to t = 1.2 with loom's
#      defaults (spreading auto, fmm.rebuild_cost 1.05: the mid call's out-of-memory path), fmm9's request
#      (scripts/gpu-fmm9.sh), bh9's (scripts/gpu-bh9.sh), vort8's (STEP_COSTS=1.05 scripts/gpu-vortex-step.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
out=${OUT:-gpu-s13-final-out}; mkdir -p "$out"; logs=$(mktemp -d); t0=$(date +%s)
budget=${FINAL_BUDGET:-540}
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_gr_gh_gpu test_fmm_mpi test_fmm_let_field test_vortex_gpu \
  test_spectral_gpu test_fmm_resident_gpu spin_filter_timing > "$logs/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$logs/build.log" | head -20; echo "build FAILED"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
summary() { grep -aE '^\S*\[  (PASSED|FAILED|SKIPPED)|FAILED  \]' "$1" | sed 's/\x1b\[[0-9;]*m//g' | tr '\n' ' '; }
gtest() {  # name seconds command...
  local name=$1 limit=$2; shift 2
  timeout "$limit" "$@" > "$logs/$name.log" 2>&1; echo "$name: rc $? $(summary "$logs/$name.log")"
}
gtest test_fmm_mpi_gpu_2ranks 90 mpiexec --oversubscribe -n 2 build-gpu/tests/fmm/test_fmm_mpi --gtest_filter='*Gpu*'
gtest test_fmm_let_field_gpu 40 build-gpu/tests/fmm/test_fmm_let_field --gtest_filter='*Gpu*'
gtest test_gr_gh_gpu 120 build-gpu/tests/gr/test_gr_gh_gpu
gtest test_spectral_gpu 60 build-gpu/tests/spectral/test_spectral_gpu
gtest test_vortex_gpu 90 build-gpu/tests/vortex/test_vortex_gpu
gtest test_fmm_resident_gpu 60 build-gpu/tests/fmm/test_fmm_resident_gpu
tar -czf "$out/gtests.tar.gz" -C "$logs" --exclude='*.h5' .
left() { echo $(( budget - ($(date +%s) - t0) )); }
echo "gtests done ($(( $(date +%s) - t0 )) s); $(left) s left"
if (( $(left) > 150 )); then
  echo "=== vortex paper, Re_lambda 100, t = 1.2, loom's defaults"
  PAPER_RE=100 PAPER_T_END=1.2 PAPER_REFINE=2 PAPER_DT=0.02 PAPER_THETA=0.6 PAPER_EVERY=20 PAPER_GPU_TEST=0 \
    PAPER_TIMEOUT=$(( $(left) - 40 )) OUT="$out/paper" timeout "$(left)" scripts/gpu-vortex-paper.sh > "$out/re100.txt" 2>&1
  tail -n 24 "$out/re100.txt"
  find "$out/paper" -name '*.h5' -delete 2> /dev/null
  rm -rf "${out:?}/paper"   # too large to come back; the table is in re100.txt
fi
step() {  # name seconds-needed command...
  local name=$1 need=$2; shift 2
  if (( $(left) < need )); then echo "=== $name skipped ($(left) s left)"; return; fi
  echo "=== $name ($(( $(date +%s) - t0 )) s)"; mkdir -p "$out/$name"
  OUT="$out/$name" timeout "$(left)" "$@" > "$out/$name.txt" 2>&1; echo "rc $?"
  tail -n "${TAIL:-16}" "$out/$name.txt"; tar -czf "$out/$name.tar.gz" -C "$out" "$name" && rm -rf "${out:?}/$name"
}
step fmm9 80 scripts/gpu-fmm9.sh
step bh9 40 scripts/gpu-bh9.sh
step vort8 50 env STEP_COSTS=1.05 scripts/gpu-vortex-step.sh
echo "total $(( $(date +%s) - t0 )) s"
