#!/usr/bin/env python3
"""Compares several `loom gpe` runs (the DEC-GPE paper's Fig. 5 and 6): E(t) and RMSE(t) of every run in one
figure, and the z = 0 cross-sections of |psi|^2 when E(t) first exceeded 0.01 (the split), side by side.
Usage: plot_gpe_compare.py OUT_DIR RUN_DIR [RUN_DIR ...]"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]} if rows else {}


def label_of(run):
    try:
        with open(os.path.join(run, "summary.json")) as f:
            s = json.load(f)
        split = s.get("splitting", {})
        extra = f", {split['dominant_mode']}-fold at t={split['time']:.1f}" if split.get("detected") else ""
        return s.get("grid", os.path.basename(run)).upper() + extra
    except (OSError, ValueError, KeyError):
        return os.path.basename(run)


def main(out, runs):
    os.makedirs(out, exist_ok=True)
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    for run in runs:
        path = os.path.join(run, "series.csv")
        if not os.path.exists(path):
            continue
        s = read_csv(path)
        label = label_of(run)
        a.semilogy(s["t"][1:], [max(e, 1e-17) for e in s["E"][1:]], label=label)
        b.plot(s["t"], s["RMSE"], label=label)
    a.axhline(0.01, color="grey", lw=0.8, ls="--")
    a.set_xlabel("t")
    a.set_ylabel("E(t)")
    a.set_title("(a) E(t) = 1 - |<psi0, psi(t)>|")
    b.set_xlabel("t")
    b.set_ylabel("RMSE(t)")
    b.set_title("(b) RMSE against the exact solution")
    a.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig5_errors.png"), dpi=130)
    plt.close(fig)

    splits = [r for r in runs if os.path.exists(os.path.join(r, "slice_z0_split.csv"))]
    if splits:
        fig, axes = plt.subplots(1, len(splits), figsize=(4.2 * len(splits), 4), squeeze=False)
        for ax, run in zip(axes[0], splits):
            d = read_csv(os.path.join(run, "slice_z0_split.csv"))
            ax.tripcolor(d["x"], d["y"], d["density"], shading="gouraud", cmap="viridis")
            ax.set_aspect("equal")
            ax.set_title(label_of(run), fontsize=9)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "fig6_splitting.png"), dpi=130)
        plt.close(fig)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
