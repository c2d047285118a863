#!/usr/bin/env bash
# Tuning run of the GPE's soa kernel on the H200 (issue 5), from the repo root, in one device call:
#   1. configures build-gpu (CUDA on) if needed and builds loom and the GPE's GPU tests;
#   2. runs the kernels' tests (every kernel and every soa launch choice against the plain kernel and the CPU)
#      and the slab tests with two ranks sharing the GPU;
#   3. times the march kernel over its tilings (`--march_tile ... --march_layers ...`) on BCC at 1e8 and 236 M DOF,
#      C15 at 142 M and the other grids at 2e7 beside the soa kernel's default (TUNE_MARCH=0 skips it,
#      TUNE_MARCH=balanced times segments of 64 layers against balanced ones instead, TUNE_MARCH=defaults the
#      default launches of cubic, FCC and BCC at the issue's sizes, TUNE_MARCH=alignment BCC n^3 for n = 200..208
#      and 240, TUNE_MARCH=ahead one layer copied ahead against two, TUNE_MARCH=pitch psi's rows pitched to whole
#      cache lines against the lattice's layout, TUNE_MARCH=partial BCC 227^3 against boxes its tiles divide); the soa
#      kernel over its launch choices (TUNE_SWEEP=1; measured 2026-11-29, off by default); then every kernel with
#      its defaults and the CPU on all cores at the issue's sizes (TUNE_RECORD=0 skips it);
#   4. profiles single launches with Nsight Compute (DRAM bytes per DOF, L2 hit rate, occupancy, stalls, shared
#      memory bank conflicts; TUNE_PROFILE=0 skips it).
# Files in $OUT (or ./gpu-check-out): tune-gpe.txt (the tables), tune-gpe-*.json, tune-gpe-logs.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
work=$(mktemp -d)
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
report="$out/tune-gpe.txt"
: > "$report"
finish() { tar czf "$out/tune-gpe-logs.tgz" -C "$work" . 2> /dev/null; }
trap finish EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

t0=$(date +%s)
scripts/configure-gpu-build.sh "$build" "$work/configure.log" --if-missing || exit 1
cmake --build "$build" -j "$(nproc)" --target loom test_gpe_kernels test_gpe_slab_mpi test_gpe_march_tiles \
  > "$work/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$work/build.log" | head -30; echo "build FAILED"; exit 1; }
echo "build: $(( $(date +%s) - t0 )) s" >> "$report"

