#!/usr/bin/env bash
# Issue 19, session 12 (branch bh8): the tensor-consistent (spin-weighted) angular filter on the H200. First the
# CPU-vs-GPU test of the tensor filter (test_gr_gh_gpu, its TensorFilter case: 100 steps, both backends), then the
# paper's case (10x19x38, dt 0.033) side by side to T_END with scripts/gpu-bh-where.sh: the tensor filter at
# l_keep = l_max - 3 (its default: the largest l_keep whose rank-3 tensor harmonics the scalar Y_lm derivatives
# resolve), the scalar filter at the same l_keep (the control), and the tensor filter at l_max - 1 (on the CPU it
# grows at once: expected to stop early). The scalar default (l_keep 17) is session 11's run: stop at t = 954.6.
# Before the runs, 100 profiled steps with each filter: the Filter module's share of the step.
# Usage: [T_END=700] [LIMIT=200] scripts/gpu-bh8.sh. Table last (gpu-bh-where.sh's).
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d); t0=$(date +%s)
scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || exit 1
cmake --build build-gpu -j 16 --target loom test_gr_gh_gpu > "$logs/build.log" 2>&1 \
  || { grep -E "error|FAILED" "$logs/build.log" | head -20; echo "build FAILED"; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
timeout 150 build-gpu/tests/gr/test_gr_gh_gpu --gtest_filter='*Tensor*' > "$logs/gr.log" 2>&1
echo "test_gr_gh_gpu *Tensor*: rc $? $(grep -aE '^\[  (PASSED|FAILED)|FAILED  \]|Failure|difference' "$logs/gr.log" | tr '\n' ' ' | cut -c1-400)"
for f in scalar tensor; do  # the filter's share of the step: 100 profiled steps of the paper's case
  timeout 60 build-gpu/bin/loom bh --backend cuda --profile true --time.dt 0.033 --time.t_end 3.3 --quiet \
    --filter.angular "$f" --output.fields false --output.plots false --output.dir "$logs/prof-$f" > /dev/null 2>&1
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); m=j['modules_s']; t=sum(m.values()); n=j['steps']; \
print('profile %s: %d steps, step %.3f ms, Filter %.3f ms (%.1f%%)' % (sys.argv[2], n, t/n*1e3, m['Filter']/n*1e3, 100*m['Filter']/t))" \
    "$logs/prof-$f/summary.json" "$f" 2>&1 | tail -1
done
T_END=${T_END:-700} LIMIT=${LIMIT:-200} PROFILE_EVERY=100 BUILD_DIR=build-gpu scripts/gpu-bh-where.sh \
  "tensor15:--filter.angular tensor --filter.l_keep 15" \
  "scalar15:--filter.angular scalar --filter.l_keep 15" \
  "tensor17:--filter.angular tensor --filter.l_keep 17"
echo "total $(( $(date +%s) - t0 )) s"
