#!/usr/bin/env bash
# Variants of the single-hole run side by side on the H200 (issue 19's long-time stability experiments): builds
# loom (CUDA), then runs every variant at once (they are launch-bound, so they share the GPU well) to T_END and
# prints the gauge constraint C_a at marks of t, the stop time and why it stopped. One device call.
# Usage: [T_END=400] [LIMIT=300] scripts/gpu-bh-variants.sh "name:keys" ["name:keys" ...]
#   e.g. "base:" "rf32:--filter.alpha 36 --filter.order 32" "dt2:--time.dt 0.0165"
# Every variant runs the paper's case (two shells of 10x19x38, dt 0.033, loom bh's defaults) plus its keys; a
# later --time.dt or --grid.* in the keys overrides. What comes back under $OUT: <name>-series.csv, all.log.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-bh-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$PWD/$build/bin/loom"
t0=$(date +%s)
logs=$(mktemp -d)
scripts/configure-gpu-build.sh "$build" "$logs/configure.log" --if-missing || exit 1
if ! cmake --build "$build" -j "$(nproc)" --target loom > "$logs/build.log" 2>&1; then
  grep -E "error|FAILED" "$logs/build.log" | head -40; echo "build FAILED"; exit 1
fi
echo "build: $(( $(date +%s) - t0 )) s"
t_end=${T_END:-400}
runs=$(mktemp -d)
names=()
for spec in "$@"; do
  name=${spec%%:*}; keys=${spec#*:}
  names+=("$name")
  # shellcheck disable=SC2086  # keys are words by design
  timeout -s TERM "${LIMIT:-300}" "$loom" bh --backend cuda --time.dt 0.033 --time.t_end "$t_end" \
    --output.every 5 --output.fields false --output.plots false --output.checkpoint_every 0 --quiet \
    --output.dir "$runs/$name" $keys > "$runs/$name.log" 2>&1 &
done
wait
echo "runs: $(( $(date +%s) - t0 )) s"
marks="50 100 150 200 250 300 400 600 1000 2000 3300"
printf '%-10s' variant; for m in $marks; do [[ $m -le $t_end ]] && printf ' %9s' "t=$m"; done; echo "  last t / why"
for name in "${names[@]}"; do
  cp "$runs/$name/series.csv" "$out/$name-series.csv" 2> /dev/null
  { echo "== $name"; cat "$runs/$name.log"; } >> "$out/all.log"
  awk -F, -v marks="$marks" -v t_end="$t_end" -v name="$name" \
    'BEGIN { n = split(marks, m, " ") } NR == 1 { next } { t = $1 + 0; for (i = 1; i <= n; ++i) \
      if (!(i in v) && t >= m[i] - 1e-9) v[i] = $2; last = t } \
     END { printf "%-10s", name; for (i = 1; i <= n; ++i) if (m[i] <= t_end) \
       printf " %9s", (i in v) ? sprintf("%.2e", v[i]) : "-"; printf "  %.1f", last }' "$runs/$name/series.csv" 2> /dev/null \
    || printf '%-10s (no series)' "$name"
  echo " / $(grep -v '^\s*$' "$runs/$name.log" | tail -1 | cut -c1-110)"
done
rm -rf "$runs"
echo "total: $(( $(date +%s) - t0 )) s"
