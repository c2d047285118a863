#!/usr/bin/env bash
# Issue 18's targets on the H200, run from the repo root (configures build-gpu as the other GPU scripts do):
#   1. builds loom and the spectral tests that have GPU cases, runs them (summary lines);
#   2. the DGEMM ceiling of this GPU (`loom bench ceilings`), measured in the same run;
#   3. `loom spectral --json` rows: the 50 GH components (T_aa + T_iaa + T_aa) in one call on SpEC's production
#      shell 10x19x38 (the cluster route, one launch, and fused separable, each alone and as a stream of 20
#      calls; the GEMM route; the dense strided-batched cuBLAS baseline), T_abb on SingleBH k = 10 (49x26x52) by
#      every strategy, and per shell (SingleBH k = 0..10 and the production shell) the fastest GPU route against
#      the fastest CPU route on all cores; then `spectral_cluster_timing`: the cluster route with 1..4
#      components per cluster (the tuning table);
#   4. with --ncu (and ncu on the PATH): an Nsight Compute profile of the two kernels of the 50-component call
#      (ncu.txt; the sections docs/spectral.md compares with its model);
#   4b. with --ncu-gemm: each kernel's duration and grid in the GEMM route (batched/separable) of the
#      50-component call and of T_abb at k = 10 (ncu-gemm.txt), to see which cuBLAS step costs what;
#   4c. with --ncu-cluster: the cluster route's kernel in the 50-component call (ncu-cluster.txt: duration,
#      occupancy, shared memory, the warp states that stall it);
#   5. the targets table, printed last: time, ratio and the target each row is held to; the route
#      `--strategy auto --angular auto` picks for each target shape.
# Files: one JSON per row, ceilings.json, ncu.txt, targets.txt, in one tarball $OUT/spectral-targets.tar.gz
# (the device returns few files; the tables go to stdout), or in ./gpu-check-out/spectral-targets without $OUT.
# CPU_REPEATS (default 3) sets the CPU rows' repeats; GPU_REPEATS (default 50) the GPU rows'. SPECTRAL_QUICK=1
# keeps the mid-session check under 3 minutes: the tests, the ceilings, the 50-component and k = 10 rows only
# (no per-shell sweep, no CPU rows); SPECTRAL_QUICK=2 (about 2 minutes with the build) only what concerns the
# 50 components: the GPU tests of the shell gradient (and of the GH evolution, whose derivatives take the cluster
# route), the 50-component rows, DiffJac, the tuning table.
# Usage: scripts/gpu-time-spectral.sh [--ncu]
set -uo pipefail
ncu_wanted=0
ncu_gemm=0
ncu_cluster=0
for arg in "$@"; do
  case "$arg" in
    --ncu) ncu_wanted=1 ;;
    --ncu-gemm) ncu_gemm=1 ;;
    --ncu-cluster) ncu_cluster=1 ;;
    *) echo "gpu-time-spectral.sh: unknown argument '$arg' (allowed: --ncu, --ncu-gemm, --ncu-cluster)" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
if [ -n "${OUT:-}" ]; then out=$(mktemp -d)/spectral-targets; else out=gpu-check-out/spectral-targets; fi
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
log="$out/build.log"
gpu_repeats=${GPU_REPEATS:-50}
cpu_repeats=${CPU_REPEATS:-3}
quick=${SPECTRAL_QUICK:-0}
scripts/configure-gpu-build.sh "$build" "$log" --if-missing || exit 1
tests=(test_spectral_gpu test_spectral_multi_tensor test_spectral_strategy_choice test_spectral_cluster_route)
filter='*'
[ "$quick" = 2 ] && tests=(test_spectral_gpu test_spectral_strategy_choice) &&
  filter='*ShellGradient*:*ClusterRoute*:*NeverPicksTheClusterRoute*'
# quick mode 2 also runs the GH evolution's GPU test: loom bh's derivatives take the cluster route on sm_90
gr_tests=()
[ "$quick" = 2 ] && gr_tests=(test_gr_gh_gpu)
if ! cmake --build "$build" -j "$(nproc)" --target loom spectral_cluster_timing "${tests[@]}" "${gr_tests[@]}" \
  > "$log" 2>&1; then
  grep -E "error|FAILED" "$log" | head -40
  exit 1
