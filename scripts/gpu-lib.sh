# Shared by the session scripts of the H200 calls (scripts/gpu-s14-*.sh): sourced, not run. Sets out, logs, t0 and
# budget; gpu_build configures build-gpu (scripts/configure-gpu-build.sh) and builds the targets named; gtest runs
# one test binary under a limit and prints its summary line; left is the budget's seconds left; step runs a named
# command while the budget lasts, its stdout in $out/<name>.txt and the tail printed, and packs $out/<name>/ (if
# the command wrote there: it gets OUT=$out/<name>) into $out/<name>.tar.gz (at most eight files come back).
# Usage: out=<default folder> budget=<seconds>; source scripts/gpu-lib.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
out=${OUT:-$out}; mkdir -p "$out"; logs=$(mktemp -d); t0=$(date +%s)

gpu_build() {  # targets...
  scripts/configure-gpu-build.sh build-gpu "$logs/configure.log" --if-missing || { tail -20 "$logs/configure.log"; exit 1; }
  cmake --build build-gpu -j 16 --target "$@" > "$logs/build.log" 2>&1 ||
    { grep -E "error|FAILED" "$logs/build.log" | head -20; echo "build FAILED"; exit 1; }
  echo "build $(( $(date +%s) - t0 )) s"
}
summary() { grep -aE '^\S*\[  (PASSED|FAILED|SKIPPED)|FAILED  \]' "$1" | sed 's/\x1b\[[0-9;]*m//g' | tr '\n' ' '; }
gtest() {  # name seconds command...
  local name=$1 limit=$2; shift 2
  timeout "$limit" "$@" > "$logs/$name.log" 2>&1; echo "$name: rc $? $(summary "$logs/$name.log")"
}
left() { echo $(( budget - ($(date +%s) - t0) )); }
step() {  # name seconds-needed command...
  local name=$1 need=$2; shift 2
  if (( $(left) < need )); then echo "=== $name skipped ($(left) s left)"; return; fi
  echo "=== $name ($(( $(date +%s) - t0 )) s)"; mkdir -p "$out/$name"
  OUT="$out/$name" timeout "$(left)" "$@" > "$out/$name.txt" 2>&1; echo "rc $?"; tail -n "${TAIL:-14}" "$out/$name.txt"
  if [[ -n $(ls -A "$out/$name") ]]; then tar -czf "$out/$name.tar.gz" -C "$out" "$name"; fi
  rm -rf "${out:?}/$name"
}
