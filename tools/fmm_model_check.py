#!/usr/bin/env python3
"""The model of many ranks (src/loom/fmm/parallel/model.hpp) against real runs, term by term (issue 22).

Reads the JSONs of `scripts/gpu-fmm6.sh check` (or any runs alike): ranks-P.json from `mpiexec -n P loom bench
fmm --ranks_bodies M --json` (P = 1 first) and model-P.json from `loom bench fmm --model_ranks P
--model_bodies_per_rank M --json` at the same load and threads. For each P > 1 prints the model's terms next to
the real ranks' (the critical rank's: the one whose own work adds up to the most): local FMM, LET selection (the real: let_build,
the writer's let_write beside it), received field, communication, step; then the efficiencies: the model's E (2)
= T_local(one rank alone) / T(P); the real runs' like-with-like local / step of the slowest rank; and the weak
scaling P T(1) / T(P) with the host's cores fixed (16/P threads per rank), which the model is not about.

Usage: tools/fmm_model_check.py DIR [cpu|gpu]   (DIR holds cpu-1.json, cpu-2.json, model-2.json, ...)"""
import json
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def real_terms(j):
    """The terms of the critical rank (the one whose own work adds up to the most: it sets the step); the other
    ranks' waiting in `communication` (for the critical rank's messages) is the step's imbalance, not the
    network's."""
    ranks = j["seconds_per_rank"]
    own = ("tree", "let_build", "let_wait", "local", "remote", "cost")
    r = max(ranks, key=lambda q: sum(q.get(k, 0.0) for k in own))
    return {
        "local": r["local"],
        "select": r["let_build"] + r.get("let_wait", 0.0),
        "write": r.get("let_write", 0.0),
        "remote": r["remote"],
        "comm": r["communication"],
        "tree": r["tree"],
        "cost": r["cost"],
        "step": j["step_median"],
        "others_wait": max(q["communication"] for q in ranks),
        "local_spread": max(q["local"] for q in ranks) / min(q["local"] for q in ranks),
    }


def model_terms(j, ranks):
    run = next(r for r in j["model"] if r["ranks"] == ranks)
    return {
        "local": run["local"],
        "select": run["select"],
        "remote": run["remote"],
        "comm": run["communication"],
        "step": run["step"],
        "E": run["efficiency"],
        "one_rank": run["efficiency"] * run["step"],
    }


def main():
    folder = sys.argv[1]
    prefix = sys.argv[2] if len(sys.argv) > 2 else "cpu"
    one = load(os.path.join(folder, f"{prefix}-1.json"))
    t1 = one["step_median"]
    print(f"one rank: step {t1:.4f} s, local {real_terms(one)['local']:.4f} s")
    print("P  term      model     real   model/real")
    for p in (2, 3, 4, 8):
        real_path, model_path = (os.path.join(folder, f"{n}-{p}.json") for n in (prefix, "model"))
        if not (os.path.exists(real_path) and os.path.exists(model_path)):
            continue
        real, model = real_terms(load(real_path)), model_terms(load(model_path), p)
        for term in ("local", "select", "remote", "comm", "step"):
            ratio = model[term] / real[term] if real[term] > 0 else float("nan")
            print(f"{p}  {term:<8} {model[term]:8.4f} {real[term]:8.4f}   {ratio:6.2f}")
        print(f"{p}  (real: tree {real['tree']:.4f} s, cost {real['cost']:.4f} s, writer {real['write']:.4f} s "
              f"beside; the other ranks wait up to {real['others_wait']:.4f} s; local slowest / fastest "
              f"{real['local_spread']:.3f})")
        like = real["local"] / real["step"]
        weak = p * t1 / real["step"]
        print(f"{p}  E: model {100 * model['E']:.1f}%, real local/step {100 * like:.1f}%, "
              f"real P T(1)/T(P) {100 * weak:.1f}%; model one-rank local {model['one_rank']:.4f} s vs real "
              f"T(1) {t1:.4f} s")


if __name__ == "__main__":
    main()
