"""Isotropic turbulence (`loom hit`): pseudo-spectral Navier-Stokes in [0, 2 pi)^3 (the FMM-vortex paper's
reference). A configuration is a TOML path and/or a dict of keys as for loom.gpe (`loom hit --help` lists them)."""
from . import _core
from ._config import _input
from .rundir import RunDirectory


def run(config=None, overrides=None):
    """Runs `loom hit` on `config` and returns its RunDirectory (series.csv, spectra.csv via .csv("spectra.csv"),
    fields, summary). The GIL is released while it runs; bad input raises loom.UsageError before anything is
    written."""
    return RunDirectory(_core.hit._run(*_input(config, overrides)))
