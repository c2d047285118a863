#!/usr/bin/env bash
# Issue 22's targets on the H200's 16-core host, one piece per call (each within 8 minutes, at most 8 files in
# $OUT, its table printed last), from the repo root:
#   scripts/gpu-fmm-weak.sh build       the CUDA build (build-gpu), once
#   scripts/gpu-fmm-weak.sh cpu         weak scaling on the CPU: 10^6 bodies per rank on 1, 2, 4, 8 ranks, 16/P
#                                       threads each (the host's 16 cores always): E = P T(1) / T(P)
#   scripts/gpu-fmm-weak.sh gpu         the same on the GPU shared by 1 and 2 ranks (local FMM and received
#                                       field on the device), and the H200's local Biot-Savart FMM at 1.68e7
#   scripts/gpu-fmm-weak.sh model-here  the model (loom bench fmm --model_ranks) at the measured P and load,
#                                       16/P threads as the ranks had, for the prediction next to the measurement
#   scripts/gpu-fmm-weak.sh model       the model of 1.68e7 Biot-Savart bodies per GPU at 8..4096 ranks, fed with
#                                       the H200's local FMM time (FMM_GPU_SECONDS, or gpu-bs.json in $OUT, or
#                                       measured here) and the received field on the device (its cost against the
#                                       host's measured on a probe, model.hpp (5)) or the host
#   scripts/gpu-fmm-weak.sh received    2 ranks sharing the GPU against direct sums, 1 and 2 ranks sharing it
#                                       timed (local and received field), the model on the device (one call;
#                                       FMM_GPU_SECONDS skips the 1.68e7 run, FMM_MODEL_RANKS the rank counts)
#   scripts/gpu-fmm-weak.sh summary DIR the joined table of the JSON files in DIR (the calls' files together)
# Env: FMM_WEAK_BODIES (1000000), FMM_WEAK_KERNEL (laplace), FMM_WEAK_RANKS ("1 2 4 8"), FMM_MODEL_BODIES (2000).
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
out=${OUT:-gpu-fmm-weak-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
bodies=${FMM_WEAK_BODIES:-1000000}
kernel=${FMM_WEAK_KERNEL:-laplace}
rank_counts=${FMM_WEAK_RANKS:-1 2 4 8}
model_bodies=${FMM_MODEL_BODIES:-2000}
cores=16
py=${LOOM_PYTHON:-python3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0

build_loom() {
  scripts/configure-gpu-build.sh "$build" "$out/configure.log" --if-missing || exit 1
  cmake --build "$build" -j "$(nproc)" --target loom > "$out/build.log" 2>&1 ||
    { grep -E "error|FAILED" "$out/build.log" | head -20; echo "build FAILED"; exit 1; }
  rm -f "$out/configure.log" "$out/build.log"
  git log -1 --format='commit %h %s' | cut -c1-100
}

ranks_run() {  # name, ranks, backend, seconds allowed
  local name=$1 ranks=$2 backend=$3 limit=$4 threads=$(( cores / $2 ))
  echo "=== $name: $ranks ranks x $threads threads, $backend"
  OMP_NUM_THREADS=$threads timeout "$limit" mpiexec --oversubscribe --bind-to none -n "$ranks" -x OMP_NUM_THREADS \
    "$loom" bench fmm --ranks_bodies "$bodies" --ranks_kernel "$kernel" --backend "$backend" --warmup 1 \
    --repeats 2 --json "$out/$name.json" 2>&1 | tail -"$(( ranks + 7 ))"
  echo "rc ${PIPESTATUS[0]}"
}

model_here() {
  for r in $rank_counts; do
    local threads=$(( cores / r ))
    echo "=== model of $r ranks at $bodies bodies per rank, $threads threads"
    OMP_NUM_THREADS=$threads timeout 200 "$loom" bench fmm --model_ranks "$r" --model_kernel "$kernel" \
      --model_bodies_per_rank "$bodies" --model_network nvlink --json "$out/model-here-$r.json" 2>&1 | tail -3
    echo "rc ${PIPESTATUS[0]}"
  done
}

gpu_bs_seconds() {  # the H200's local Biot-Savart FMM at 1.68e7 bodies, from gpu-bs.json
  "$py" - "$out/gpu-bs.json" <<'PY'
import json, sys
try:
    runs = [r for r in json.load(open(sys.argv[1]))["runs"] if r["backend"] == "cuda" and r["n"] == 16777216]
    print(runs[0]["evaluate"])
except Exception:
    print(0)
PY
}

gpu_bs() {
  echo "=== the H200's local Biot-Savart FMM at 1.68e7 bodies"
  timeout 240 "$loom" bench fmm --backend cuda --kernel biot-savart --sizes 16777216 --thetas 0.4 --p 10 \
    --repeats 3 --warmup 1 --samples 0 --json "$out/gpu-bs.json" 2>&1 | tail -3
  echo "rc ${PIPESTATUS[0]}"
}

model_4096() {
  local seconds=${FMM_GPU_SECONDS:-}
  [[ -z $seconds && ! -f $out/gpu-bs.json ]] && gpu_bs
  [[ -z $seconds ]] && seconds=$(gpu_bs_seconds)
  echo "local FMM at 1.68e7 on the H200: ${seconds} s"
  for where in ${FMM_MODEL_REMOTE:-host device}; do
    echo "=== model of 8..4096 GPUs, the received field on the $where"
    OMP_NUM_THREADS=$cores timeout 200 "$loom" bench fmm --model_ranks "${FMM_MODEL_RANKS:-8,64,512,4096}" \
      --model_kernel biot-savart \
      --model_bodies_per_rank "$model_bodies" --model_target_seconds "$seconds" --model_remote "$where" \
      --json "$out/model-4096-$where.json" 2>&1 | grep -v "^ranks" | tail -7
    echo "rc ${PIPESTATUS[0]}"
  done
}

summary() {  # the table of every JSON file in $1
  "$py" - "$1" "$rank_counts" <<'PY'
import json, sys, pathlib
out, counts = pathlib.Path(sys.argv[1]), [int(r) for r in sys.argv[2].split()]
def load(name):
    try:
        return json.loads((out / f"{name}.json").read_text())
    except Exception:
        return None
print(f"{'run':10} {'ranks':>5} {'threads':>7} {'bodies/rank':>11} {'step s':>8} {'E':>7} {'model E':>8}"
      f" {'local s':>8} {'remote s':>8} {'comm s':>7}")
for mode in ("cpu", "gpu"):
    base = load(f"{mode}-{counts[0]}")
    for r in counts:
        j = load(f"{mode}-{r}")
        if not j:
            continue
        t = j["step_median"]
        e = f"{100 * r * base['step_median'] / t:6.1f}%" if base else "      -"
        m = load(f"model-here-{r}") if mode == "cpu" else None
        pred = f"{100 * m['model'][0]['efficiency']:7.1f}%" if m and m.get("model") else "       -"
        worst = max(j["seconds_per_rank"], key=lambda s: s["local"] + s["remote"])
        split = (f"  (kernels {worst['kernels']:.3f}; remote walk {worst.get('remote_walk', 0):.3f} far"
                 f" {worst.get('remote_far', 0):.3f} near {worst.get('remote_near', 0):.3f}; let_build"
                 f" {worst['let_build']:.3f})")
        print(f"{mode:10} {r:>5} {j['threads_per_rank']:>7} {j['bodies_per_rank_generated']:>11} {t:8.3f} {e} {pred}"
              f" {worst['local']:8.3f} {worst['remote']:8.3f} {worst['communication']:7.3f}{split}")
print("E = P T(1) / T(P) at 16/P threads per rank (the host's 16 cores); model E = T_local / T(P) of (2)")
for where in ("host", "device"):
    m = load(f"model-4096-{where}")
    if m:
        if m.get("probe"):
            p = m["probe"]
            print(f"probe (5), {p['bodies']} bodies: local host {p['host_local']:.4f} s device {p['device_local']:.4f} s;"
                  f" remote host {p['host_remote']:.4f} s device {p['device_remote']:.4f} s (walk"
                  f" {p.get('device_walk', 0):.4f}); f = {p['factor']:.3f}")
        cells = "  ".join(f"P={r['ranks']}: {100 * r['target_efficiency']:.1f}%" for r in m["model"])
        print(f"model, 1.68e7 Biot-Savart bodies per GPU, received field on the {where}: {cells} (the paper: 74%)")
PY
}

case $mode in
  build) build_loom ;;
  cpu)
    build_loom
    for r in $rank_counts; do ranks_run "cpu-$r" "$r" cpu 200; done
    summary "$out" ;;
  gpu)
    build_loom
    for r in 1 2; do ranks_run "gpu-$r" "$r" cuda 120; done
    gpu_bs
    summary "$out" ;;
  model-here)
    build_loom
    model_here
    summary "$out" ;;
  model)
    build_loom
    model_4096
    summary "$out" ;;
  received)
    build_loom
    for kernel in laplace biot-savart; do  # the received field on the device against direct sums, 2 ranks sharing it
      echo "=== check: 2 ranks sharing the GPU, $kernel, 2e5 bodies, sampled direct sums"
      OMP_NUM_THREADS=8 timeout 60 mpiexec --oversubscribe --bind-to none -n 2 -x OMP_NUM_THREADS "$loom" fmm \
        --backend cuda --precision double --n 200000 --kernel "$kernel" --samples 200 2>&1 | grep -E "error|Error"
    done
    for r in 1 2; do ranks_run "gpu-$r" "$r" cuda 100; done
    FMM_MODEL_REMOTE=device model_4096
    summary "$out" ;;
  summary) summary "${2:?summary needs the folder of the JSON files}" ;;
  *) echo "usage: $0 build|cpu|gpu|model-here|model|received|summary DIR" >&2; exit 2 ;;
esac
