#!/usr/bin/env bash
# Issue 22, eleventh session (branch fmm6), one H200 call (~4 minutes with the build):
#   1. the FMM's GPU gtests of ranks sharing the device and of the received field (the LETs are now written
#      from the evaluation's device multipoles, gathered on the device: detail::cell_expansions);
#   2. `loom bench fmm --ranks_bodies 1000000 --backend cuda` on 1 and 2 ranks sharing the GPU (the morning's
#      command): the step against the local FMM, let_build split into tree / let_build / cost;
#   3. the model of 4096 GPUs at 1.68e7 Biot-Savart bodies each: the two-halves probe's f (5) with today's code
#      and the interior probe (6) (the centre of 27 parts of FMM_INTERIOR_BODIES, on the device).
#   scripts/gpu-fmm6.sh check: the model against real runs instead (~4 minutes): CPU ranks 1, 2, 4 at
#      FMM_CHECK_BODIES (250000) Laplace bodies per rank, 16/P threads, and the model at P = 2, 4 at the same load
#      and threads; the device's local FMM and received field for two halves of 10^6 (the probe (5), the
#      geometry of the 2-rank GPU run) against 2 ranks sharing the GPU at 10^6 per rank.
# FMM_KEEP_PAGES=1: every run under GLIBC_TUNABLES that keep freed memory in the heap (no mmap, no trim), so that
#   a step's fresh buffers (the LETs written, received and parsed) reuse pages instead of faulting new ones in:
#   on the build box writing a LET of 72 MB took 0.40 s into fresh pages and 0.018 s so (docs/performance.md).
# Usage on the device: scripts/gpu-fmm6.sh [check]   (OUT receives logs.tar.gz and the JSON; the table goes last)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-fmm6-out}; mkdir -p "$out"; logs=$(mktemp -d)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
interior=${FMM_INTERIOR_BODIES:-524288}
env_x=(-x OMP_NUM_THREADS)
if [[ ${FMM_KEEP_PAGES:-0} == 1 ]]; then
  export GLIBC_TUNABLES=glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736
  env_x+=(-x GLIBC_TUNABLES); echo "GLIBC_TUNABLES=$GLIBC_TUNABLES"
fi
t0=$(date +%s)
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
targets=(loom test_fmm_mpi test_fmm_let_field); [[ ${1:-} == check ]] && targets=(loom)
cmake --build build-gpu -j 16 --target "${targets[@]}" > "$logs/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$logs/build.log" | head -30; echo "build FAILED"; exit 1; }
git log -1 --format='commit %h %s' | cut -c1-100
echo "build done ($(( $(date +%s) - t0 )) s)"

if [[ ${1:-} == check ]]; then
  bodies=${FMM_CHECK_BODIES:-250000}
  for ranks in 1 2 4; do
    threads=$(( 16 / ranks ))
    OMP_NUM_THREADS=$threads timeout 90 mpiexec --oversubscribe --bind-to none -n $ranks "${env_x[@]}" \
      build-gpu/bin/loom bench fmm --ranks_bodies "$bodies" --ranks_kernel laplace --warmup 1 --repeats 2 \
      --json "$out/cpu-$ranks.json" > "$logs/cpu-$ranks.log" 2>&1
    echo "cpu $ranks rank(s) rc $? ($(( $(date +%s) - t0 )) s)"
    [[ $ranks == 1 ]] && continue
    OMP_NUM_THREADS=$threads timeout 60 build-gpu/bin/loom bench fmm --model_ranks "$ranks" --model_kernel laplace \
      --model_bodies_per_rank "$bodies" --model_remote device_as_local --json "$out/model-$ranks.json" \
      > "$logs/model-$ranks.log" 2>&1
    echo "model $ranks rc $? ($(( $(date +%s) - t0 )) s)"
  done
  OMP_NUM_THREADS=8 timeout 80 mpiexec --oversubscribe --bind-to none -n 2 "${env_x[@]}" build-gpu/bin/loom \
    bench fmm --ranks_bodies 1000000 --ranks_kernel laplace --backend cuda --warmup 1 --repeats 3 \
    --json "$out/gpu-2.json" > "$logs/gpu-2.log" 2>&1
  echo "gpu 2 ranks rc $? ($(( $(date +%s) - t0 )) s)"
  OMP_NUM_THREADS=16 timeout 90 build-gpu/bin/loom bench fmm --model_ranks 1 --model_kernel laplace \
    --model_bodies_per_rank 1000 --model_remote device --model_probe_bodies 1000000 --model_interior_bodies 0 \
    --json "$out/probe-1e6.json" > "$logs/probe-1e6.log" 2>&1
  echo "probe rc $? ($(( $(date +%s) - t0 )) s)"
  tar -czf "$out/logs.tar.gz" -C "$logs" .
  echo "=== summary (rank tables: the median evaluation; model: P, load, local, select, remote, E (2))"
  for ranks in 1 2 4; do tail -n $(( ranks + 5 )) "$logs/cpu-$ranks.log" | grep -E "^ +[0-9]+ +[0-9]+ |median"; done
  for ranks in 2 4; do grep -E "^ +$ranks +[0-9]+ " "$logs/model-$ranks.log"; done
  tail -n 8 "$logs/gpu-2.log" | grep -E "^ +[0-9]+ +[0-9]+ |median"
  grep -E "^probe" "$logs/probe-1e6.log"
  echo "total $(( $(date +%s) - t0 )) s"
  exit 0
