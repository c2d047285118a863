#!/usr/bin/env bash
# Twelfth session's last H200 call (the lead's), on the merged main, in the ~240 s of device time left:
#   1. build every GPU test target and loom;
#   2. the GPU gtests of what this session changed: test_fmm_mpi *Gpu* on 2 ranks sharing the device (kept LET
#      buffers, near-field-first evaluation), test_fmm_let_field *Gpu*, test_gr_gh_gpu (the tensor filter),
#      test_spectral_gpu (the cluster route on FP64 tensor cores), test_vortex_gpu;
#   3. with what time is left (FINAL_BUDGET seconds in all, default 230): the vortex paper run at Re_lambda 50 to
#      t = 0.4 with physics.spreading reinit (issue 21: the step at sigma = h, the early dissipation).
set -uo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
out=${OUT:-gpu-s12-final-out}; mkdir -p "$out"; logs=$(mktemp -d); t0=$(date +%s)
budget=${FINAL_BUDGET:-230}
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_gr_gh_gpu test_fmm_mpi test_fmm_let_field test_vortex_gpu \
  test_spectral_gpu > "$logs/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$logs/build.log" | head -20; echo "build FAILED"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
summary() { grep -aE '^\S*\[  (PASSED|FAILED|SKIPPED)|FAILED  \]' "$1" | sed 's/\x1b\[[0-9;]*m//g' | tr '\n' ' '; }
timeout 60 mpiexec --oversubscribe -n 2 build-gpu/tests/fmm/test_fmm_mpi --gtest_filter='*Gpu*' > "$logs/mpi.log" 2>&1
echo "test_fmm_mpi Gpu* (2 ranks): rc $? $(summary "$logs/mpi.log")"
timeout 40 build-gpu/tests/fmm/test_fmm_let_field --gtest_filter='*Gpu*' > "$logs/let.log" 2>&1
echo "test_fmm_let_field Gpu*: rc $? $(summary "$logs/let.log")"
timeout 90 build-gpu/tests/gr/test_gr_gh_gpu > "$logs/gr.log" 2>&1; echo "test_gr_gh_gpu: rc $? $(summary "$logs/gr.log")"
timeout 60 build-gpu/tests/spectral/test_spectral_gpu > "$logs/spectral.log" 2>&1
echo "test_spectral_gpu: rc $? $(summary "$logs/spectral.log")"
timeout 90 build-gpu/tests/vortex/test_vortex_gpu > "$logs/vortex.log" 2>&1
echo "test_vortex_gpu: rc $? $(summary "$logs/vortex.log")"
tar -czf "$out/logs.tar.gz" -C "$logs" --exclude='*.h5' .
left=$(( budget - ($(date +%s) - t0) ))
echo "gtests done ($(( $(date +%s) - t0 )) s); $left s left for the vortex run"
if (( left > 80 )); then
  PAPER_RE=50 PAPER_T_END=0.4 PAPER_REFINE=2 PAPER_DT=0.02 PAPER_THETA=0.6 PAPER_EVERY=20 PAPER_GPU_TEST=0 \
    PAPER_SPREADING=reinit PAPER_TIMEOUT=$(( left - 30 )) OUT="$out/paper" timeout "$left" scripts/gpu-vortex-paper.sh 2>&1 |
    tail -n 25
  find "$out/paper" -name '*.h5' -delete 2> /dev/null
  tar -czf "$out/paper.tar.gz" -C "$out" paper && rm -rf "$out/paper"
fi
echo "total $(( $(date +%s) - t0 )) s"
