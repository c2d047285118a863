#!/usr/bin/env python3
"""Plots of `loom bench bh --json`: the spectral-BH paper's Fig. 3 (one pie per backend: the share of a GH step
spent in Jacobian, Deriv, Filter, GHEqns, ApplyBCs and Other, with ms per step) and Figs. 10-11 (the GPU's
speedup per module over each CPU profile, as bars; only when the JSON holds a cuda profile).
Usage: plot_bench_bh.py BENCH.json [OUT_PREFIX]   (writes OUT_PREFIX_pies.png and OUT_PREFIX_speedup.png;
OUT_PREFIX defaults to BENCH without .json)"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODULES = ["Jacobian", "Deriv", "Filter", "GHEqns", "ApplyBCs", "Other"]


def pies(profiles, path):
    fig, axes = plt.subplots(1, len(profiles), figsize=(4.2 * len(profiles), 4.2), squeeze=False)
    for ax, p in zip(axes[0], profiles):
        ms = [1e3 * max(p["modules_s_per_step"][m], 0.0) for m in MODULES]
        labels = [f"{m}\n{v:.3g} ms" for m, v in zip(MODULES, ms)]
        ax.pie(ms, labels=labels, autopct="%1.0f%%", startangle=90, counterclock=False,
               textprops={"fontsize": 8})
        ax.set_title(f"{p['label']}: {1e3 * p['step_s']:.3g} ms per step")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def speedups(profiles, path):
    gpu = [p for p in profiles if p["backend"] == "cuda"]
    cpus = [p for p in profiles if p["backend"] != "cuda"]
    if not gpu or not cpus:
        return False
    g = gpu[0]
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / len(cpus)
    names = MODULES + ["step"]
    for k, c in enumerate(cpus):
        values = []
        for m in names:
            cs = c["step_s"] if m == "step" else c["modules_s_per_step"][m]
            gs = g["step_s"] if m == "step" else g["modules_s_per_step"][m]
            values.append(cs / gs if gs > 0 else 0.0)
        xs = [i + (k - (len(cpus) - 1) / 2) * width for i in range(len(names))]
        ax.bar(xs, values, width, label=f"cuda over {c['label']}")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_yscale("log")
    ax.set_ylabel("speedup")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def main():
    src = sys.argv[1]
    prefix = sys.argv[2] if len(sys.argv) > 2 else os.path.splitext(src)[0]
    with open(src) as f:
        profiles = json.load(f)["profiles"]
    pies(profiles, prefix + "_pies.png")
    wrote = [prefix + "_pies.png"]
    if speedups(profiles, prefix + "_speedup.png"):
        wrote.append(prefix + "_speedup.png")
    print("wrote " + ", ".join(wrote))


if __name__ == "__main__":
    main()
