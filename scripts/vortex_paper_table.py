#!/usr/bin/env python3
"""The table of issue 21's experiment (scripts/gpu-vortex-paper.sh): loom hit against loom vortex from one field.

Usage: vortex_paper_table.py RE:DIR [RE:DIR ...], DIR holding the run directories hit/ and vortex/.
Per Re_lambda: energy, dissipation and skewness of both at several times; the energy budget -dE/dt (a centred
difference of the series) beside the mean of the reported dissipation over the same interval, for each method (a
measured dissipation is right where the two agree); the largest relative difference of energy and dissipation over
the run against the 5% target; the cost per step of each method.
"""
import csv
import json
import math
import os
import sys

TARGET = 0.05


def series(path):
    """t (rounded to 1e-6) -> row of floats, from a series.csv."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {round(float(r["t"]), 6): {k: float(v) for k, v in r.items()} for r in rows}


def budget(s, t0, t1):
    """(-dE/dt over [t0, t1], the mean reported dissipation at t0 and t1)."""
    return (s[t0]["energy"] - s[t1]["energy"]) / (t1 - t0), 0.5 * (s[t0]["dissipation"] + s[t1]["dissipation"])


def beyond(d, run, k_cut):
    """t -> the fraction of a run's dissipation 2 nu sum k^2 E(k) in shells k > k_cut (its spectra.csv)."""
    try:
        with open(os.path.join(d, run, "spectra.csv")) as f:
            rows = [(round(float(r["t"]), 6), float(r["k"]), float(r["E"])) for r in csv.DictReader(f)]
    except (OSError, ValueError, KeyError):
        return {}
    total, high = {}, {}
    for t, k, e in rows:
        total[t] = total.get(t, 0.0) + k * k * e
        high[t] = high.get(t, 0.0) + (k * k * e if k > k_cut else 0.0)
    return {t: high[t] / total[t] for t in total if total[t] > 0}


def spectra(d, run):
    """t -> {k: E(k)} from a run's spectra.csv ({} when missing)."""
    out = {}
    try:
        with open(os.path.join(d, run, "spectra.csv")) as f:
            for r in csv.DictReader(f):
                out.setdefault(round(float(r["t"]), 6), {})[int(round(float(r["k"])))] = float(r["E"])
    except (OSError, ValueError, KeyError):
        return {}
    return out


def spectrum_ratios(d, times):
    """The vortex E(k) over hit's at a few k, at up to three of the times (the small scales' damping)."""
    sh, sv = spectra(d, "hit"), spectra(d, "vortex")
    ks = (5, 10, 20, 30, 40)
    for t in [x for x in times if x in sh and x in sv and x > 0][-3:]:
        parts = [f"k {k} {sv[t][k] / sh[t][k]:.3f}" for k in ks if sh[t].get(k, 0) > 0 and k in sv[t]]
        print(f"  t {t:4.2f} vortex E(k) / hit E(k): " + ", ".join(parts))


def mollified(d, times, sigma):
    """hit's dissipation seen through the particles' Gaussian cores: a particle field's velocity is the field
    convolved with zeta_sigma, whose transform is exp(-k^2 sigma^2 / 2), so E(k) carries exp(-k^2 sigma^2); the
    relative change of 2 nu sum k^2 E(k) this filter makes in hit's own spectra (no vortex data in it)."""
    sh = spectra(d, "hit")
    parts = []
    for t in [x for x in times if x in sh and x > 0]:
        full = sum(k * k * e for k, e in sh[t].items())
        seen = sum(k * k * e * math.exp(-(k * sigma) ** 2) for k, e in sh[t].items())
        parts.append(f"t {t:.2f} {100 * (seen / full - 1):+.2f}%")
    if parts:
        print(f"hit's dissipation through the cores' filter exp(-k^2 sigma^2), sigma = h = {sigma:.4f}: " +
              ", ".join(parts))


