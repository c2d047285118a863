#!/usr/bin/env bash
# Fifteenth session's last H200 call (the lead's), on the merged main, lean (the session's device time is short):
#   1. build loom and test_spectral_gpu;
#   2. the new memory estimates on the device's side (--backend cuda): runs that fit must run (rc 0), runs that
#      cannot must be refused at once (rc 2, one line): loom spectral --shells 16 on the cluster strategy,
#      loom spectral 2000,1000,2000, loom bh for 1 m, loom vortex on a 32^3 box, loom vortex at 1024^3;
#   3. test_spectral_gpu while the budget lasts (the cluster route, 17 shells in one call, --shells' batch).
set -uo pipefail
cd "$(dirname "$0")/.."
out=gpu-s15-final-out budget=${FINAL_BUDGET:-240}
source scripts/gpu-lib.sh
gpu_build loom test_spectral_gpu
loom=build-gpu/bin/loom scratch=$(mktemp -d)
check() {  # name expected-rc seconds command...
  local name=$1 want=$2 limit=$3; shift 3
  local s=$(date +%s%N)
  timeout "$limit" "$@" > "$logs/$name.out" 2> "$logs/$name.err"; local rc=$?
  printf '%-16s rc %3s (want %s) %6s ms  %s\n' "$name" "$rc" "$want" "$(( ($(date +%s%N) - s) / 1000000 ))" \
    "$( (grep -hE 'time per shell|error:|steps|particles' "$logs/$name.out" "$logs/$name.err" | head -2) | tr '\n' ' ' | cut -c1-150)"
}
check spectral16 0 60 $loom spectral --backend cuda --extents 10,19,38 --radii 1.62,6 --tensor aa,iaa,aa \
  --angular separable --strategy cluster --shells 16 --calls 20 --repeats 10
check spectral-huge 2 20 $loom spectral --backend cuda --extents 2000,1000,2000
check bh 0 90 $loom bh --backend cuda --time.t_end 1 --output.dir "$scratch/bh"
check vortex 0 90 $loom vortex --backend cuda --initial.type hit --particles.n 32 --time.t_end 0.04 \
  --output.dir "$scratch/vortex"
check vortex-huge 2 30 $loom vortex --backend cuda --initial.type hit --particles.n 1024 --output.dir "$scratch/v2"
(( $(left) > 40 )) && gtest test_spectral_gpu 40 build-gpu/tests/spectral/test_spectral_gpu
tar -czf "$out/logs.tar.gz" -C "$logs" --exclude='*.h5' .
echo "total $(( $(date +%s) - t0 )) s"
