#!/usr/bin/env bash
# Issue 19, session 12 (branch bh8), second call: with the tensor filter now the default, (1) the GPU filter alone
# against the CPU's for both angular filters (test_gr_gh_gpu's filter cases), (2) the paper's case to T_END with
# loom bh's own defaults (the tensor filter at its default l_keep 15: must equal the first call's tensor15), without
# the radial filter (is it still needed?), and at l_keep 16 (l_max - 2: Phi_ijk's top part unresolved by the
# derivatives; how sensitive is the choice?). Usage: [T_END=600] [LIMIT=200] scripts/gpu-bh8-second.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d); t0=$(date +%s)
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_gr_gh_gpu > "$logs/build.log" 2>&1 \
  || { grep -E "error|FAILED" "$logs/build.log" | head -20; echo "build FAILED"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
timeout 100 build-gpu/tests/gr/test_gr_gh_gpu --gtest_filter='*FusedFilter*:*TensorFilterAgrees*' > "$logs/gr.log" 2>&1
echo "test_gr_gh_gpu filters: rc $? $(grep -aE '^\[  (PASSED|FAILED)|FAILED  \]|Failure' "$logs/gr.log" | tr '\n' ' ' | cut -c1-300)"
T_END=${T_END:-600} LIMIT=${LIMIT:-200} PROFILE_EVERY=100 BUILD_DIR=build-gpu scripts/gpu-bh-where.sh \
  "default:" "alpha0:--filter.alpha 0" "tensor16:--filter.l_keep 16"
echo "total $(( $(date +%s) - t0 )) s"
