"""The vortex particle method with the FMM (`loom vortex`, the FMM-vortex paper): a vortex ring in free space, or
Taylor-Green, loom hit's random field or a loom hit snapshot in the periodic box [0, 2 pi)^3. A configuration is
a TOML path and/or a dict of keys as for loom.gpe (`loom vortex --help` lists them)."""
from . import _core
from ._config import _input
from .rundir import RunDirectory


def run(config=None, overrides=None):
    """Runs `loom vortex` on `config` to time.t_end and returns its RunDirectory (series.csv, summary.json with
    the ring's speed and the time per step, particle snapshots particles_*.h5 through .field(i), spectra.csv when
    periodic). The GIL is released while it runs; bad input raises loom.UsageError (a ValueError) before anything
    is written."""
    return RunDirectory(_core.vortex._run(*_input(config, overrides)))


class Simulation(_core.vortex._Simulation):
    """The particles of a `loom vortex` run built from the same keys, stepped exactly as the run steps them
    (scheme, dt landing on time.t_end, reinitialisations), with nothing written: step(n), positions, strengths,
    cores (NumPy arrays, copies), invariants(), t, steps_done, finished. Output keys (output.*) are ignored."""

    def __init__(self, config=None, overrides=None):
        super().__init__(*_input(config, overrides))
