#!/usr/bin/env bash
# Eleventh session's first H200 call (the lead's): open questions of the tenth session in one call.
#   1. builds main (build-gpu) and, beside it, the commit before the FMM merges (.old, exported by
#      `git archive edeb078 | tar -x -C .old` and carried) to look for the local-FMM regression on one GPU rank;
#   2. the local FMM, 1e6 Laplace bodies, 1 and 2 ranks sharing the GPU, both trees (`loom bench fmm --ranks_bodies`);
#   3. the FMM's GPU gtests of ranks sharing the device and of the received field (never run on a device);
#   4. the cluster route's kernel under Nsight Compute (issue 18: where 52 us go).
# Usage on the device: scripts/gpu-s11-first.sh   (OUT receives logs.tar.gz; the table goes to stdout)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-s11-out}; mkdir -p "$out"; logs=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
t0=$(date +%s)
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
( cd .old && cp -r ../.carry . 2> /dev/null; scripts/configure-gpu-build.sh build-old "$logs/configure-old.log" --if-missing &&
  cmake --build build-old -j 6 --target loom > "$logs/build-old.log" 2>&1; echo "old build rc $?" ) &
cmake --build build-gpu -j 12 --target loom test_fmm_mpi test_fmm_let_field > "$logs/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$logs/build.log" | head -30; echo "build FAILED"; }
wait
echo "builds done ($(( $(date +%s) - t0 )) s)"

for ranks in 2 1; do
  for tree in main old; do
    bin=build-gpu/bin/loom; [[ $tree == old ]] && bin=.old/build-old/bin/loom
    threads=$(( 16 / ranks ))
    echo "=== $tree: $ranks rank(s), 1e6 Laplace per rank, cuda"
    OMP_NUM_THREADS=$threads timeout 120 mpiexec --oversubscribe --bind-to none -n $ranks -x OMP_NUM_THREADS \
      "$bin" bench fmm --ranks_bodies 1000000 --ranks_kernel laplace --backend cuda --warmup 1 --repeats 3 \
      > "$logs/fmm-$tree-$ranks.log" 2>&1
    echo "rc $?"; tail -n $(( ranks + 7 )) "$logs/fmm-$tree-$ranks.log"
  done
done

echo "=== FMM GPU gtests, 2 ranks sharing the device"
timeout 200 mpiexec --oversubscribe -n 2 build-gpu/tests/fmm/test_fmm_mpi --gtest_filter='*Gpu*' > "$logs/gtest-mpi.log" 2>&1
echo "test_fmm_mpi Gpu*: rc $?; $(grep -cE '^\[       OK' "$logs/gtest-mpi.log") OK lines, $(grep -cE 'FAILED  \]' "$logs/gtest-mpi.log") FAILED lines"
timeout 200 build-gpu/tests/fmm/test_fmm_let_field --gtest_filter='*Gpu*' > "$logs/gtest-let.log" 2>&1
echo "test_fmm_let_field Gpu*: rc $?; $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$logs/gtest-let.log" | tr '\n' ' ')"

if command -v ncu > /dev/null; then
  timeout 180 ncu --kernel-name regex:'cluster_kernel' --launch-count 2 --set full \
    build-gpu/bin/loom spectral --extents 10,19,38 --radii 1.62,6 --tensor aa,iaa,aa --backend cuda --strategy cluster \
    --angular separable --repeats 1 --warmup 1 > "$logs/ncu-cluster.txt" 2>&1 || echo "ncu failed: $(tail -3 "$logs/ncu-cluster.txt")"
  echo "=== the cluster kernel (ncu, full set; whole report in logs)"
  grep -E 'Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Executed Ipc Active|Dynamic Shared|Cluster Size|Warp Cycles Per Issued|Memory Throughput|Compute \(SM\) Throughput|Block Limit' \
    "$logs/ncu-cluster.txt" | sed -E 's/ +/ /g' | head -30
fi
tar -czf "$out/logs.tar.gz" -C "$logs" .
echo "total $(( $(date +%s) - t0 )) s"
