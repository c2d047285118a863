#!/usr/bin/env python3
"""Plot of one `loom bh` run directory: the constraint norms (gauge C_a, three-index C_iab, normalised) and the
errors of psi, Pi, Phi against the Kerr-Schild solution, against time (log scale).
Usage: plot_bh.py RUN_DIR"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def positive(t, v):
    """The points with v > 0 (the exact initial data has zero error, which a log axis cannot show)."""
    pts = [(a, b) for a, b in zip(t, v) if b > 0]
    return [p[0] for p in pts], [p[1] for p in pts]


def main():
    run = sys.argv[1]
    with open(os.path.join(run, "series.csv")) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return
    s = {k: [float(r[k]) for r in rows] for k in rows[0]}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for key, label in (("gauge_constraint", "|C_a|"), ("three_index_constraint", "|C_iab|"),
                       ("normalized_constraint", "normalised")):
        axes[0].semilogy(*positive(s["t"], s[key]), label=label)
    axes[0].set_title("constraint norms")
    for key, label in (("psi_error", "psi"), ("pi_error", "Pi"), ("phi_error", "Phi")):
        axes[1].semilogy(*positive(s["t"], s[key]), label=label)
    axes[1].set_title("error against Kerr-Schild")
    for a in axes:
        a.set_xlabel("t / m")
        a.legend()
        a.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(run, "constraints.png"), dpi=120)


if __name__ == "__main__":
    main()
