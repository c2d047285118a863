#!/usr/bin/python3
"""The FMM on a million points from NumPy: times loom.fmm.laplace by phase and checks a sample of targets against a
direct sum written here.

    PYTHONPATH=build/python examples/python/fmm_million.py [--n 1000000] [--p 10] [--theta 0.4] [--backend auto]
"""
import argparse
import time

import numpy as np

import loom


def direct_potential(x, q, i):
    """phi_i = sum_{j != i} q_j / |x_i - x_j|."""
    d = np.linalg.norm(x - x[i], axis=1)
    d[i] = np.inf
    return np.sum(q / d)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--p", type=int, default=10)
    parser.add_argument("--theta", type=float, default=0.4)
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--samples", type=int, default=100, help="targets checked against the direct sum")
    args = parser.parse_args()

    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, (args.n, 3))
    q = rng.uniform(-1, 1, args.n)
    start = time.perf_counter()
    result = loom.fmm.laplace(x, q, p=args.p, theta=args.theta, backend=args.backend)
    wall = time.perf_counter() - start
    phi, grad = result
    print(f"{args.n} bodies, p = {args.p}, theta = {args.theta}, backends present {loom.backends()}: {wall:.3f} s")
    print("  phases (s): " + ", ".join(f"{k} {v:.4f}" for k, v in result.timings.items()))
    print(f"  tree: {result.statistics}")

    targets = rng.choice(args.n, size=min(args.samples, args.n), replace=False)
    exact = np.array([direct_potential(x, q, i) for i in targets])
    error = np.linalg.norm(phi[targets] - exact) / np.linalg.norm(exact)
    print(f"  relative L2 error of the potential on {len(targets)} targets: {error:.2e}")


if __name__ == "__main__":
    main()
