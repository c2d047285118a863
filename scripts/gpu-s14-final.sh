#!/usr/bin/env bash
# Fourteenth session's last H200 call (the lead's), on the merged main:
#   1. build loom and every GPU target the session touched;
#   2. the GPU gtests: test_fmm_mpi *Gpu* on 1 and on 2 ranks sharing the device (the kept evaluator, cells-only
#      lone rank), test_fmm_gpu, test_fmm_resident_gpu (periodic re-fit), test_fmm_let_field *Gpu*,
#      test_vortex_gpu (neutral strengths), test_spectral_gpu (shells in one launch), test_gr_gh_gpu (loom bh's two
#      shells in one launch with split groups);
#   3. while FINAL_BUDGET (default 540 s) lasts: the 4096-GPU model with the rank's new T_local (fmm10), the
#      vortex experiment at Re_lambda 50 to t = 1.6 with loom's defaults (neutral periodic sums, re-fit rule 1.05),
#      spec9's quick table.
set -uo pipefail
cd "$(dirname "$0")/.."
out=gpu-s14-final-out budget=${FINAL_BUDGET:-540}
source scripts/gpu-lib.sh
gpu_build loom test_gr_gh_gpu test_fmm_mpi test_fmm_gpu test_fmm_let_field test_vortex_gpu test_spectral_gpu \
  test_fmm_resident_gpu spectral_batch_timing
gtest test_fmm_mpi_gpu_1rank 90 mpiexec --oversubscribe -n 1 build-gpu/tests/fmm/test_fmm_mpi --gtest_filter='*Gpu*'
gtest test_fmm_mpi_gpu_2ranks 90 mpiexec --oversubscribe -n 2 build-gpu/tests/fmm/test_fmm_mpi --gtest_filter='*Gpu*'
gtest test_fmm_gpu 60 build-gpu/tests/fmm/test_fmm_gpu
gtest test_fmm_let_field_gpu 40 build-gpu/tests/fmm/test_fmm_let_field --gtest_filter='*Gpu*'
gtest test_fmm_resident_gpu 60 build-gpu/tests/fmm/test_fmm_resident_gpu
gtest test_vortex_gpu 90 build-gpu/tests/vortex/test_vortex_gpu
gtest test_spectral_gpu 60 build-gpu/tests/spectral/test_spectral_gpu
gtest test_gr_gh_gpu 150 build-gpu/tests/gr/test_gr_gh_gpu
tar -czf "$out/gtests.tar.gz" -C "$logs" --exclude='*.h5' .
echo "gtests done ($(( $(date +%s) - t0 )) s); $(left) s left"
step model 40 env OMP_NUM_THREADS=16 build-gpu/bin/loom bench fmm --model_ranks 4096 --model_kernel biot-savart \
  --model_bodies_per_rank 2000 --model_target_seconds "${T_LOCAL:-1.171}" --model_remote device --p 8 \
  --model_theta 0.6 --model_interior_bodies 524288
step re50 200 env PAPER_RE=50 PAPER_T_END=1.6 PAPER_REFINE=2 PAPER_DT=0.02 PAPER_THETA=0.6 PAPER_EVERY=20 \
  PAPER_GPU_TEST=0 PAPER_TIMEOUT=$(( $(left) - 30 )) OUT="$logs/paper" scripts/gpu-vortex-paper.sh
step spec9 40 env GPU_QUICK=1 GPU_REPEATS=20 OUT="$logs/spec9" scripts/gpu-spectral-batch.sh
echo "total $(( $(date +%s) - t0 )) s"
