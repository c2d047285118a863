#!/usr/bin/env bash
# The GPE's GPU check (issues 4 and 5), run on the H200 from the repo root after scripts/gpu-check.sh has built
# build-gpu with CUDA on: the kernels under compute-sanitizer, `loom bench gpe` at the issue's sizes (BCC up to
# 270^3 structures = 236 M DOF, C15 at 142 M, every grid at 2e7, the 16-core CPU on the same problems), and the
# paper's accuracy study (Fig. 5 and 6) on all six grids, and the ranks of issue 5 (two MPI ranks sharing the GPU,
# GPE_CHECK_MPI=0 skips them). Prints a short table last. Files in $OUT: at most 6.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
work=$(mktemp -d)
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
summary="$work/gpe-summary.txt"
: > "$summary"
status() { printf '%-40s %s\n' "$1" "$2" >> "$summary"; }
export LOOM_PYTHON=${LOOM_PYTHON:-$(command -v python3)}

cmake --build "$build" -j "$(nproc)" --target loom test_gpe_kernels test_gpe_slab_mpi test_gpe_mpi_cli \
  > "$work/gpe-build.log" 2>&1 ||
  { tail -30 "$work/gpe-build.log"; echo "gpe build FAILED"; exit 1; }

"$build/tests/gpe/test_gpe_kernels" > "$work/gpe-kernels.log" 2>&1
status "test_gpe_kernels" "rc $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$work/gpe-kernels.log" | tr '\n' ' ')"
sanitizer_rc=0
for tool in memcheck racecheck; do
  compute-sanitizer --tool "$tool" --error-exitcode 99 "$build/tests/gpe/test_gpe_kernels" \
    --gtest_filter='*ShortRuns*' > "$work/gpe-sanitizer-$tool.log" 2>&1
  rc=$?
  [[ $rc -ne 0 ]] && sanitizer_rc=$rc
  status "sanitizer $tool (gpe kernels)" "$([[ $rc -eq 0 ]] && echo clean || echo "FAILED rc=$rc")"
done

# Bandwidth: BCC from 1e6 to 270^3 x 12 = 236 M DOF, C15 at 142 M (the paper's sizes), every grid at 2e7; the CPU
# on all cores on the 2e7 and 236 M problems.
"$loom" bench gpe --grids bcc --dof 1e6,1e7,1e8,236196000 --cpu_max_dof 3e8 --repeats 5 \
  --json "$work/bench-gpe-bcc.json" > "$work/bench-gpe-bcc.txt" 2>&1
status "loom bench gpe (bcc)" "rc $?"
"$loom" bench gpe --grids cubic,fcc,a15,c15,z --dof 2e7 --cpu_max_dof 3e7 --repeats 5 \
  --json "$work/bench-gpe-grids.json" > "$work/bench-gpe-grids.txt" 2>&1
status "loom bench gpe (all grids, 2e7)" "rc $?"
"$loom" bench gpe --grids c15 --dof 142000000 --backend cuda --repeats 5 \
  --json "$work/bench-gpe-c15.json" > "$work/bench-gpe-c15.txt" 2>&1
status "loom bench gpe (c15, 142 M)" "rc $?"

# Ranks (issue 5, item 3; section 4.2): two ranks sharing the GPU against one rank (every kernel, halos through pinned
# staging and, where MPI is CUDA-aware, device to device), the slab kernels under memcheck, `loom gpe` on 3 and 4
# ranks against one rank (outputs, restarts across rank counts), and the scaling benchmark's mechanics on 2 ranks
# (one GPU shared: its speedups mean nothing; Fig. 9 needs one GPU per rank).
if [[ ${GPE_CHECK_MPI:-1} != 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  two=(mpiexec --oversubscribe -n 2)
  passed() { grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$1" | tr -s ' ' | tr '\n' ' '; }
  "${two[@]}" "$build/tests/gpe/test_gpe_slab_mpi" --gtest_filter='GpeSlabsCuda.*' > "$work/gpe-slab-gpu.log" 2>&1
  status "slabs: 2 ranks on 1 GPU vs 1 rank" "rc $? $(passed "$work/gpe-slab-gpu.log")"
  "${two[@]}" compute-sanitizer --tool memcheck --error-exitcode 99 "$build/tests/gpe/test_gpe_slab_mpi" \
    --gtest_filter='*ShortRunsForTheSanitizer*' > "$work/gpe-slab-memcheck.log" 2>&1
  rc=$?
  [[ $rc -ne 0 ]] && sanitizer_rc=$rc
  status "sanitizer memcheck (slabs, 2 ranks)" "$([[ $rc -eq 0 ]] && echo clean || echo "FAILED rc=$rc")"
  "$build/tests/gpe/test_gpe_mpi_cli" > "$work/gpe-mpi-cli.log" 2>&1
  status "loom gpe on 1, 2, 3, 4 ranks (GPU)" "rc $? $(passed "$work/gpe-mpi-cli.log")"
  "${two[@]}" "$loom" bench gpe --scaling both --repeats 3 --json "$work/bench-gpe-scaling-2ranks.json" \
    > "$work/bench-gpe-scaling.txt" 2>&1
  status "loom bench gpe scaling (2 ranks, 1 GPU)" "rc $?"
fi

# The accuracy study (paper section 5.1) on the GPU (GPE_CHECK_ACCURACY=0 skips it).
if [[ ${GPE_CHECK_ACCURACY:-1} != 0 ]]; then
  timeout 300 examples/gpe/run_accuracy_study.sh "$build" --backend cuda --quiet > "$work/accuracy.log" 2>&1
  status "accuracy study (6 grids)" "rc $?"
fi
for g in cubic fcc bcc a15 c15 z; do
  s=runs/accuracy/$g/summary.json
  [[ -f $s ]] && status "  $g" "$(python3 -c "import json;d=json.load(open('$s'));sp=d['splitting'];print('dof %d dt %.3g steps %d split %s mode %s E_end %s wall %.1f s' % (d['dof'], d['dt'], d['steps'], ('t=%.2f' % sp['time']) if sp['detected'] else 'no', sp.get('dominant_mode','-'), '', d['wall_s']))")"
done

cp runs/accuracy/fig5_errors.png runs/accuracy/fig6_splitting.png "$out/" 2>/dev/null
tar czf "$out/gpe-logs.tgz" -C "$work" .
(cd runs && tar czf "$out/accuracy-runs.tgz" --exclude='*.h5' --exclude='slice_*' accuracy) 2>/dev/null
echo "=== loom bench gpe (bcc)"; cat "$work/bench-gpe-bcc.txt"
echo "=== loom bench gpe (grids at 2e7)"; grep -vE "^(backend|cpu  |cuda )  " "$work/bench-gpe-grids.txt" | head -30
echo "=== loom bench gpe (c15)"; head -4 "$work/bench-gpe-c15.txt"
if [[ -f $work/bench-gpe-scaling.txt ]]; then
  echo "=== loom bench gpe scaling (2 ranks sharing the GPU)"; cat "$work/bench-gpe-scaling.txt"
fi
echo "=== gpe summary"; cat "$summary"
