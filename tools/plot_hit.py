#!/usr/bin/env python3
"""Plots of one `loom hit` run directory: E(t) and epsilon(t) (log-log, with the fitted power law of the decay),
the skewness and Re_lambda(t), and the compensated spectra epsilon^(-2/3) k^(5/3) E(k) against k eta at each
output time (a plateau is the inertial range; Kolmogorov's constant is about 1.5-1.7).
Usage: plot_hit.py RUN_DIR"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]} if rows else {}


def decay_exponent(t, e):
    """Least-squares slope of log E against log t over the second half of the run (E ~ t^-n)."""
    pts = [(math.log(a), math.log(b)) for a, b in zip(t, e) if a > 0 and b > 0]
    pts = pts[len(pts) // 2:]
    if len(pts) < 3:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return -sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx > 0 else None


def plot_series(run, s):
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    t = s["t"]
    a = axes[0]
    a.loglog(t[1:], s["energy"][1:], label="E(t)")
    a.loglog(t[1:], s["dissipation"][1:], label="epsilon(t)")
    n = decay_exponent(t, s["energy"])
    if n is not None:
        a.set_title(f"E ~ t^-{n:.2f} over the second half")
    a.set_xlabel("t")
    a.legend()
    axes[1].plot(t, s["skewness"], label="skewness")
    axes[1].axhline(-0.5, color="grey", lw=0.8, ls="--")
    axes[1].set_xlabel("t")
    axes[1].legend()
    axes[2].plot(t, s["re_lambda"], label="Re_lambda")
    axes[2].plot(t, s["kmax_eta"], label="k_max eta")
    axes[2].set_xlabel("t")
    axes[2].set_yscale("log")
    axes[2].legend()
    fig.tight_layout()
    fig.savefig(os.path.join(run, "energy_dissipation.png"), dpi=120)
    plt.close(fig)


def plot_spectra(run, s, sp):
    eps = dict(zip(s["t"], s["dissipation"]))
    eta = dict(zip(s["t"], s["kolmogorov_scale"]))
    times = sorted(set(sp["t"]))
    step = max(1, len(times) // 8)
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    cmap = plt.get_cmap("viridis")
    for i, ti in enumerate(times[::step]):
        rows = [(k, e) for tt, k, e in zip(sp["t"], sp["k"], sp["E"]) if tt == ti and e > 1e-30]
        if not rows or ti not in eps or eps[ti] <= 0:
            continue
        k = [r[0] for r in rows]
        e = [r[1] for r in rows]
        c = cmap(i / max(1, len(times[::step]) - 1))
        a.loglog(k, e, color=c, label=f"t = {ti:.3g}")
        b.loglog([x * eta[ti] for x in k], [y * x ** (5 / 3) * eps[ti] ** (-2 / 3) for x, y in zip(k, e)], color=c)
    a.set_xlabel("k")
    a.set_ylabel("E(k)")
    a.legend(fontsize=7)
    b.axhline(1.6, color="grey", lw=0.8, ls="--")
    b.set_xlabel("k eta")
    b.set_ylabel("epsilon^(-2/3) k^(5/3) E(k)")
    fig.tight_layout()
    fig.savefig(os.path.join(run, "spectra.png"), dpi=120)
    plt.close(fig)


def main(run):
    s = read_csv(os.path.join(run, "series.csv"))
    if not s:
        return
    plot_series(run, s)
    sp = read_csv(os.path.join(run, "spectra.csv"))
    if sp:
        plot_spectra(run, s, sp)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
