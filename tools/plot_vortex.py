#!/usr/bin/env python3
"""Plots of one `loom vortex` run directory, and with a second directory of `loom hit` the two methods overlaid.
Free space (a ring): the vorticity centroid's height against t with the line of Saffman's speed, and the linear
impulse's drift. Periodic: E(t) and epsilon(t), the skewness, and E(k) at the first and last output times, each
with the loom hit run's values drawn as dashed lines (compare.png).
Usage: plot_vortex.py RUN_DIR [HIT_RUN_DIR]"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]} if rows else {}


def plot_ring(run, s):
    summary = json.load(open(os.path.join(run, "summary.json")))
    t, z = s["t"], s["centroid_z"]
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    a.plot(t, z, label=f"centroid, speed {summary['ring_speed']:.4g}")
    a.plot(t, [z[0] + summary["saffman_speed"] * (x - t[0]) for x in t], "--",
           label=f"Saffman {summary['saffman_speed']:.4g}")
    a.set_xlabel("t")
    a.set_ylabel("z")
    a.legend()
    i0 = (s["impulse_x"][0] ** 2 + s["impulse_y"][0] ** 2 + s["impulse_z"][0] ** 2) ** 0.5
    b.plot(t, [(v - s["impulse_z"][0]) / i0 for v in s["impulse_z"]], label="(I_z - I_z(0)) / |I(0)|")
    b.set_xlabel("t")
    b.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(run, "ring.png"), dpi=120)
    plt.close(fig)


def spectrum_at(sp, t):
    rows = [(k, e) for tt, k, e in zip(sp["t"], sp["k"], sp["E"]) if tt == t and e > 1e-30]
    return [r[0] for r in rows], [r[1] for r in rows]


def plot_turbulence(run, s, sp, hit):
    fig, axes = plt.subplots(1, 3, figsize=(14, 4))
    runs = [("vortex", s, sp, "-")]
    if hit:
        runs.append(("hit", read_csv(os.path.join(hit, "series.csv")), read_csv(os.path.join(hit, "spectra.csv")), "--"))
    for name, series, spectra, style in runs:
        if not series:
            continue
        axes[0].plot(series["t"], series["energy"], style, label=f"E ({name})")
        axes[0].plot(series["t"], series["dissipation"], style, label=f"epsilon ({name})")
        axes[1].plot(series["t"], series["skewness"], style, label=name)
        if spectra:
            times = sorted(set(spectra["t"]))
            for ti in (times[0], times[-1]):
                k, e = spectrum_at(spectra, ti)
                axes[2].loglog(k, e, style, label=f"{name}, t = {ti:.3g}")
    axes[0].set_xlabel("t")
    axes[0].legend(fontsize=8)
    axes[1].set_xlabel("t")
    axes[1].set_ylabel("skewness")
    axes[1].legend(fontsize=8)
    axes[2].set_xlabel("k")
    axes[2].set_ylabel("E(k)")
    axes[2].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(run, "compare.png" if hit else "turbulence.png"), dpi=120)
    plt.close(fig)


def main(run, hit):
    s = read_csv(os.path.join(run, "series.csv"))
    if not s:
        return
    if "centroid_z" in s:
        plot_ring(run, s)
    else:
        plot_turbulence(run, s, read_csv(os.path.join(run, "spectra.csv")), hit)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None)