fi
for t in "${tests[@]}"; do
  printf '%-32s %s\n' "$t" "$(timeout 600 "$build/tests/spectral/$t" --gtest_filter="$filter" 2>&1 |
                               grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|Expected|Which is' | tr '\n' ' ')"
done
for t in "${gr_tests[@]}"; do
  printf '%-32s %s\n' "$t" "$(timeout 300 "$build/tests/gr/$t" 2>&1 |
                               grep -E '^\[  (PASSED|FAILED|SKIPPED) |Failure|Expected|Which is' | tr '\n' ' ')"
done

[ "$quick" = 2 ] ||
  timeout 600 "$loom" bench ceilings --backend cuda --json "$out/ceilings.json" > "$out/ceilings.txt" 2>&1

row() {  # name extents tensor backend strategy angular repeats calls
  timeout 600 "$loom" spectral --extents "$2" --radii 1.62,6 --tensor "$3" --backend "$4" --strategy "$5" \
    --angular "$6" --repeats "$7" --calls "$8" --json "$out/$1.json" > "$out/$1.txt" 2>&1 ||
    echo "row $1 failed: $(tail -1 "$out/$1.txt")"
}
gh=aa,iaa,aa
row gh-cluster-1 10,19,38 $gh cuda cluster separable "$gpu_repeats" 1
row gh-cluster-20 10,19,38 $gh cuda cluster separable "$gpu_repeats" 20
row gh-fused-1 10,19,38 $gh cuda fused separable "$gpu_repeats" 1
row gh-fused-20 10,19,38 $gh cuda fused separable "$gpu_repeats" 20
row gh-dense 10,19,38 $gh cuda batched dense "$gpu_repeats" 1
row gh-gemm 10,19,38 $gh cuda batched separable "$gpu_repeats" 1
row gh-auto 10,19,38 $gh cuda auto auto "$gpu_repeats" 1
k10_strategies=(batched streamed fused)
[ "$quick" = 2 ] && k10_strategies=()
for s in "${k10_strategies[@]}"; do
  for a in dense separable; do row "k10-$s-$a" 49,26,52 abb cuda "$s" "$a" "$gpu_repeats" 1; done
done
# the cluster route's shared memory does not hold a k = 10 block: refused (exit 2), not timed
[ "$quick" = 2 ] || row k10-auto 49,26,52 abb cuda auto auto "$gpu_repeats" 1
shells=(10,19,38)
for k in $(seq 0 10); do shells+=("$((9 + 4 * k)),$((6 + 2 * k)),$((12 + 4 * k))"); done
[ "$quick" != 0 ] && shells=()
for e in "${shells[@]}"; do
  row "shell-$e-gpu" "$e" abb cuda fused separable "$gpu_repeats" 1
  row "shell-$e-gpu-cluster" "$e" abb cuda cluster separable "$gpu_repeats" 1
  row "shell-$e-gpu-dense" "$e" abb cuda batched dense "$gpu_repeats" 1
  for a in dense separable; do row "shell-$e-cpu-$a" "$e" abb cpu blas "$a" "$cpu_repeats" 1; done
done

# DiffJac on every tensor kind at N_x = 1e6 and 4e6 against the copy bandwidth measured in the same call
timeout 300 "$loom" bench spectral --backend cuda --sweeps jacobian --points 1000000,4000000 --repeats 5 \
  --warmup 1 --json "$out/jacobian.json" > "$out/jacobian.txt" 2>&1 || echo "bench jacobian failed: $(tail -1 "$out/jacobian.txt")"
timeout 300 "$build/tests/spectral/spectral_cluster_timing" "$gpu_repeats" > "$out/cluster-timing.txt" 2>&1 ||
  echo "spectral_cluster_timing failed: $(tail -2 "$out/cluster-timing.txt")"

