#!/usr/bin/env python3
"""Plots of one `loom gpe` run directory: E(t) and RMSE(t) from series.csv (the paper's Fig. 5 for one grid)
and the z = 0 cross-sections of |psi|^2 (Fig. 4 and 6) from the slice_z0_*.csv files.
Usage: plot_gpe.py RUN_DIR"""
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


def main(run):
    summary = {}
    if os.path.exists(os.path.join(run, "summary.json")):
        with open(os.path.join(run, "summary.json")) as f:
            summary = json.load(f)
    label = summary.get("grid", "").upper() or "run"
    s = read_csv(os.path.join(run, "series.csv"))
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    t = s["t"]
    a.semilogy(t[1:], [max(e, 1e-17) for e in s["E"][1:]], label=label)
    a.axhline(0.01, color="grey", lw=0.8, ls="--")
    a.set_xlabel("t")
    a.set_ylabel("E(t) = 1 - |<psi0, psi(t)>|")
    a.legend()
    b.plot(t, s["RMSE"], label=label)
    b.set_xlabel("t")
    b.set_ylabel("RMSE(t)")
    fig.tight_layout()
    fig.savefig(os.path.join(run, "E_t.png"), dpi=120)
    plt.close(fig)
    for name in ("initial", "split", "final"):
        path = os.path.join(run, f"slice_z0_{name}.csv")
        if not os.path.exists(path):
            continue
        d = read_csv(path)
        if not d:
            continue
        fig, ax = plt.subplots(figsize=(5, 4.4))
        sc = ax.tripcolor(d["x"], d["y"], d["density"], shading="gouraud", cmap="viridis")
        fig.colorbar(sc, ax=ax, label="|psi|^2")
        ax.set_aspect("equal")
        ax.set_title(f"{label}, z = 0, {name}")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        fig.tight_layout()
        fig.savefig(os.path.join(run, f"density_z0_{name}.png"), dpi=120)
        plt.close(fig)


if __name__ == "__main__":
    main(sys.argv[1])
