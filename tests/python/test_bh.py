"""loom.bh.run against `loom bh` on the same tiny input (series, summary, fields: bitwise, the CLI being
deterministic), a TOML file against a dict, bad input (ValueError with the command's line, nothing written) and
the GIL released while the hole evolves."""
import numpy as np
import pytest

import loom

# The smallest shells loom bh takes, four fixed steps (as tests/gr/test_bh_cli.cpp's short run).
CONFIG = {"grid": {"extents": "5,5,10"}, "time": {"t_end": 0.2, "dt": 0.05}, "output": {"every": 0.05,
          "plots": False}, "quiet": True, "backend": "cpu"}
FLAGS = [f"--{k}={v}" for k, v in loom._config._flags(CONFIG)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory, same_run):
    return same_run("bh", CONFIG, tmp_path_factory.mktemp("bh"))


def test_run_equals_the_cli(runs, assert_same_summary):
    cli, py, _ = runs
    a, b = cli.series(as_frame=False), py.series(as_frame=False)
    assert a.keys() == b.keys() and len(a["t"]) == 5 and "normalized_constraint" in a
    for column in a:
        np.testing.assert_array_equal(a[column], b[column], err_msg=column)
    assert_same_summary(cli, py)


def test_fields_equal_the_cli(runs):
    cli, py, _ = runs
    assert [f.name for f in py.field_files()] == [f.name for f in cli.field_files()]
    a, b = cli.field(-1), py.field(-1)
    assert a.keys() == b.keys() and a["time"] == pytest.approx(0.2)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


def test_toml_file_and_dict_give_the_same_run(tmp_path, runs):
    _, py, _ = runs
    (tmp_path / "bh.toml").write_text(py.input)
    again = loom.bh.run(tmp_path / "bh.toml", {"output.dir": str(tmp_path / "again")})
    np.testing.assert_array_equal(again.series(as_frame=False)["psi_error"], py.series(as_frame=False)["psi_error"])


@pytest.mark.parametrize("flags, message", [
    ({"physics.mass": 0}, "physics.mass = 0.0: expected a number in (0, 1000000]"),
    ({"grid.extents": "4,5,10"}, 'grid.extents = "4,5,10": expected three integers N_r,N_theta,N_phi'),
    ({"physics.spin": "0.6,0.6,0.6"}, 'physics.spin = "0.6,0.6,0.6"'),
])
def test_bad_input_raises_value_error_with_the_clis_line(tmp_path, loom_cli, flags, message):
    with pytest.raises(ValueError) as e:
        loom.bh.run(CONFIG, {**flags, "output.dir": str(tmp_path / "run")})
    assert message in str(e.value) and "\n" not in str(e.value)
    assert not (tmp_path / "run").exists()
    key, value = loom._config._flags(flags)[0]
    r = loom_cli("bh", *FLAGS, f"--{key}={value}", "--output.dir", tmp_path / "run", expect=2)
    assert r.stderr.strip() == f"error: {e.value}"


def test_the_gil_is_released_while_the_hole_evolves(runs):
    seconds, ticks = runs[2]
    assert seconds > 0.03, "the run was too short to tell"  # released: ~1 tick per ms; held: none
    assert ticks >= 10