if [ "$ncu_wanted" = 1 ]; then
  if command -v ncu > /dev/null; then
    # the 50-component call: one warm-up and one timed call, so the four kernel launches profiled are the
    # warm-up's and the call's spectral and physical passes (or the generic angular and radial kernels)
    timeout 600 ncu --kernel-name regex:'spectral_kernel|physical_kernel|angular_kernel|radial_.*_kernel' \
      --launch-count 4 --section SpeedOfLight --section LaunchStats --section Occupancy \
      --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats \
      --section WarpStateStats "$loom" spectral --extents 10,19,38 --radii 1.62,6 --tensor $gh --backend cuda \
      --strategy fused --angular separable --repeats 1 --warmup 1 > "$out/ncu.txt" 2>&1 ||
      echo "ncu failed: $(tail -3 "$out/ncu.txt")"
    grep -E '^  [^ ].*\(|Duration|Registers Per|Achieved Occupancy|Executed Ipc Active|L1TEX|Theoretical Occ' \
      "$out/ncu.txt" | head -60
  else
    echo "--ncu: ncu is not on this machine's PATH; no profile"
  fi
fi

if [ "$ncu_gemm" = 1 ] && command -v ncu > /dev/null; then
  for c in "10,19,38 $gh" "49,26,52 abb"; do
    set -- $c
    timeout 120 ncu --section SpeedOfLight --section LaunchStats --launch-count 10 "$loom" spectral --extents "$1" \
      --radii 1.62,6 --tensor "$2" --backend cuda --strategy batched --angular separable --repeats 1 --warmup 1 \
      >> "$out/ncu-gemm.txt" 2>&1 || echo "ncu-gemm failed: $(tail -3 "$out/ncu-gemm.txt")"
  done
  echo "== GEMM route kernels (ncu; the warm-up call's, then the timed call's) =="
  grep -E '^  [^ ].*\(|Duration|Grid Size|Registers Per' "$out/ncu-gemm.txt" | sed -E 's/ +/ /g' | cut -c1-110
fi

if [ "$ncu_cluster" = 1 ] && command -v ncu > /dev/null; then
  # the warm-up call's and the timed call's kernel
  timeout 180 ncu --kernel-name regex:'cluster_kernel' --launch-count 2 --section SpeedOfLight --section LaunchStats \
    --section Occupancy --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis \
    --section InstructionStats --section ComputeWorkloadAnalysis \
    "$loom" spectral --extents 10,19,38 --radii 1.62,6 --tensor $gh --backend cuda --strategy cluster \
    --angular separable --repeats 1 --warmup 1 > "$out/ncu-cluster.txt" 2>&1 ||
    echo "ncu-cluster failed: $(tail -3 "$out/ncu-cluster.txt")"
  echo "== the cluster kernel (ncu) =="
  grep -E 'Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Executed Ipc Active|Dynamic Shared|Cluster|Stall|Warp Cycles Per Issued|Memory Throughput|L1/TEX Hit|Block Limit|Executed Instructions  |Eligible Warps|SM Frequency' \
    "$out/ncu-cluster.txt" | sed -E 's/ +/ /g' | head -60
fi

python3 - "$out" "${shells[@]}" << 'EOF' | tee "$out/targets.txt"
import json, sys, os
out, shells = sys.argv[1], sys.argv[2:]
def row(name):
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path):
        return None
    return json.load(open(path))["result"]
def us(r):
    return r["median_s"] * 1e6 if r else float("nan")
def route(r):
    return f"{r['strategy']}/{r.get('angular', '?')}" if r else "failed"
dgemm = float("nan")
try:
    for c in json.load(open(os.path.join(out, "ceilings.json")))["ceilings"]:
        if c.get("backend") == "cuda" and c.get("name") == "dgemm":
            dgemm = c["value"]
except (OSError, KeyError, ValueError):
    pass
