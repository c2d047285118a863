"""loom as a library: the FMM, the DEC lattices, the spectral toolkit and the systems (gpe, hit, bh, vortex) of
the `loom` command over NumPy arrays.

    import numpy as np, loom
    x = np.random.default_rng(1).uniform(-1, 1, (100000, 3)); q = np.ones(len(x))
    phi, grad = loom.fmm.laplace(x, q, p=10, theta=0.4)
    facts = loom.lattice("bcc")
    run = loom.gpe.run({"grid": {"points_per_wavelength": 5}, "time": {"t_end": 0.2}})
    series = run.series()

Every function calls the same C++ the command calls. Bad input raises loom.UsageError (a ValueError) with
loom's one-line message; a failure inside loom raises loom.Error (a RuntimeError).
"""
import sys as _sys

from . import _core
from ._core import Error, UsageError, __version__, backends, git_commit, lattice, lattice_dispersion
from ._core import fmm
from . import bh, gpe, hit, spectral, vortex
from .rundir import RunDirectory

# `import loom.fmm` finds the compiled submodule.
_sys.modules[__name__ + ".fmm"] = fmm

__all__ = ["Error", "UsageError", "RunDirectory", "backends", "bh", "fmm", "gpe", "hit", "lattice", "lattice_dispersion",
           "spectral", "vortex"]
