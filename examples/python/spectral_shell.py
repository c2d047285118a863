#!/usr/bin/python3
"""The spectral toolkit from Python on a spherical shell I1 x S2 (the spectral-BH paper's topology): the Cartesian
gradient of u = x y e^z converging exponentially with the number of points, timed per backend, and the angular
power per degree l of a noisy field before and after the Y_lm Heaviside filter.

    PYTHONPATH=build/python examples/python/spectral_shell.py [--out spectral_shell.png] [--backend auto]
"""
import argparse
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import loom  # noqa: E402
from loom import spectral  # noqa: E402


def gradient_errors(backend, sizes):
    """Max relative error of the Cartesian gradient of x y e^z against (y e^z, x e^z, x y e^z), and seconds."""
    errors, seconds = [], []
    for n in sizes:
        shell = spectral.Shell(n, n, radii=(1, 2))
        x, y, z = shell.points
        u = x * y * np.exp(z)
        exact = np.array([y * np.exp(z), x * np.exp(z), u])
        shell.gradient(u, backend=backend)  # traces and caches the operators
        start = time.perf_counter()
        g = shell.gradient(u, backend=backend)
        seconds.append(time.perf_counter() - start)
        errors.append(np.abs(g - exact).max() / np.abs(exact).max())
        print(f"n_r = n_theta = {n:2d}: {shell.size:6d} points, error {errors[-1]:.2e}, {seconds[-1] * 1e3:.2f} ms")
    return errors


def power_per_degree(shell, u):
    """sum_m c_lm^2 per l at the outer radius (the Y_lm coefficients of the angular PhysToSpec)."""
    c = shell.to_spectral(u)[:, -1]
    l_max = shell.extents[1] - 1
    return np.array([sum(c[spectral.Sphere.index(l, m)] ** 2 for m in range(-l, l + 1)) for l in range(l_max + 1)])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="spectral_shell.png")
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    args = parser.parse_args()
    print(f"backends present: {loom.backends()}")

    sizes = list(range(6, 21, 2))
    errors = gradient_errors(args.backend, sizes)

    shell = spectral.Shell(12, 16, radii=(1, 2))
    x, y, z = shell.points
    noisy = x * y * np.exp(z) + 1e-3 * np.random.default_rng(2).standard_normal(shell.size)
    filtered = shell.filter(noisy, alpha=36, order=8, l_keep=8, backend=args.backend)
    before, after = power_per_degree(shell, noisy), power_per_degree(shell, filtered)

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.semilogy(sizes, errors, "o-")
    left.set_xlabel("n_r = n_theta (n_phi = 2 n_theta)")
    left.set_ylabel("max relative error of grad(x y e^z)")
    left.set_title("Cartesian gradient on the shell 1 <= r <= 2")
    right.semilogy(before, "o-", label="noisy field")
    right.semilogy(np.maximum(after, 1e-32), "s-", label="filtered, l_keep = 8")
    right.set_xlabel("degree l")
    right.set_ylabel("angular power at r = 2")
    right.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
