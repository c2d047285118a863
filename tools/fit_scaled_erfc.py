#!/usr/bin/env python3
"""Coefficients of the float Biot-Savart cutoff's scaled erfc (src/loom/fmm/pair_kernels.hpp, scaled_erfc):
Q(rho) = e^{rho^2/2} erfc(rho/sqrt2) on [1.5, 6.6] (float's series_below to singular_above) as a polynomial of
degree 12 in v = (rho - 4.05)/2.55, interpolating Q at the 13 Chebyshev nodes, in 40-digit arithmetic (mpmath,
Debian's python3-mpmath). Prints the coefficients (v^0 first) rounded to float and the interpolant's worst relative
error on a fine grid. Usage: tools/fit_scaled_erfc.py"""
import mpmath as mp

mp.mp.dps = 40
LO, HI, DEGREE = mp.mpf("1.5"), mp.mpf("6.6"), 12


def q(rho):
    z = rho / mp.sqrt(2)
    return mp.erfc(z) * mp.exp(z * z)


def main():
    mid, half = (LO + HI) / 2, (HI - LO) / 2
    nodes = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / (DEGREE + 1)) for k in range(DEGREE + 1)]
    a = mp.matrix([[v**j for j in range(DEGREE + 1)] for v in nodes])
    c = mp.lu_solve(a, mp.matrix([q(mid + half * v) for v in nodes]))
    worst = 0
    for i in range(3001):
        rho = LO + (HI - LO) * mp.mpf(i) / 3000
        v, p = (rho - mid) / half, 0
        for j in reversed(range(DEGREE + 1)):
            p = p * v + c[j]
        worst = max(worst, abs(p / q(rho) - 1))
    print(f"v = (rho - {mp.nstr(mid, 6)}) / {mp.nstr(half, 6)}; worst relative error {mp.nstr(worst, 3)}")
    print(", ".join(f"{float(c[j]):.9g}f" for j in range(DEGREE + 1)))


if __name__ == "__main__":
    main()
