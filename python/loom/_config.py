"""A command's configuration from Python: a TOML input file's path, a dict of keys (nested {"grid": {"type": "bcc"}}
or dotted {"grid.type": "bcc"}), or a path and a dict of overrides. Values travel as the command line's flag text,
so the command's registry parses and checks them exactly as it checks `--key value`."""
import numbers
import os

from . import _core


def _text(key, value):
    """A value as its flag text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back to the same double
    if isinstance(value, (numbers.Integral, str)):
        return str(value)
    raise _core.UsageError(f"{key} = {value!r}: expected a bool, a number or a string")


def _flags(config, prefix=""):
    """[(dotted key, flag text)] of a dict, nested or dotted."""
    flags = []
    for key, value in config.items():
        name = prefix + str(key)
        if isinstance(value, dict):
            flags += _flags(value, name + ".")
        else:
            flags.append((name, _text(name, value)))
    return flags


def _input(config, overrides):
    """(TOML path or "", [(key, text)]) for a path, a dict, or a path with a dict of overrides."""
    toml, flags = "", []
    if isinstance(config, (str, os.PathLike)):
        toml = os.fspath(config)
    elif isinstance(config, dict):
        flags = _flags(config)
    elif config is not None:
        raise TypeError("config: expected a TOML file's path or a dict of keys")
    return toml, flags + _flags(overrides or {})
