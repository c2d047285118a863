#!/usr/bin/python3
"""A GPE run from Python, analysed with matplotlib: runs `loom gpe` on a dict of keys (a kappa = 2 vortex on the
BCC lattice), then plots its energy and norm against time from series.csv and the density near z = 0 from the last
HDF5 snapshot, and steps a Simulation of the same input to show psi as a NumPy array.

    PYTHONPATH=build/python examples/python/gpe_analysis.py [--t_end 2] [--out runs/python-gpe]
"""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import loom  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--t_end", type=float, default=2.0)
    parser.add_argument("--out", default="runs/python-gpe")
    args = parser.parse_args()

    config = {"grid": {"type": "bcc", "points_per_wavelength": 8}, "physics": {"g": 100},
              "initial": {"kappa": 2, "perturbation": 0.01}, "quiet": True,
              "time": {"t_end": args.t_end}, "output": {"dir": args.out, "overwrite": True, "plots": False,
                                                        "fields_every": args.t_end / 4}}
    run = loom.gpe.run(config)
    s = run.series(as_frame=False)
    field = run.field(-1)
    print(f"{run.path}: {len(s['t'])} rows, {len(run.field_files())} snapshots, grid {run.summary.get('grid')}")

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    axes[0].plot(s["t"], s["energy"] / s["energy"][0] - 1, label="E(t)/E(0) - 1")
    axes[0].plot(s["t"], s["norm"] / s["norm"][0] - 1, label="N(t)/N(0) - 1")
    axes[0].set_xlabel("t")
    axes[0].legend()
    axes[1].plot(s["t"], s["mode_amplitude"])
    axes[1].set_xlabel("t")
    axes[1].set_ylabel("splitting mode amplitude")
    points, density = field["points"], field["density"]
    spacing = (np.ptp(points, axis=0).prod() / len(points)) ** (1 / 3)  # the mean point spacing
    near = np.abs(points[:, 2]) < 0.6 * spacing
    sc = axes[2].scatter(points[near, 0], points[near, 1], c=density[near], s=4)
    axes[2].set_aspect("equal")
    axes[2].set_title(f"|psi|^2 near z = 0, t = {field['time']:.3g}")
    fig.colorbar(sc, ax=axes[2])
    fig.tight_layout()
    fig.savefig(run.path / "analysis.png", dpi=120)
    print(f"wrote {run.path / 'analysis.png'}")

    sim = loom.gpe.Simulation(config)
    sim.step(10)
    print(f"Simulation: {sim.dof} points on {sim.grid}, kernel {sim.kernel}, t = {sim.t:.4g}, "
          f"max |psi| = {np.abs(sim.psi).max():.4f}, {sim.observables()}")


if __name__ == "__main__":
    main()
