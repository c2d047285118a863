#!/usr/bin/env bash
# Variants of the single-hole run side by side on the H200, with where the constraints live (issue 19's late
# burst): the paper's case (two shells of 10x19x38, dt 0.033, loom bh's defaults) plus each variant's keys, all
# at once on the GPU (they are launch-bound and share it), and each run also writes radial_profile.csv (the largest
# |C_a|, |C_iab| and psi error over the angles per shell and radial index) every PROFILE_EVERY m. Everything
# comes back in one file, $OUT/bh-where.tar.gz (the device tool returns at most 8 files).
# Usage: [T_END=400] [LIMIT=300] [PROFILE_EVERY=20] scripts/gpu-bh-where.sh "name:keys" ["name:keys" ...]
# Printed last: C_a at marks of t, the last t and why it stopped; then for each run the radial index (shell/ir, r)
# of the largest C_a at its last profile, with that value, the psi error at t = 10, 100 and the end, and the
# excision surface's slowest speed into the hole (series.csv's excision_speed: its least value and when, its last).
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
runs=$(mktemp -d)/bh-where
mkdir -p "$runs"
names=()
for spec in "$@"; do
  name=${spec%%:*}; keys=${spec#*:}
  names+=("$name")
  # shellcheck disable=SC2086  # keys are words by design
  timeout -s TERM "${LIMIT:-300}" "$loom" bh --backend cuda --time.dt 0.033 --time.t_end "$t_end" \
    --output.every 5 --output.fields true --output.fields_every "${PROFILE_EVERY:-20}" --output.plots false \
    --output.checkpoint_every 0 --quiet --output.dir "$runs/$name" $keys > "$runs/$name.log" 2>&1 &
done
wait
echo "runs: $(( $(date +%s) - t0 )) s"
marks="50 100 150 200 250 300 400 600 1000 2000 3300"
printf '%-10s' variant; for m in $marks; do [[ $m -le $t_end ]] && printf ' %9s' "t=$m"; done; echo "  last t / why"
for name in "${names[@]}"; do
  awk -F, -v marks="$marks" -v t_end="$t_end" -v name="$name" \
    'BEGIN { n = split(marks, m, " ") } NR == 1 { next } { t = $1 + 0; for (i = 1; i <= n; ++i) \
      if (!(i in v) && t >= m[i] - 1e-9) v[i] = $2; last = t } \
     END { printf "%-10s", name; for (i = 1; i <= n; ++i) if (m[i] <= t_end) \
       printf " %9s", (i in v) ? sprintf("%.2e", v[i]) : "-"; printf "  %.1f", last }' "$runs/$name/series.csv" 2> /dev/null \
    || printf '%-10s (no series)' "$name"
  echo " / $(grep -v '^\s*$' "$runs/$name.log" | tail -1 | cut -c1-110)"
done
echo "where C_a is largest at the last profile (t, shell/radial index, r, max C_a, max C_iab); psi error at t ="
echo "10, 100 and the end (series.csv):"
for name in "${names[@]}"; do
  awk -F, -v name="$name" 'NR == 1 { next } { if ($1 != t) { t = $1; best = -1 } if ($5 + 0 > best) { best = $5 + 0; \
    w = sprintf("t = %.1f  %d/%d  r = %.3f  C_a %.2e  C_iab %.2e", $1, $2, $3, $4, $5, $6) } } \
    END { printf "%-10s %s", name, w }' "$runs/$name/radial_profile.csv" 2> /dev/null || printf '%-10s -' "$name"
  awk -F, 'NR == 1 { next } { t = $1 + 0; if (!a && t >= 10 - 1e-9) a = $5; if (!b && t >= 100 - 1e-9) b = $5; e = $5 } \
    NF >= 8 { if (!(s != "") || $8 + 0 < s) { s = $8 + 0; ts = t } x = $8 } \
    END { printf "  psi error %s / %s / %.2e", a ? sprintf("%.2e", a) : "-", b ? sprintf("%.2e", b) : "-", e; \
      if (s != "") printf "  excision speed: least %.4f at t = %.1f, last %.4f", s, ts, x; printf "\n" }' \
    "$runs/$name/series.csv" 2> /dev/null || echo
done
find "$runs" \( -name 'fields_*.h5' -o -name 'checkpoint*.h5' \) -delete  # only the text outputs travel
tar -czf "$out/bh-where.tar.gz" -C "$(dirname "$runs")" bh-where
echo "total: $(( $(date +%s) - t0 )) s"
