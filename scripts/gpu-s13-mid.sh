#!/usr/bin/env bash
# Thirteenth session's mid H200 call (the lead's), on a temporary merge of the helpers' branches: one build of
# every target, then spec8's request (GPU_REPEATS=20 scripts/gpu-spectral-strips.sh), bh9's (scripts/gpu-bh9.sh)
# and fmm8's (scripts/gpu-fmm8.sh), each under a timeout; ~8 minutes. Each one's tail goes to stdout, its whole
# output to $OUT/<name>.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-s13-out}; mkdir -p "$out"; t0=$(date +%s)
git log -1 --format='tree %h %s' | cut -c1-90
scripts/configure-gpu-build.sh build-gpu "$out/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_gr_gh_gpu spin_filter_timing test_fmm_mpi spectral_cluster_timing \
  test_spectral_gpu > "$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | head -30; echo "build FAILED"; exit 1; }
echo "build done ($(( $(date +%s) - t0 )) s)"
run() {  # name seconds command...
  local name=$1 limit=$2; shift 2
  echo "=== $name: $* ($(( $(date +%s) - t0 )) s)"
  mkdir -p "$out/$name"
  OUT="$out/$name" timeout "$limit" "$@" > "$out/$name.txt" 2>&1; echo "rc $?"
  tail -n "${TAIL:-30}" "$out/$name.txt"
  tar czf "$out/$name.tar.gz" -C "$out" "$name" && rm -rf "${out:?}/$name"
}
run spec8 130 env GPU_REPEATS=20 scripts/gpu-spectral-strips.sh
run bh9 120 scripts/gpu-bh9.sh
run fmm8 200 env FMM8_BUDGET=150 scripts/gpu-fmm8.sh
echo "total $(( $(date +%s) - t0 )) s"