print("\n== issue 18 targets (H200) ==")
print(f"{'target':<52} {'measured':>24} {'goal':>22}")
c1, c20, dense = row("gh-cluster-1"), row("gh-cluster-20"), row("gh-dense")
f1, f20 = row("gh-fused-1"), row("gh-fused-20")
print(f"{'50 GH components, one call, 10x19x38, cluster':<52} {us(c1):>21.1f} us {'<= 20 us':>22}")
print(f"{'  the same, per call in a stream of 20 calls':<52} {us(c20):>21.1f} us {'<= 20 us':>22}")
print(f"{'  dense cuBLAS baseline / cluster (one call)':<52} {us(dense) / us(c1):>23.1f}x {'>= 5x':>22}")
print(f"{'  dense cuBLAS baseline, one call':<52} {us(dense):>21.1f} us")
print(f"{'  fused separable (two launches), one call':<52} {us(f1):>21.1f} us")
print(f"{'  fused separable, per call in a stream of 20':<52} {us(f20):>21.1f} us")
if c1:
    print(f"{'  cluster model: ' + format(c1['flops'] / 1e6, '.0f') + ' MFLOP, ' + format(c1['bytes'] / 1e6, '.1f') + ' MB':<52}"
          f" {c1['flops'] / c1['median_s'] / 1e12:>15.2f} TFlop/s {c1['bytes'] / c1['median_s'] / 1e12:>5.2f} TB/s")
gg = row("gh-gemm")
print(f"{'  batched/separable (the GEMM route), one call':<52} {us(gg):>21.1f} us")
ga = row("gh-auto")
print(f"{'  auto route: ' + route(ga):<52} {us(ga):>21.1f} us")
k10 = {(s, a): row(f"k10-{s}-{a}") for s in ("batched", "streamed", "fused") for a in ("dense", "separable")}
bd = k10[("batched", "dense")]
def of_dgemm(r):
    return 100 * r["flops"] / r["median_s"] / dgemm if r else float("nan")
print(f"{'k = 10 T_abb 49x26x52, dense batched, of DGEMM':<52} {of_dgemm(bd):>22.1f} % {'>= 60%':>22}")
for (s, a), r in k10.items():
    print(f"{'  ' + s + '/' + a + ', % of DGEMM (own flop model)':<52} {us(r):>21.1f} us {of_dgemm(r):>8.1f} %")
best = min([(us(r), f"{s}/{a}") for (s, a), r in k10.items() if r] or [(float("nan"), "none")])
print(f"{'  fastest route: ' + best[1]:<52} {best[0]:>21.1f} us {'< ' + format(us(bd), '.1f') + ' us (dense)':>22}")
ka = row("k10-auto")
print(f"{'  auto route: ' + route(ka):<52} {us(ka):>21.1f} us")
def best(*times):
    times = [t for t in times if t == t]  # drop the rows that failed (nan)
    return min(times) if times else float("nan")
for e in shells:
    g = best(us(row(f"shell-{e}-gpu")), us(row(f"shell-{e}-gpu-dense")), us(row(f"shell-{e}-gpu-cluster")))
    c = best(us(row(f"shell-{e}-cpu-dense")), us(row(f"shell-{e}-cpu-separable")))
    print(f"{'T_abb ' + e + ': 16-core CPU / GPU, fastest each':<52} {c / g:>23.1f}x {'>= 10x':>22}"
          f"  ({c:.0f} vs {g:.1f} us)")
print(f"(DGEMM ceiling {dgemm / 1e12:.1f} TFlop/s measured in this run)" if dgemm == dgemm else "(no DGEMM ceiling)")
try:
    for r in json.load(open(os.path.join(out, "jacobian.json")))["rows"]:
        if r["op"] == "diffjac" and r["tensor"] == "abb":
            label = f"DiffJac T_abb, N_x = {r['points']}, of copy bandwidth"
            print(f"{label:<52} {100 * r['ceiling_fraction']:>22.1f} % {'>= 70%':>22}  ({r['median_s'] * 1e6:.0f} us)")
except (OSError, KeyError, ValueError):
    print("DiffJac rows: none (bench spectral --sweeps jacobian failed)")
timing = os.path.join(out, "cluster-timing.txt")
if os.path.exists(timing):
    print("\n== the cluster route by components per cluster (spectral_cluster_timing) ==")
    print(open(timing).read().rstrip())
EOF
if [ -n "${OUT:-}" ]; then
  tar czf "$OUT/spectral-targets.tar.gz" -C "$(dirname "$out")" spectral-targets && rm -rf "$(dirname "$out")"
fi
