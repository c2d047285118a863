"""loom.gpe.run and loom.gpe.Simulation against `loom gpe` on the same input (the series, psi's snapshot), the
run directory readers, and bad input (ValueError with the command's message, nothing written)."""
import numpy as np
import pytest

import loom

# A small, fast problem (as tests/gpe/test_gpe_cli.cpp's): a kappa = 1 vortex on a coarse BCC lattice.
SMALL = {"grid": {"points_per_wavelength": 5}, "physics": {"g": 50}, "initial": {"kappa": 1}, "quiet": True,
         "output": {"plots": False}}
FLAGS = ["--grid.points_per_wavelength", 5, "--physics.g", 50, "--initial.kappa", 1, "--quiet", "--output.plots",
         "false", "--backend", "cpu"]
T_END = 0.2


@pytest.fixture(scope="module")
def runs(tmp_path_factory, loom_cli):
    """The same run from the command line and from Python, each writing psi at t = 0 and t = T_END."""
    tmp = tmp_path_factory.mktemp("gpe")
    loom_cli("gpe", *FLAGS, "--time.t_end", T_END, "--output.fields_every", T_END, "--output.dir", tmp / "cli")
    py = loom.gpe.run(SMALL, {"backend": "cpu", "time.t_end": T_END, "output.fields_every": T_END,
                              "output.dir": str(tmp / "py")})
    return loom.RunDirectory(tmp / "cli"), py


def test_run_equals_the_cli(runs):
    cli, py = runs
    a, b = cli.series(as_frame=False), py.series(as_frame=False)
    assert a.keys() == b.keys() and len(a["t"]) > 2
    for column in a:
        if column != "wall_s":
            np.testing.assert_array_equal(a[column], b[column], err_msg=column)
    for key in ("dof", "dt", "kernel", "grid"):
        if key in cli.summary:
            assert py.summary[key] == cli.summary[key], key


def test_run_directory_readers(runs):
    _, py = runs
    assert f"t_end = {T_END}" in py.input
    files = py.field_files()
    assert [f.name for f in files][-1].startswith("psi_") and len(files) >= 2
    first, last = py.field(0), py.field(-1)
    assert first["time"] == 0 and last["time"] == pytest.approx(T_END, abs=py.summary.get("dt", 1))
    n = len(last["density"])
    assert last["points"].shape == (n, 3)
    np.testing.assert_allclose(last["density"], last["re"] ** 2 + last["im"] ** 2, rtol=1e-12)


def test_simulation_steps_as_the_cli_runs(runs):
    cli, _ = runs
    sim = loom.gpe.Simulation(SMALL, {"backend": "cpu"})
    # The run's last snapshot and series row are at t_end exactly (a shortened last step); the ones before lie on
    # the dt grid that Simulation.step walks.
    snapshot = cli.field(-2)
    start = cli.field(0)
    np.testing.assert_array_equal(sim.positions, start["points"])
    np.testing.assert_array_equal(sim.psi, start["re"] + 1j * start["im"])
    sim.step(int(round(snapshot["time"] / sim.dt)))
    assert sim.t == snapshot["time"]
    np.testing.assert_array_equal(sim.psi, snapshot["re"] + 1j * snapshot["im"])
    # On to the series' last row on the grid: the observables must agree with it.
    series = cli.series(as_frame=False)
    sim.step(int(round((series["t"][-2] - sim.t) / sim.dt)))
    o = sim.observables()
    assert o["t"] == series["t"][-2]
    for key in ("norm", "energy", "mu", "max_abs_psi"):
        assert o[key] == pytest.approx(series[key][-2], rel=1e-12), key


def test_simulation_changes_nothing_outside(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    sim = loom.gpe.Simulation(SMALL, {"backend": "cpu"})
    psi = sim.psi
    psi[:] = 0  # a copy: the simulation's state is untouched
    assert np.abs(sim.psi).max() > 0
    sim.step(2)
    assert sim.steps_done == 2 and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("call", ["run", "step"])
def test_the_gil_is_released_while_it_runs(tmp_path, runs_while, call):
    if call == "run":
        work = lambda: loom.gpe.run(SMALL, {"backend": "cpu", "time.t_end": 1, "output.dir": str(tmp_path / "run")})
    else:
        sim = loom.gpe.Simulation(SMALL, {"backend": "cpu"})
        work = lambda: sim.step(4000)  # 1000 steps took 0.05 s on an idle 2-core box
    seconds, ticks = runs_while(work)
    assert seconds > 0.03, "the call was too short to tell"  # released: ~1 tick per ms; held: none
    assert ticks >= 10


def test_toml_file_and_dict_give_the_same_run(tmp_path):
    (tmp_path / "run.toml").write_text(
        'quiet = true\nbackend = "cpu"\n[grid]\npoints_per_wavelength = 5\n[physics]\ng = 50\n'
        '[initial]\nkappa = 1\n[output]\nplots = false\n[time]\nt_end = 0.05\n')
    a = loom.gpe.run(tmp_path / "run.toml", {"output.dir": str(tmp_path / "a")})
    b = loom.gpe.run({**SMALL, "backend": "cpu", "time": {"t_end": 0.05}, "output": {"plots": False,
                                                                                    "dir": str(tmp_path / "b")}})
    np.testing.assert_array_equal(a.series(as_frame=False)["norm"], b.series(as_frame=False)["norm"])


@pytest.mark.parametrize("flags, message, as_cli", [
    ({"grid.type": "hex"}, 'grid.type = "hex": expected one of cubic, fcc, bcc, a15, c15, z', True),
    ({"time.t_end": "soon"}, "time.t_end", True),
    ({"grid": {"tpye": "bcc"}}, 'unknown parameter "grid.tpye"', False),  # the CLI reports an unknown flag
])
def test_bad_input_raises_value_error_and_writes_nothing(tmp_path, loom_cli, flags, message, as_cli):
    with pytest.raises(ValueError) as e:
        loom.gpe.run({**SMALL, "output.dir": str(tmp_path / "run")}, flags)
    assert message in str(e.value) and "\n" not in str(e.value)
    assert not (tmp_path / "run").exists()
    if as_cli:  # the command says the same for the same input
        key, value = loom._config._flags(flags)[0]
        r = loom_cli("gpe", *FLAGS, f"--{key}", value, "--output.dir", tmp_path / "run", expect=2)
        assert r.stderr.strip() == f"error: {e.value}"
