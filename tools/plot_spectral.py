#!/usr/bin/env python3
"""Plots of `loom bench spectral --json`: the spectral-BH paper's Fig. 4 (DiffJac and SpatialCoordJac: effective
bandwidth against N_x per tensor and backend), Fig. 6 (cubes) and Figs. 7-9 (SingleBH and BBH shells: effective
GFlop/s against points per strategy, dense ("/sep": separable), the CPU on one core and on all).
Usage: plot_spectral.py BENCH.json [OUT_PREFIX]   (writes OUT_PREFIX_jacobian.png, _cube.png, _shells.png)"""
import json
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def label(r):
    where = r["backend"] if r["backend"] == "cuda" else f"cpu x{r['threads']}"
    return f"{where} {r['strategy']}"


def series(rows, key_of, x_of, y_of):
    out = defaultdict(list)
    for r in rows:
        out[key_of(r)].append((x_of(r), y_of(r)))
    return {k: sorted(v) for k, v in out.items()}


def plot_jacobian(rows, prefix):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, op in zip(axes, ["diffjac", "coordjac"]):
        mine = [r for r in rows if r["sweep"] == "jacobian" and r["op"] == op]
        for k, pts in series(mine, lambda r: f"{label(r)} T_{r['tensor']}", lambda r: r["points"],
                             lambda r: r["bytes"] / r["median_s"] / 1e9).items():
            ax.plot(*zip(*pts), marker="o", label=k)
        ax.set(xscale="log", yscale="log", xlabel="N_x", title=op)
    axes[0].set_ylabel("BW_eff (GB/s)")
    axes[1].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(prefix + "_jacobian.png", dpi=150)


def plot_matrices(rows, sweeps, prefix, name):
    fig, axes = plt.subplots(len(sweeps), 3, figsize=(15, 4 * len(sweeps)), squeeze=False)
    for row, sweep in enumerate(sweeps):
        mine = [r for r in rows if r["sweep"] == sweep]
        for col, op in enumerate(["deriv", "filter", "filter_csr"]):
            ax = axes[row][col]
            for k, pts in series([r for r in mine if r["op"] == op], label, lambda r: r["points"],
                                 lambda r: r["flops"] / r["median_s"] / 1e9).items():
                ax.plot(*zip(*pts), marker="o", label=k)
            ax.set(xscale="log", yscale="log", xlabel="points", ylabel="P_eff (GFlop/s)", title=f"{sweep} {op}")
            ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(f"{prefix}_{name}.png", dpi=150)


def main(path, prefix):
    with open(path) as f:
        rows = json.load(f).get("rows", [])
    plot_jacobian(rows, prefix)
    plot_matrices(rows, ["cube"], prefix, "cube")
    plot_matrices(rows, ["singlebh", "bbh"], prefix, "shells")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "spectral")
