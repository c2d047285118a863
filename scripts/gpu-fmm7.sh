#!/usr/bin/env bash
# Issue 22, twelfth session (branch fmm7), a short H200 call (~2.5 minutes with the build; FMM7_GTESTS_ONLY=1:
# ~1.7): the ranks' evaluation with the local P2P before the received far field (evaluate.hpp near_first: the
# local L2P added into the near field through a scratch array on the device), which gpu-fmm6.sh at 452b144 did
# not run: the GPU gtests of 2 ranks sharing the device (direct sums, one rank, the kept buffers) and of the
# received field, then the 2-rank bench at 1e6 Laplace per rank (the writer's let_wait after the local P2P).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-fmm7-out}; mkdir -p "$out"; logs=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
t0=$(date +%s)
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
targets=(test_fmm_mpi test_fmm_let_field); [[ ${FMM7_GTESTS_ONLY:-0} == 1 ]] || targets+=(loom)
cmake --build build-gpu -j 16 --target "${targets[@]}" > "$logs/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$logs/build.log" | head -30; echo "build FAILED"; exit 1; }
git log -1 --format='commit %h %s' | cut -c1-100
echo "build done ($(( $(date +%s) - t0 )) s)"
timeout 100 mpiexec --oversubscribe -n 2 build-gpu/tests/fmm/test_fmm_mpi --gtest_filter='*Gpu*' > "$logs/gtest-mpi.log" 2>&1
mpi_rc=$?
timeout 60 build-gpu/tests/fmm/test_fmm_let_field --gtest_filter='*Gpu*' > "$logs/gtest-let.log" 2>&1
let_rc=$?
if [[ ${FMM7_GTESTS_ONLY:-0} != 1 ]]; then
  OMP_NUM_THREADS=8 timeout 80 mpiexec --oversubscribe --bind-to none -n 2 -x OMP_NUM_THREADS build-gpu/bin/loom \
    bench fmm --ranks_bodies 1000000 --ranks_kernel laplace --backend cuda --warmup 1 --repeats 3 \
    --json "$out/gpu-2.json" > "$logs/fmm-2.log" 2>&1
  echo "bench 2 ranks rc $? ($(( $(date +%s) - t0 )) s)"
fi
tar -czf "$out/logs.tar.gz" -C "$logs" .
echo "=== summary"
echo "test_fmm_mpi Gpu* (2 ranks): rc $mpi_rc, $(grep -cE '^\[       OK' "$logs/gtest-mpi.log") OK, $(grep -cE 'FAILED  \]' "$logs/gtest-mpi.log") FAILED lines"
echo "test_fmm_let_field Gpu*: rc $let_rc, $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$logs/gtest-let.log" | tr '\n' ' ')"
grep -hE "Failure|FAILED" "$logs/gtest-mpi.log" "$logs/gtest-let.log" | head -5
[[ -f "$logs/fmm-2.log" ]] && tail -n 8 "$logs/fmm-2.log" | grep -vE "^ +[0-9]+ +[0-9.]+ +[0-9.]+ +(yes|no)$"
echo "total $(( $(date +%s) - t0 )) s"