def table(re, d):
    try:
        h, v = series(os.path.join(d, "hit", "series.csv")), series(os.path.join(d, "vortex", "series.csv"))
        hj = json.load(open(os.path.join(d, "hit", "summary.json")))
        vj = json.load(open(os.path.join(d, "vortex", "summary.json")))
    except (OSError, ValueError) as e:
        print(f"Re_lambda {re}: no result ({e})")
        return
    times = sorted(set(h) & set(v))
    r0 = h[times[0]]
    print(f"\nRe_lambda {re}: hit's Re_lambda(0) {r0['re_lambda']:.1f}, kmax eta {r0['kmax_eta']:.2f}, "
          f"eddy turnover {r0['eddy_turnover']:.2f}, nu {hj['nu']}; to t = {times[-1]:g}; vortex spreading "
          f"{vj.get('spreading', 'steps')}, reinit every {vj.get('reinit', {}).get('every', '?')}")
    print(f"{'t':>5} {'energy hit':>11} {'vortex':>9} {'diff':>7} {'dissip hit':>11} {'vortex':>9} {'diff':>7} "
          f"{'skew hit':>9} {'vortex':>8} {'Re_l hit':>8} {'vortex':>7}")
    shown = times[:: max(1, len(times) // 8)]
    if shown[-1] != times[-1]:
        shown.append(times[-1])
    for t in shown:
        a, b = h[t], v[t]
        de = b["energy"] / a["energy"] - 1
        dd = b["dissipation"] / a["dissipation"] - 1
        print(f"{t:5.2f} {a['energy']:11.5f} {b['energy']:9.5f} {100 * de:+6.2f}% {a['dissipation']:11.5f} "
              f"{b['dissipation']:9.5f} {100 * dd:+6.2f}% {a['skewness']:9.3f} {b['skewness']:8.3f} "
              f"{a['re_lambda']:8.1f} {b['re_lambda']:7.1f}")
    n = hj["grid"]["n"]
    far_v, far_h = beyond(d, "vortex", n / 3), beyond(d, "hit", n / 3)
    if far_v:
        print(f"share of the dissipation in shells k > {n // 3} (outside the sphere in hit's 2/3 cube; hit keeps only "
              "the cube's corners there), hit / vortex: " +
              ", ".join(f"t {t:.2f} {100 * far_h.get(t, 0):.2f}% / {100 * far_v[t]:.2f}%" for t in shown if t in far_v))
    spectrum_ratios(d, shown)
    lattice = vj["grid"].get("particles_per_direction")
    if lattice:
        mollified(d, shown, 2 * math.pi / lattice)
    print("energy budget, -dE/dt against the mean reported dissipation over each interval:")
    for t0, t1 in list(zip(times, times[1:]))[:: max(1, len(times) // 5)]:
        bh, bv = budget(h, t0, t1), budget(v, t0, t1)
        print(f"  [{t0:4.2f}, {t1:4.2f}] hit {bh[0]:.5f} / {bh[1]:.5f} ({100 * (bh[1] / bh[0] - 1):+.2f}%)   "
              f"vortex {bv[0]:.5f} / {bv[1]:.5f} ({100 * (bv[1] / bv[0] - 1):+.2f}%)")
    worst_e = max(abs(v[t]["energy"] / h[t]["energy"] - 1) for t in times)
    worst_d = max(abs(v[t]["dissipation"] / h[t]["dissipation"] - 1) for t in times)
    for name, w in (("energy", worst_e), ("dissipation", worst_d)):
        print(f"largest relative difference of {name:12} over the run: {100 * w:6.2f}% (target 5%: "
              f"{'met' if w <= TARGET else 'NOT met'})")
    hs, vs = hj["seconds_per_step"], vj["seconds_per_step"]
    split = ", ".join(f"{k} {vs[k]:.3f}" for k in ("tree", "lists", "fmm", "update", "reinit", "statistics")
                      if k in vs)
    if "seconds_per_ab2_step" in vj:
        a = vj["seconds_per_ab2_step"]
        print(f"vortex AB2 step ({a['steps']} of {vj['steps']} steps; issue 21's step, target 1.5 s): "
              f"{a['total']:.3f} s (tree {a['tree']:.3f}, lists {a['lists']:.3f}, fmm {a['fmm']:.3f}, update "
              f"{a['update']:.3f})")
    if "seconds_outside_steps" in vj:
        o = vj["seconds_outside_steps"]
        g = vj["grid"]
        print(f"vortex outside the steps: start {o['start']:.1f} s, last row {o['last_row']:.1f} s, checkpoint "
              f"{o['checkpoint']:.1f} s; statistics on {g.get('statistics_n', g['n'])}^3")
    r = vj.get("reinit", {})
    if r.get("count"):
        print(f"vortex reinitialisations: {r['count']}, {vj['seconds_per_step']['reinit'] * vj['steps'] / r['count']:.2f} "
              f"s each, CG worst {r['cg_worst_iterations']} iterations to {r['cg_worst_residual']:.1e}")
    print(f"cost per step: hit {hs:.4f} s ({hj['grid']['n']}^3), vortex {vs['total']:.3f} s ({vj['particles']} "
          f"particles: {split}); wall: hit {hj['wall_s']:.1f} s, vortex {vj['wall_s']:.1f} s for {vj['steps']} steps")


def main():
    for arg in sys.argv[1:]:
        re, d = arg.split(":", 1)
        table(re, d)


if __name__ == "__main__":
    main()
