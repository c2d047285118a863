"""A Kerr-Schild black hole evolved by the generalized harmonic system on nested spherical shells (`loom bh`, the
spectral-BH paper). A configuration is a TOML path and/or a dict of keys as for loom.gpe (`loom bh --help` lists
them)."""
from . import _core
from ._config import _input
from .rundir import RunDirectory


def run(config=None, overrides=None):
    """Runs `loom bh` on `config` (a TOML path and/or a dict of keys) to time.t_end and returns its RunDirectory:
    .series() holds the constraint norms and errors per output time, .summary the run's figures, .field(i) the
    shells' fields. The GIL is released while it runs. Bad input raises loom.UsageError (a ValueError) with the
    command's one-line message before anything is written; a run that fails (excision lost, values not finite)
    raises loom.Error."""
    return RunDirectory(_core.bh._run(*_input(config, overrides)))
