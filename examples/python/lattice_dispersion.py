#!/usr/bin/python3
"""The six DEC grids' dispersion from Python: for each grid the ratio of the Laplacian's acoustic eigenvalue to the
exact -|k|^2 against |k| times the mean dual edge (mean, min and max over directions), and the anisotropy.

    PYTHONPATH=build/python examples/python/lattice_dispersion.py [--out dispersion.png] [--directions 200]
"""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import loom  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="dispersion.png")
    parser.add_argument("--directions", type=int, default=200)
    args = parser.parse_args()

    k_edges = np.linspace(0.1, 1.5, 15)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for grid in ["cubic", "fcc", "bcc", "a15", "c15", "z"]:
        reports = [loom.lattice_dispersion(grid, k_edge=k, directions=args.directions) for k in k_edges]
        mean = np.array([r["ratio_mean"] for r in reports])
        low = np.array([r["ratio_min"] for r in reports])
        high = np.array([r["ratio_max"] for r in reports])
        (line,) = left.plot(k_edges, mean, label=grid)
        left.fill_between(k_edges, low, high, color=line.get_color(), alpha=0.2)
        right.semilogy(k_edges, high - low, label=grid)
        print(f"{grid:>5}: anisotropy at k h = 0.5: {reports[4]['anisotropy']:.3e}")
    left.set_xlabel("|k| x mean dual edge")
    left.set_ylabel("eigenvalue / (-|k|^2)")
    left.legend()
    right.set_xlabel("|k| x mean dual edge")
    right.set_ylabel("anisotropy (max - min over directions)")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