passed() { grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$1" | tr -s ' ' | tr '\n' ' '; }
timeout 60 "$build/tests/gpe/test_gpe_march_tiles" > "$work/march-tiles.log" 2>&1
echo "test_gpe_march_tiles: rc $? $(passed "$work/march-tiles.log")" >> "$report"
timeout 240 "$build/tests/gpe/test_gpe_kernels" --gtest_filter="${TUNE_KERNEL_FILTER:-*}" > "$work/kernels.log" 2>&1
echo "test_gpe_kernels: rc $? $(passed "$work/kernels.log")" >> "$report"
grep -E "Failure|Expected|actual|bands of|march tile" "$work/kernels.log" | head -20 >> "$report"
if [[ ${TUNE_CHECKS:-1} != 0 ]]; then  # sanitizers and two ranks (TUNE_CHECKS=0: the kernels' tests only)
  for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 99 "$build/tests/gpe/test_gpe_kernels" \
      --gtest_filter='*ShortRuns*' > "$work/sanitizer-$tool.log" 2>&1
    echo "compute-sanitizer $tool (gpe kernels): rc $?" >> "$report"
  done
  timeout 180 mpiexec --oversubscribe -n 2 "$build/tests/gpe/test_gpe_slab_mpi" > "$work/slab-2ranks.log" 2>&1
  echo "test_gpe_slab_mpi, 2 ranks on 1 GPU: rc $? $(passed "$work/slab-2ranks.log")" >> "$report"
  grep -E "Failure|Expected|actual" -A2 "$work/slab-2ranks.log" | head -20 >> "$report"
  timeout 150 mpiexec --oversubscribe -n 2 compute-sanitizer --tool memcheck --error-exitcode 99 \
    "$build/tests/gpe/test_gpe_slab_mpi" --gtest_filter='*ShortRunsForTheSanitizer*' > "$work/slab-memcheck.log" 2>&1
  echo "compute-sanitizer memcheck (slabs, 2 ranks on 1 GPU): rc $?" >> "$report"
fi

bench() {  # name, then loom bench gpe arguments
  local name=$1
  shift
  timeout 200 "$loom" bench gpe --repeats 5 --json "$out/tune-gpe-$name.json" "$@" > "$work/bench-$name.txt" 2>&1
  echo "=== bench $name: rc $? ($*)" >> "$report"
  grep -E "^(cuda|cpu) |gpu / cpu|copy" "$work/bench-$name.txt" >> "$report"
}
if [[ ${TUNE_MARCH:-1} == partial ]]; then  # what the partial tiles of 227^3 (28 x 8 + 3) cost: boxes that tiles divide
  bench bcc-partial --backend cuda --kernels march --grids bcc --dof "" --repeats 3 \
    --lattices 227x227x227,224x224x227,232x232x227,224x227x227,227x224x227 --march_tile 8x8,8x6,12x8 \
    --march_layers balanced
elif [[ ${TUNE_MARCH:-1} == pitch ]]; then  # psi's rows pitched to whole lines against the lattice's layout
  bench bcc-pitch --backend cuda --kernels march --grids bcc --dof 1e8,1.4e8,1.66e8,236196000 --repeats 3 \
    --lattices 204x203x203 --march_tile 8x8 --march_layers balanced --march_rows pitched,lattice
  bench cubic-pitch --backend cuda --kernels march --grids cubic --dof 2e7,1e8 --lattices 465x464x464 --repeats 3 \
    --march_tile 32x16 --march_layers balanced --march_rows pitched,lattice
  bench fcc-pitch --backend cuda --kernels march --grids fcc --dof 2e7,1e8 --repeats 3 --march_tile 8x8 \
    --march_layers balanced --march_rows pitched,lattice
elif [[ ${TUNE_MARCH:-1} == ahead ]]; then  # one layer copied ahead against two, BCC 203^3, 240^3, 270^3 and cubic, FCC
  for dof in 100385124 165888000 236196000; do
    bench "bcc-ahead-$dof" --backend cuda --kernels march --grids bcc --dof "$dof" --repeats 3 \
      --march_tile 8x8,8x6,8x4 --march_layers balanced --march_ahead 1,2
  done
  bench cubic-ahead --backend cuda --kernels march --grids cubic --dof 1e8 --repeats 3 --march_tile 32x16 \
    --march_layers balanced --march_ahead 1,2
  bench fcc-ahead --backend cuda --kernels march --grids fcc --dof 1e8 --repeats 3 --march_tile 8x8 \
    --march_layers balanced --march_ahead 1,2
elif [[ ${TUNE_MARCH:-1} == alignment ]]; then  # BCC n^3 for n = 200..208 and 240 (the row stride's alignment)
  for sizes in "200 201 202 203 204" "205 206 207 208 240"; do  # two processes (each bench has 200 s)
    dofs=$(for n in $sizes; do printf '%s,' $((12 * n * n * n)); done)
    bench "bcc-alignment-${sizes%% *}" --backend cuda --kernels march --grids bcc --dof "${dofs%,}" --repeats 3
  done
elif [[ ${TUNE_MARCH:-1} == defaults ]]; then  # the defaults (march for cubic, FCC, BCC) at the issue's sizes
  bench bcc-defaults --backend cuda --kernels march --grids bcc --dof 1e8,1.4e8,1.66e8,236196000
  bench grids-defaults --backend cuda --kernels march --grids cubic,fcc --dof 2e7,1e8
elif [[ ${TUNE_MARCH:-1} == balanced ]]; then  # segments of 64 layers against balanced ones (the default)
  bench bcc-balanced --backend cuda --kernels march --grids bcc --dof 1e8,1.4e8,1.66e8,236196000 \
    --march_tile 8x8 --march_layers 64,balanced
  bench cubic-balanced --backend cuda --kernels march --grids cubic --dof 2e7,1e8 --march_tile 32x16 \
    --march_layers 64,balanced
  bench fcc-balanced --backend cuda --kernels march --grids fcc --dof 2e7,1e8 --march_tile 8x8 \
    --march_layers 64,balanced
elif [[ ${TUNE_MARCH:-1} != 0 ]]; then  # the march kernel's tilings, beside the soa kernel's default
  bench bcc-march --backend cuda --kernels soa,march --grids bcc --dof 1e8,236196000 --repeats 3 \
    --march_tile 8x8,16x4,8x4,12x6,10x8,16x8 --march_layers 64
  bench bcc-march-layers --backend cuda --kernels march --grids bcc --dof 1e8 --repeats 3 \
    --march_tile 8x8,16x4 --march_layers 32,128,256
  bench c15-march --backend cuda --kernels soa,march --grids c15 --dof 142000000 --repeats 3 \
    --march_tile 3x2,2x2,2x1 --march_layers 64
  bench cubic-march --backend cuda --kernels tuned,march --grids cubic --dof 2e7,1e8 --repeats 3 \
    --march_tile 64x8,32x16,128x4,64x16 --march_layers 64
  bench fcc-march --backend cuda --kernels soa,march --grids fcc --dof 2e7,1e8 --repeats 3 \
    --march_tile 8x8,16x4,8x4 --march_layers 64
  bench az-march --backend cuda --kernels soa,march --grids a15,z --dof 2e7 --repeats 3 \
    --march_tile 4x4,4x2,3x3,3x2,2x2 --march_layers 64
fi
if [[ ${TUNE_SWEEP:-0} != 0 ]]; then  # the launch choices of the soa kernel
  bench bcc-sweep --backend cuda --kernels soa --grids bcc --dof 1e7,1e8,236196000 --soa_band_rows 0,16 \
    --soa_vertices 2 --soa_tiles chunk --soa_order stride,counter --repeats 3
  bench c15-sweep --backend cuda --kernels soa --grids c15 --dof 142000000 --soa_band_rows 16 --soa_vertices 1,2 \
    --soa_tiles chunk --soa_order stride,counter --repeats 3
  bench grids-sweep --backend cuda --kernels soa --grids fcc,a15,z --dof 2e7 --soa_band_rows 0,16 --soa_vertices 2 \
    --soa_tiles chunk --soa_order stride,counter --repeats 3
  # The column order (not yet measured when written): columns of 8 and 32 layers, bands of 4 and 8 rows.
  bench columns-sweep --backend cuda --kernels soa --grids bcc,c15 --dof 1e8,236196000 --soa_band_rows 4,8 \
    --soa_vertices 1,2 --soa_tiles row --soa_order counter --soa_columns 8,32 --repeats 3
fi
if [[ ${TUNE_RECORD:-0} != 0 ]]; then  # every kernel with its defaults, and the 16-core CPU, for docs/performance.md
  bench bcc --grids bcc --dof 1e7,1e8,236196000 --cpu_max_dof 3e8
  bench grids --grids cubic,fcc,a15,z --dof 2e7 --cpu_max_dof 3e7
  bench c15 --grids c15 --dof 142000000 --cpu_max_dof 2e8
fi

# Single launches under Nsight Compute: DRAM bytes against the 48 per DOF counted, L2 hits, occupancy, stalls.
if [[ ${TUNE_PROFILE:-1} != 0 ]] && command -v ncu > /dev/null; then
  metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,\
sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
l1tex__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
lts__t_bytes.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed
  # Under ncu the first launch is slow, so the benchmark takes few steps per run: warm-up and repeats make sure the
  # third soa launch exists. Matched by the mangled name (the base name matched nothing on 2026-11-29).
  profile() {  # label, kernel-name regex, then loom bench gpe arguments
    local label=$1 kernel=$2
    shift 2
    timeout 100 ncu --clock-control none --kernel-name-base mangled --kernel-name "regex:$kernel" --launch-skip 2 \
      --launch-count 1 --metrics "$metrics" "$loom" bench gpe --backend cuda --warmup 2 --repeats 2 \
      "$@" > "$work/ncu-$label.txt" 2>&1
    echo "=== ncu $label ($*): rc $?" >> "$report"
    grep -E "_step|dram__|lts__|gpu__time|sm__warps|l1tex__|smsp__|No kernels" "$work/ncu-$label.txt" |
      sed -E 's/^ *//; s/_ZN4loom3gpe[^ ]*(march_step|soa_step)I/\1</' >> "$report"
  }
  # TUNE_PROFILE_DOFS: the BCC sizes profiled with the march kernel (e.g. "1e8 165888000": 203^3 beside 240^3;
  # "" none).
  for dof in ${TUNE_PROFILE_DOFS-236196000 1e8}; do
    profile "bcc-$dof-march" march_step --kernels march --grids bcc --dof "$dof"
  done
  # TUNE_PROFILE_LATTICES: BCC boxes profiled likewise (e.g. "227x227x227 232x232x227").
  for box in ${TUNE_PROFILE_LATTICES:-}; do
    profile "bcc-$box-march" march_step --kernels march --grids bcc --dof "" --lattices "$box"
  done
  [[ ${TUNE_PROFILE_ALL:-0} != 0 ]] && profile bcc-236m-soa soa_step --kernels soa --grids bcc --dof 236196000
  [[ ${TUNE_PROFILE_ALL:-0} != 0 ]] && profile c15-142m-march march_step --kernels march --grids c15 --dof 142000000
fi
cat "$report"
