"""Reading a loom run directory (`loom gpe`, `loom hit`, `loom lattice dispersion`, ...) without knowing its
layout: summary.json as a dict, CSV series as dicts of NumPy arrays (or pandas DataFrames when pandas is present),
HDF5 fields (h5py) as dicts of arrays.
"""
import csv
import json
import pathlib

import numpy as np


class RunDirectory:
    """A run directory: .path, .summary (dict), .input (the effective input.toml's text), .series(), .csv(name),
    .field_files(), .field(i)."""

    def __init__(self, path):
        self.path = pathlib.Path(path)
        if not self.path.is_dir():
            raise FileNotFoundError(f"{self.path}: not a run directory")

    def __repr__(self):
        return f"RunDirectory({str(self.path)!r})"

    def __fspath__(self):
        return str(self.path)

    @property
    def summary(self):
        """summary.json as a dict."""
        with open(self.path / "summary.json") as f:
            return json.load(f)

    @property
    def input(self):
        """The effective input (input.toml's text): loom.gpe.run(run.path / "input.toml") repeats the run."""
        return (self.path / "input.toml").read_text()

    def csv(self, name, as_frame=None):
        """A CSV file of the run (header row, then numbers or words) as a dict of column name -> NumPy array, or a
        pandas DataFrame when `as_frame` is True, or None and pandas is importable."""
        file = self.path / name
        if as_frame is None or as_frame:
            try:
                import pandas
            except ImportError:
                if as_frame:
                    raise
            else:
                return pandas.read_csv(file)
        with open(file, newline="") as f:
            rows = list(csv.reader(f))
        header, body = rows[0], rows[1:]
        return {name: _column([row[i] for row in body]) for i, name in enumerate(header)}

    def series(self, as_frame=None):
        """series.csv (one row per output step: t, norm, energy, ...) as csv() reads it."""
        return self.csv("series.csv", as_frame)

    def field_files(self):
        """The HDF5 field snapshots (psi_0000.h5, ...), in order."""
        return sorted(p for p in self.path.glob("*.h5") if p.name != "checkpoint.h5")

    def field(self, index=-1):
        """One HDF5 snapshot (by position in field_files() or file name) as a dict: "time", "points" (n, 3) or the
        grid's datasets, and each field ("density", "phase", "re", "im", ...). Needs h5py."""
        import h5py

        files = self.field_files()
        file = self.path / index if isinstance(index, str) else files[index]
        with h5py.File(file, "r") as h5:
            out = {"time": float(h5.attrs["time"])} if "time" in h5.attrs else {}
            for name, item in h5.items():
                if isinstance(item, h5py.Dataset):
                    out[name] = item[()]
            for name, item in h5.get("fields", {}).items():
                out[name] = item[()]
        return out


def _column(cells):
    """Numbers as float64, anything else as strings."""
    try:
        return np.array([float(c) for c in cells])
    except ValueError:
        return np.array(cells)
