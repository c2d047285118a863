#!/usr/bin/env bash
# Eleventh session's last H200 call (the lead's): the merged tree's GPU tests that never ran on a device
# (bh's inverse map and filter.target cases, the cluster route inside loom bh, the FMM ranks with LETs written from
# the evaluation's multipoles, the vortex GPU tests) and a short default `loom bh` on the GPU. Table last.
set -uo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
out=${OUT:-gpu-s11-final-out}; mkdir -p "$out"; logs=$(mktemp -d); t0=$(date +%s)
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_gr_gh_gpu test_fmm_mpi test_fmm_let_field test_vortex_gpu \
  > "$logs/build.log" 2>&1 || { grep -E "error|FAILED" "$logs/build.log" | head -20; echo "build FAILED"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
summary() { grep -aE '^\S*\[  (PASSED|FAILED|SKIPPED)|FAILED  \]' "$1" | sed 's/\x1b\[[0-9;]*m//g' | tr '\n' ' '; }
timeout 120 build-gpu/tests/gr/test_gr_gh_gpu > "$logs/gr.log" 2>&1; echo "test_gr_gh_gpu: rc $? $(summary "$logs/gr.log")"
timeout 90 mpiexec --oversubscribe -n 2 build-gpu/tests/fmm/test_fmm_mpi --gtest_filter='*Gpu*' > "$logs/mpi.log" 2>&1
echo "test_fmm_mpi Gpu* (2 ranks): rc $? $(summary "$logs/mpi.log")"
timeout 60 build-gpu/tests/fmm/test_fmm_let_field --gtest_filter='*Gpu*' > "$logs/let.log" 2>&1
echo "test_fmm_let_field Gpu*: rc $? $(summary "$logs/let.log")"
timeout 120 build-gpu/tests/vortex/test_vortex_gpu > "$logs/vortex.log" 2>&1; echo "test_vortex_gpu: rc $? $(summary "$logs/vortex.log")"
timeout 60 build-gpu/bin/loom bh --backend cuda --time.t_end 20 --output.dir "$logs/bh" --quiet > "$logs/bh.log" 2>&1
echo "loom bh defaults, cuda, t_end 20: rc $?; $(tail -1 "$logs/bh.log" | cut -c1-200)"
tar -czf "$out/logs.tar.gz" -C "$logs" --exclude='*.h5' .
echo "total $(( $(date +%s) - t0 )) s"
