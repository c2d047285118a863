#!/usr/bin/env python3
"""The Biot-Savart FMM's near-field work against the particles' core radius (issue 21, twelfth session).

M2L is taken only for cells also `guard` (6) core radii apart, so wider cores send more leaf pairs to the P2P. This
evaluates one periodic Biot-Savart sum of n^3 particles on a jittered lattice of the box [-pi, pi)^3 (spacing h,
jitter +-h/4, zero-mean random strengths) at the paper run's settings (p 8, theta 0.6, ncrit 64) for sigma = h,
1.49 h and 1.86 h (the cores at the start, the middle and the end of a reinitialisation interval of the 128^3
Re_lambda 50 run with the spreading at every step) and prints the P2P interactions, pairs and times.
Usage: PYTHONPATH=build/python OMP_NUM_THREADS=2 tools/fmm_guard_pairs.py [n (32)] [backend (cpu)]
"""
import sys
import time

import numpy as np

import loom


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 32
    backend = sys.argv[2] if len(sys.argv) > 2 else "cpu"
    period = 2 * np.pi
    h = period / n
    g = np.arange(n) * h
    grid = np.stack([c.ravel() for c in np.meshgrid(g, g, g, indexing="ij")], 1)
    rng = np.random.default_rng(1)
    x = (grid + rng.uniform(-0.25, 0.25, grid.shape) * h) % period - period / 2
    alpha = rng.uniform(-1, 1, grid.shape) * h**3
    alpha -= alpha.mean(0)
    base = None
    for s in (1.0, 1.49, 1.86):
        start = time.time()
        r = loom.fmm.biot_savart(x, alpha, s * h, p=8, theta=0.6, backend=backend, periodic=period, ncrit=64)
        st = r.statistics
        base = base or st["p2p_interactions"]
        print(f"sigma {s:.2f} h: P2P interactions {st['p2p_interactions']:.3e} ({st['p2p_interactions'] / base:.2f}x), "
              f"P2P pairs {st['p2p_pairs']}, M2L pairs {st['m2l_pairs']}, p2p {r.timings['p2p']:.2f} s, "
              f"wall {time.time() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
