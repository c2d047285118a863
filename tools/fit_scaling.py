#!/usr/bin/env python3
"""Fits the scaling laws of the DEC-GPE paper's Fig. 9 to `loom bench gpe` results (mpiexec -n N loom bench gpe
--json FILE): Amdahl's law S_t(N) = 1 / ((1 - p_t) + p_t / N) (eq. 16) to the strong-scaling speedups T_1 / T_N, and
Gustafson's law S_w(N) = 1 - p_w + N p_w (eq. 17) to the weak-scaling speedups (W_N / T_N) / (W_1 / T_1), both by
least squares in S. Prints p_t, the limit 1 / (1 - p_t) and p_w per file, and plots measured and fitted speedups
(matplotlib, when present). Plain Python otherwise: no numpy needed (the GPU machine's image has none).
Usage: fit_scaling.py RESULTS.json [MORE.json ...] [--plot fig9.png] [--json fits.json]"""
import argparse
import json
import math
import sys


def amdahl(n, p):
    return 1.0 / ((1.0 - p) + p / n)


def gustafson(n, p):
    return 1.0 - p + n * p


def fit_amdahl(n, s):
    """p in [0, 1] minimising sum (S_i - S_t(N_i; p))^2: golden-section search (the residual is unimodal in p
    for speedups measured from one rank)."""
    def cost(p):
        return sum((si - amdahl(ni, p)) ** 2 for ni, si in zip(n, s))

    lo, hi = 0.0, 1.0
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    for _ in range(200):
        if cost(a) < cost(b):
            hi = b
        else:
            lo = a
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    return 0.5 * (lo + hi)


def fit_gustafson(n, s):
    """Linear least squares of S - 1 = p (N - 1)."""
    xx = sum((ni - 1.0) ** 2 for ni in n)
    xy = sum((ni - 1.0) * (si - 1.0) for ni, si in zip(n, s))
    return xy / xx if xx > 0 else 0.0


def speedups(points):
    n = [float(p["ranks"]) for p in points]
    s = [float(p["speedup"]) for p in points]
    return n, s


def label_of(results, path):
    where = (results.get("device") if results.get("backend") == "cuda" else "CPU") or results.get("backend")
    return f"{results.get('grid', '?').upper()} {results.get('kernel', '')} on {where} ({path})"


def analyse(path):
    with open(path) as f:
        results = json.load(f)
    out = {"file": path, "label": label_of(results, path)}
    if "strong" in results and len(results["strong"]["points"]) > 1:
        n, s = speedups(results["strong"]["points"])
        p = fit_amdahl(n, s)
        out["strong"] = {"ranks": n, "speedup": s, "p_t": p,
                         # p_t = 1 (speedups at or past linear): no Amdahl limit; null keeps the file JSON
                         "max_speedup": (1.0 / (1.0 - p)) if p < 1 else None,
                         "structures": results["strong"]["points"][0]["structures"]}
    if "weak" in results and len(results["weak"]["points"]) > 1:
        n, s = speedups(results["weak"]["points"])
        out["weak"] = {"ranks": n, "speedup": s, "p_w": fit_gustafson(n, s),
                       "growth": results["weak"].get("growth", "?")}
    if "strong" not in out and "weak" not in out:
        sys.exit(f"{path}: no strong or weak scaling with more than one rank count (run loom bench gpe under mpiexec)")
    return out


def report(fits):
    for f in fits:
        print(f["label"])
        if "strong" in f:
            st = f["strong"]
            print(f"  strong ({'x'.join(map(str, st['structures']))} structures): p_t = {st['p_t']:.4f}, "
                  f"Amdahl's limit 1/(1 - p_t) = " +
                  (f"{st['max_speedup']:.1f}" if st["max_speedup"] is not None else "none (p_t = 1)"))
            for n, s in zip(st["ranks"], st["speedup"]):
                print(f"    N = {int(n):3d}: S = {s:7.3f}  (fit {amdahl(n, st['p_t']):7.3f})")
        if "weak" in f:
            wk = f["weak"]
            print(f"  weak (growth {wk['growth']}): p_w = {wk['p_w']:.4f}")
            for n, s in zip(wk["ranks"], wk["speedup"]):
                print(f"    N = {int(n):3d}: S = {s:7.3f}  (fit {gustafson(n, wk['p_w']):7.3f})")


def plot(fits, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        print("matplotlib not found: no plot", file=sys.stderr)
        return
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    top = 1
    for k, f in enumerate(fits):
        colour = f"C{k}"
        for axis, key, law, name in ((a, "strong", amdahl, "p_t"), (b, "weak", gustafson, "p_w")):
            if key not in f:
                continue
            n, s, p = f[key]["ranks"], f[key]["speedup"], f[key][name]
            top = max(top, max(n))
            grid = [1 + (max(n) - 1) * k / 199 for k in range(200)]
            axis.plot(n, s, "o", color=colour, label=f"{f['label']}")
            axis.plot(grid, [law(g, p) for g in grid], "-", color=colour, label=f"fit, ${name[0]}_{name[2]}$ = {p:.2f}")
    for axis, title in ((a, "(a) strong scaling, Amdahl's law (eq. 16)"),
                        (b, "(b) weak scaling, Gustafson's law (eq. 17)")):
        axis.plot([1, top], [1, top], ":", color="grey", label="ideal")
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.set_xlabel("ranks (GPUs) N")
        axis.set_ylabel("speedup")
        axis.set_title(title, fontsize=10)
        axis.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=150)
    print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", help="JSON files of `loom bench gpe --json` under mpiexec")
    parser.add_argument("--plot", help="PNG file for the Fig. 9-style plot")
    parser.add_argument("--json", help="write the fits to this JSON file")
    args = parser.parse_args()
    fits = [analyse(p) for p in args.results]
    report(fits)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(fits, f, indent=2, allow_nan=False)
    if args.plot:
        plot(fits, args.plot)


if __name__ == "__main__":
    main()