fi

timeout 100 mpiexec --oversubscribe -n 2 build-gpu/tests/fmm/test_fmm_mpi --gtest_filter='*Gpu*' > "$logs/gtest-mpi.log" 2>&1
mpi_rc=$?
timeout 60 build-gpu/tests/fmm/test_fmm_let_field --gtest_filter='*Gpu*' > "$logs/gtest-let.log" 2>&1
let_rc=$?

for ranks in 1 2; do
  threads=$(( 16 / ranks ))
  OMP_NUM_THREADS=$threads timeout 90 mpiexec --oversubscribe --bind-to none -n $ranks "${env_x[@]}" \
    build-gpu/bin/loom bench fmm --ranks_bodies 1000000 --ranks_kernel laplace --backend cuda --warmup 1 --repeats 3 \
    --json "$out/gpu-$ranks.json" > "$logs/fmm-$ranks.log" 2>&1
  echo "bench $ranks rank(s) rc $? ($(( $(date +%s) - t0 )) s)"
done

# a: p 10, theta 0.4 (the last sessions' model); b: p 8, theta 0.6 (the run behind the 0.714 s)
for run in "a 10 0.4" "b 8 0.6"; do
  set -- $run
  OMP_NUM_THREADS=16 timeout 100 build-gpu/bin/loom bench fmm --model_ranks 4096 --model_kernel biot-savart \
    --model_bodies_per_rank 2000 --model_target_seconds 0.714 --model_remote device --p "$2" --model_theta "$3" \
    --model_interior_bodies "$interior" --json "$out/model-4096-$1.json" > "$logs/model-$1.log" 2>&1
  echo "model $1 (p $2, theta $3) rc $? ($(( $(date +%s) - t0 )) s)"
done
tar -czf "$out/logs.tar.gz" -C "$logs" .

echo "=== summary"
echo "test_fmm_mpi Gpu* (2 ranks): rc $mpi_rc, $(grep -cE '^\[       OK' "$logs/gtest-mpi.log") OK, $(grep -cE 'FAILED  \]' "$logs/gtest-mpi.log") FAILED lines"
echo "test_fmm_let_field Gpu*: rc $let_rc, $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$logs/gtest-let.log" | tr '\n' ' ')"
for ranks in 1 2; do tail -n $(( ranks + 6 )) "$logs/fmm-$ranks.log" | grep -vE "^ +[0-9]+ +[0-9.]+ +[0-9.]+ +(yes|no)$"; done
for run in a b; do grep -E "^probe|^interior|^ 4096|^predicted|^model of" "$logs/model-$run.log"; done
echo "total $(( $(date +%s) - t0 )) s"
