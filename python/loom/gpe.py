"""The DEC Gross-Pitaevskii system (`loom gpe`, the DEC-GPE paper): whole runs and a steppable simulation.

A configuration is what `loom gpe` takes (loom._config): a TOML input file's path, a dict of keys (nested
{"grid": {"type": "bcc"}} or dotted {"grid.type": "bcc"}), or both (the dict overrides the file, as flags do).
`loom gpe --help` lists every key.
"""
from . import _core
from ._config import _input
from .rundir import RunDirectory


def run(config=None, overrides=None):
    """Runs `loom gpe` on `config` (a TOML path and/or a dict of keys) to time.t_end and returns its RunDirectory.

    The run writes what the command writes (input.toml, series.csv, summary.json, fields, checkpoints, plots) into
    output.dir (default runs/gpe-<date>-<time>); the returned RunDirectory reads them (.summary, .series(),
    .field(i)). The GIL is released while it runs. Bad input raises loom.UsageError (a ValueError) before anything
    is written.
    """
    return RunDirectory(_core.gpe._run(*_input(config, overrides)))


class Simulation(_core.gpe._Simulation):
    """A GPE run's state, prepared and started exactly as `loom gpe` starts a run (same config keys), that only
    steps and reads: step(n), psi (complex, at the lattice's points `positions`), observables(), t, dt.

    Output keys (output.*) are ignored: nothing is written.
    """

    def __init__(self, config=None, overrides=None):
        super().__init__(*_input(config, overrides))
