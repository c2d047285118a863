"""loom.hit.run against `loom hit` on the same input, Taylor-Green's analytic energy, and bad input."""
import numpy as np
import pytest

import loom

CONFIG = {"grid": {"n": 16}, "initial": {"type": "random", "seed": 5}, "physics": {"nu": 0.01},
          "time": {"dt": 0.02, "t_end": 0.1}, "output": {"fields": False, "plots": False}, "quiet": True,
          "backend": "cpu"}


def test_run_equals_the_cli(tmp_path, loom_cli):
    flags = [f"--{k}={v}" for k, v in loom._config._flags(CONFIG)]
    loom_cli("hit", *flags, "--output.dir", tmp_path / "cli")
    py = loom.hit.run(CONFIG, {"output.dir": str(tmp_path / "py")})
    cli = loom.RunDirectory(tmp_path / "cli")
    a, b = cli.series(as_frame=False), py.series(as_frame=False)
    assert a.keys() == b.keys() and len(a["t"]) >= 2
    for column in a:
        if "wall" not in column and "seconds" not in column:
            np.testing.assert_array_equal(a[column], b[column], err_msg=column)
    spectra = py.csv("spectra.csv", as_frame=False)
    np.testing.assert_array_equal(spectra["E"], cli.csv("spectra.csv", as_frame=False)["E"])


def test_taylor_green_starts_with_energy_one_eighth(tmp_path):
    # u = (sin x cos y cos z, -cos x sin y cos z, 0): the mean of |u|^2 / 2 over the box is 1/8.
    run = loom.hit.run({**CONFIG, "initial": {"type": "taylor_green"}}, {"output.dir": str(tmp_path / "tg")})
    assert run.series(as_frame=False)["energy"][0] == pytest.approx(0.125, rel=1e-12)


def test_the_gil_is_released_while_it_runs(tmp_path, runs_while):
    # CONFIG's run took 0.07 s on an idle 2-core box: 8 times the points here.
    seconds, ticks = runs_while(lambda: loom.hit.run(CONFIG, {"grid.n": 32, "output.dir": str(tmp_path / "gil")}))
    assert seconds > 0.03, "the run was too short to tell"  # released: ~1 tick per ms; held: none
    assert ticks >= 10


def test_bad_input_raises_value_error(tmp_path):
    with pytest.raises(ValueError, match=r"grid.n = 33: expected an even integer in \[8, 1024\]"):
        loom.hit.run(CONFIG, {"grid.n": 33, "output.dir": str(tmp_path / "bad")})
    assert not (tmp_path / "bad").exists()
