#!/usr/bin/env bash
# Twelfth session's first H200 call (the lead's), ~8 minutes:
#   1. issue 22: `FMM_KEEP_PAGES=1 scripts/gpu-fmm6.sh` (the model of 4096 GPUs and the 1/2-rank GPU step with
#      freed memory kept in the heap: the LETs written into reused pages);
#   2. issue 21: scripts/gpu-vortex-step.sh (one AB2 step at 1.68e7 particles, fmm.rebuild_growth 1.1 / 1.3 / 1.6);
#   3. issue 19: test_gr_gh_gpu (the GPU gradient's strategy now chosen once per shell, f13e2ed, never run on a GPU).
# Everything comes back as one tarball; the tables are printed as each part ends.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-s12-out}; mkdir -p "$out"; work=$(mktemp -d)
t0=$(date +%s)
scripts/configure-gpu-build.sh build-gpu "$work/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_fmm_mpi test_fmm_let_field test_gr_gh_gpu > "$work/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$work/build.log" | head -30; echo "build FAILED"; exit 1; }
echo "build done ($(( $(date +%s) - t0 )) s)"
echo "=== 1. FMM_KEEP_PAGES=1 scripts/gpu-fmm6.sh"
FMM_KEEP_PAGES=1 OUT="$work/fmm" timeout 280 scripts/gpu-fmm6.sh 2>&1 | tail -n 40
echo "=== 2. scripts/gpu-vortex-step.sh ($(( $(date +%s) - t0 )) s)"
OUT="$work/step" timeout 200 scripts/gpu-vortex-step.sh 2>&1 | tail -n 8
echo "=== 3. test_gr_gh_gpu ($(( $(date +%s) - t0 )) s)"
timeout 60 build-gpu/tests/gr/test_gr_gh_gpu > "$work/gr.log" 2>&1
echo "test_gr_gh_gpu rc $?: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$work/gr.log" | tr '\n' ' ')"
find "$work" -name '*.h5' -delete
tar -czf "$out/s12-first.tar.gz" -C "$work" .
echo "total $(( $(date +%s) - t0 )) s"
