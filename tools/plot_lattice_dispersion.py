#!/usr/bin/python3
"""Plot of `loom lattice dispersion`: the acoustic eigenvalue of the DEC Laplacian relative to the exact -|k|^2,
over the directions of k, for the chosen grid and the cubic reference, on one colour scale.

Usage: plot_lattice_dispersion.py dispersion.csv dispersion.png
Needs matplotlib (Debian: python3-matplotlib); run with /usr/bin/python3.
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    grids = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            g = grids.setdefault(row["grid"], {"theta": [], "phi": [], "ratio": [], "k": 0.0})
            g["theta"].append(float(row["theta"]))
            g["phi"].append(float(row["phi"]))
            g["ratio"].append(float(row["ratio"]))
            g["k"] = math.sqrt(sum(float(row[c]) ** 2 for c in ("kx", "ky", "kz")))
    return grids


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    grids = read(sys.argv[1])
    names = list(grids)
    lo = min(min(g["ratio"]) for g in grids.values())
    hi = max(max(g["ratio"]) for g in grids.values())
    fig, axes = plt.subplots(1, len(names) + 1, figsize=(5 * len(names) + 5, 4.4), layout="constrained",
                             gridspec_kw={"width_ratios": [1.25] * len(names) + [1]})
    for ax, name in zip(axes, names):
        g = grids[name]
        # Equal-area map of the sphere of directions: longitude phi, cos(theta).
        sc = ax.scatter([math.degrees(p) for p in g["phi"]], [math.cos(t) for t in g["theta"]], c=g["ratio"],
                        vmin=lo, vmax=hi, cmap="viridis", s=18)
        spread = max(g["ratio"]) - min(g["ratio"])
        ax.set_title(f"{name}: anisotropy {spread:.2e}")
        ax.set_xlabel("azimuth of k (degrees)")
        if ax is axes[0]:
            ax.set_ylabel("cos(polar angle of k)")
        ax.set_xlim(-180, 180)
        ax.set_ylim(-1, 1)
    fig.colorbar(sc, ax=axes[:-1], label="eigenvalue / (-|k|^2)  (1 = exact)")
    hist = axes[-1]
    bins = [lo + (hi - lo) * i / 40 for i in range(41)] if hi > lo else 10
    for name in names:
        hist.hist(grids[name]["ratio"], bins=bins, alpha=0.6, label=name)
    hist.set_xlabel("eigenvalue / (-|k|^2)")
    hist.set_ylabel("directions")
    hist.legend()
    hist.set_title("spread over directions")
    fig.suptitle("DEC Laplacian, Bloch dispersion at fixed |k| x mean dual edge")
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
