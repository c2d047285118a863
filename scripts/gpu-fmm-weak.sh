#!/usr/bin/env bash
# Issue 22's targets on the H200's 16-core host, in one command from the repo root:
#   scripts/gpu-fmm-weak.sh            (FMM_WEAK_BODIES=1000000 FMM_WEAK_KERNEL=laplace FMM_WEAK_RANKS="1 2 4")
# 1. Weak scaling of the FMM over MPI ranks on the CPU at 10^6 bodies per rank on 1, 2, 4 ranks, two ways:
#    fixed: every rank 16/4 = 4 threads whatever the rank count (resources per rank fixed; E = T(1) / T(P));
#    whole: 16/P threads per rank (the host's 16 cores always; E = P T(1) / T(P), the throughput's share).
# 2. The same on the GPU with the ranks sharing it (the local FMM on the device, the received field on the host,
#    16/P threads per rank; E = P T(1) / T(P)).
# 3. The model (loom bench fmm --model_ranks) at the same P and load with 4 threads, next to the fixed runs.
# 4. The model for 1.68e7 Biot-Savart bodies per GPU at 8..4096 ranks, fed with this host's measured rates: the
#    H200's local FMM at 1.68e7 bodies (measured here), with the received field and LET selection either on the
#    host's CPU (as today) or sped up like the local FMM (when it runs on the device).
# Builds build-gpu (CUDA) when needed. Files in $OUT (or ./gpu-fmm-weak-out): one JSON and one log per run; the
# short table is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-fmm-weak-out}
mkdir -p "$out"
build=${BUILD_DIR:-build-gpu}
loom="$build/bin/loom"
bodies=${FMM_WEAK_BODIES:-1000000}
kernel=${FMM_WEAK_KERNEL:-laplace}
rank_counts=${FMM_WEAK_RANKS:-1 2 4}
model_bodies=${FMM_MODEL_BODIES:-2000}
cores=16
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
scripts/configure-gpu-build.sh "$build" "$out/configure.log" --if-missing || exit 1
cmake --build "$build" -j "$(nproc)" --target loom > "$out/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$out/build.log" | head -20; echo "build FAILED"; exit 1; }
git log -1 --format='commit %h %s' | cut -c1-100

ranks_run() {  # name, ranks, threads per rank, backend
  local name=$1 ranks=$2 threads=$3 backend=$4
  echo "=== $name: $ranks ranks x $threads threads, $backend"
  OMP_NUM_THREADS=$threads timeout 580 mpiexec --oversubscribe --bind-to none -n "$ranks" -x OMP_NUM_THREADS \
    "$loom" bench fmm --ranks_bodies "$bodies" --ranks_kernel "$kernel" --backend "$backend" --warmup 1 \
    --repeats 3 --json "$out/$name.json" > "$out/$name.txt" 2>&1
  echo "rc $?"; tail -8 "$out/$name.txt"
}
max_ranks=$(for r in $rank_counts; do echo "$r"; done | sort -n | tail -1)
fixed_threads=$(( cores / max_ranks ))
for r in $rank_counts; do
  ranks_run "cpu-fixed-$r" "$r" "$fixed_threads" cpu
  ranks_run "cpu-whole-$r" "$r" $(( cores / r )) cpu
  ranks_run "gpu-shared-$r" "$r" $(( cores / r )) cuda
done

echo "=== model at the measured ranks ($fixed_threads threads, as the fixed runs)"
model_list=$(echo $rank_counts | tr ' ' ',')
OMP_NUM_THREADS=$fixed_threads timeout 580 "$loom" bench fmm --model_ranks "$model_list" --model_kernel "$kernel" \
  --model_bodies_per_rank "$bodies" --model_network nvlink --json "$out/model-here.json" > "$out/model-here.txt" 2>&1
echo "rc $?"; tail -5 "$out/model-here.txt"

echo "=== the H200's local Biot-Savart FMM at 1.68e7 bodies"
timeout 580 "$loom" bench fmm --backend cuda --kernel biot-savart --sizes 16777216 --thetas 0.4 --p 10 \
  --repeats 3 --warmup 1 --samples 0 --json "$out/gpu-bs.json" > "$out/gpu-bs.txt" 2>&1
echo "rc $?"
gpu_seconds=$("${LOOM_PYTHON:-python3}" - "$out/gpu-bs.json" <<'PY'
import json, sys
try:
    runs = [r for r in json.load(open(sys.argv[1]))["runs"] if r["backend"] == "cuda" and r["n"] == 16777216]
    print(runs[0]["evaluate"])
except Exception:
    print(0)
PY
)
echo "local FMM at 1.68e7 on the H200: ${gpu_seconds} s"
for where in host device; do
  echo "=== model of 8..4096 GPUs, the received field on the $where"
  OMP_NUM_THREADS=$cores timeout 580 "$loom" bench fmm --model_ranks 8,64,512,4096 --model_kernel biot-savart \
    --model_bodies_per_rank "$model_bodies" --model_target_seconds "$gpu_seconds" --model_remote "$where" \
    --json "$out/model-4096-$where.json" > "$out/model-4096-$where.txt" 2>&1
  echo "rc $?"; tail -3 "$out/model-4096-$where.txt"
done

echo "=== summary"
"${LOOM_PYTHON:-python3}" - "$out" "$rank_counts" <<'PY'
import json, sys, pathlib
out, counts = pathlib.Path(sys.argv[1]), [int(r) for r in sys.argv[2].split()]
def load(name):
    p = out / f"{name}.json"
    try:
        return json.loads(p.read_text())
    except Exception:
        return None
model = {m["ranks"]: m for m in (load("model-here") or {}).get("model", [])}
print(f"{'run':12} {'ranks':>5} {'threads':>7} {'bodies/rank':>11} {'step s':>8} {'efficiency':>10} {'model':>7}"
      f" {'comm s':>7} {'remote s':>8}")
for mode in ("cpu-fixed", "cpu-whole", "gpu-shared"):
    base = load(f"{mode}-{counts[0]}")
    for r in counts:
        j = load(f"{mode}-{r}")
        if not j or not base:
            print(f"{mode:12} {r:>5}  (no result)")
            continue
        t1, t = base["step_median"], j["step_median"]
        e = t1 / t if mode == "cpu-fixed" else r * t1 / t
        pred = f"{100 * model[r]['efficiency']:6.1f}%" if mode == "cpu-fixed" and r in model else "      -"
        worst = max(j["seconds_per_rank"], key=lambda s: s["communication"] + s["remote"])
        print(f"{mode:12} {r:>5} {j['threads_per_rank']:>7} {j['bodies_per_rank_generated']:>11} {t:8.3f}"
              f" {100 * e:9.1f}% {pred} {worst['communication']:7.3f} {worst['remote']:8.3f}")
for where in ("host", "device"):
    m = load(f"model-4096-{where}")
    if not m:
        print(f"model 4096 ({where}): no result")
        continue
    cells = "  ".join(f"P={r['ranks']}: {100 * r['target_efficiency']:.1f}%" for r in m["model"])
    print(f"model, 1.68e7 Biot-Savart bodies per GPU, received field on the {where}: {cells} (the paper: 74% at 4096)")
PY
