#!/usr/bin/env bash
# Fifteenth session's H200 call (the lead's), issue 18's per-shell target with 16 shells per launch:
#   1. build loom, test_spectral_gpu, test_gr_gh_gpu, spectral_batch_timing;
#   2. the GPU gtests: test_spectral_gpu (every cluster case; shells in one launch, now max_shells + 1 = 17;
#      ShellBatchEqualsOneShellAlone: loom spectral --shells' batch) and test_gr_gh_gpu (loom bh on the device);
#   3. `loom spectral` on the 50 GH components of 10x19x38 with the cluster strategy, --shells 1, 2, 16, one call
#      and per call of 20, and the dense strided-batched cuBLAS baseline (one shell) in the same process order;
#   4. spectral_batch_timing quick (the deciding variants at K = 1..16 and the route as loom bh calls it), twice.
set -uo pipefail
cd "$(dirname "$0")/.."
out=gpu-s15-out budget=${S15_BUDGET:-420}
source scripts/gpu-lib.sh
gpu_build loom test_spectral_gpu test_gr_gh_gpu spectral_batch_timing
gtest test_spectral_gpu 90 build-gpu/tests/spectral/test_spectral_gpu
gtest test_gr_gh_gpu 150 build-gpu/tests/gr/test_gr_gh_gpu
tar -czf "$out/gtests.tar.gz" -C "$logs" --exclude='*.h5' .
echo "gtests done ($(( $(date +%s) - t0 )) s); $(left) s left"
rows() {  # the loom spectral rows, per shell
  local args="--extents 10,19,38 --radii 1.62,6 --tensor aa,iaa,aa --backend cuda --repeats 20 --warmup 3"
  for k in 1 2 16; do
    for calls in 1 20; do
      build-gpu/bin/loom spectral $args --angular separable --strategy cluster --shells $k --calls $calls |
        awk -v k=$k -v c=$calls '/relative error/ {e=$NF} /^time: median/ {t=$3} END {print "cluster shells", k, "calls", c, "us/call", t, "us/shell", t/k, "error", e}'
    done
  done
  for calls in 1 20; do
    build-gpu/bin/loom spectral $args --angular dense --strategy batched --calls $calls |
      awk -v c=$calls '/relative error/ {e=$NF} /^time: median/ {t=$3} END {print "dense batched shells 1 calls", c, "us/call", t, "error", e}'
  done
}
export -f rows
step rows 60 bash -c rows
TAIL=27 step batch1 50 build-gpu/tests/spectral/spectral_batch_timing 20 quick
TAIL=27 step batch2 50 build-gpu/tests/spectral/spectral_batch_timing 20 quick
echo "total $(( $(date +%s) - t0 )) s"
