#!/usr/bin/env python3
"""Coefficients of the Biot-Savart cutoff's scaled erfc q(rho) = e^{rho^2/2} erfc(rho/sqrt2)
(src/loom/fmm/pair_kernels.hpp, scaled_erfc), in 50-digit arithmetic (mpmath: Debian's python3-mpmath).

  float:  on [1.5, 6.6], the polynomial of degree 12 in v = (rho - 4.05)/2.55 that interpolates q at the 13
          Chebyshev nodes;
  double: on [3, 9.5], the rational P_6(v)/D_6(v), v = rho/9.5, D_6(0) = 1, near-minimax in relative error
          (linearised least squares iterated on the previous denominator, then Lawson's reweighting).

Prints each one's coefficients (v^0 first) and its worst relative error on a fine grid, in exact arithmetic and,
for the double rational, evaluated in double (Python floats, Horner). Usage: tools/fit_scaled_erfc.py"""
import mpmath as mp

mp.mp.dps = 50


def q(rho):
    z = rho / mp.sqrt(2)
    return mp.erfc(z) * mp.exp(z * z)


def horner(c, v):
    r = 0 * v
    for cj in reversed(c):
        r = r * v + cj
    return r


def worst(lo, hi, approx, points=4000):
    return max(abs(approx(lo + (hi - lo) * mp.mpf(i) / points) / q(lo + (hi - lo) * mp.mpf(i) / points) - 1)
               for i in range(points + 1))


def float_polynomial(lo=mp.mpf("1.5"), hi=mp.mpf("6.6"), degree=12):
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    nodes = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / (degree + 1)) for k in range(degree + 1)]
    a = mp.matrix([[v**j for j in range(degree + 1)] for v in nodes])
    c = mp.lu_solve(a, mp.matrix([q(mid + half * v) for v in nodes]))
    c = [c[j] for j in range(degree + 1)]
    err = worst(lo, hi, lambda rho: horner(c, (rho - mid) / half))
    print(f"float: v = (rho - {mp.nstr(mid, 6)}) / {mp.nstr(half, 6)}; worst relative error {mp.nstr(err, 3)}")
    print("  " + ", ".join(f"{float(x):.9g}f" for x in c))


def double_rational(lo=mp.mpf(3), hi=mp.mpf("9.5"), m=6):
    n = 6 * (2 * m + 1)
    vs = [((lo + hi) / 2 + (hi - lo) / 2 * mp.cos(mp.pi * (i + mp.mpf(1) / 2) / n)) / hi for i in range(n)]
    fs = [q(v * hi) for v in vs]
    weight, den = [mp.mpf(1)] * n, [mp.mpf(1)] * n
    for it in range(30):
        rows, rhs = [], []
        for v, f, w, d in zip(vs, fs, weight, den):
            s = mp.sqrt(w) / (f * d)
            rows.append([s * v**j for j in range(m + 1)] + [-s * f * v**j for j in range(1, m + 1)])
            rhs.append(s * f)
        x = mp.qr_solve(mp.matrix(rows), mp.matrix(rhs))[0]
        p, d = [x[j] for j in range(m + 1)], [mp.mpf(1)] + [x[m + j] for j in range(1, m + 1)]
        den = [horner(d, v) for v in vs]
        if it >= 4:
            errors = [horner(p, v) / horner(d, v) / f - 1 for v, f in zip(vs, fs)]
            weight = [w * abs(e) for w, e in zip(weight, errors)]
            weight = [w / sum(weight) for w in weight]
    err = worst(lo, hi, lambda rho: horner(p, rho / hi) / horner(d, rho / hi))
    pf, df = [float(x) for x in p], [float(x) for x in d]
    err_double = worst(lo, hi, lambda rho: mp.mpf(horner(pf, float(rho) / float(hi)) / horner(df, float(rho) / float(hi))))
    print(f"double: v = rho / {mp.nstr(hi, 6)}; worst relative error {mp.nstr(err, 3)} ({mp.nstr(err_double, 3)} in double)")
    print("  P: " + ", ".join(f"{x:.17g}" for x in pf))
    print("  D: " + ", ".join(f"{x:.17g}" for x in df))


if __name__ == "__main__":
    float_polynomial()
    double_rational()
