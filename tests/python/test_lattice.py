"""loom.lattice and loom.lattice_dispersion against `loom lattice` for the same grid, against properties a
structure must have (its cells tile it; every face is seen from both sides), and the dispersion's order."""
import json

import numpy as np
import pytest

import loom

GRIDS = ["cubic", "fcc", "bcc", "a15", "c15", "z"]


@pytest.mark.parametrize("grid", GRIDS)
def test_facts_equal_the_cli(grid, loom_cli):
    cli = json.loads(loom_cli("lattice", "--grid.type", grid, "--json").stdout)
    facts = loom.lattice(grid)
    for key, value in cli.items():
        assert facts[key] == value, key


@pytest.mark.parametrize("grid", GRIDS)
def test_cells_tile_the_structure_and_faces_pair_up(grid):
    s = loom.lattice(grid)
    m = s["cells_per_structure"]
    assert s["circumcenters"].shape == (m, 3) and s["cell_volumes"].shape == (m,)
    np.testing.assert_allclose(s["cell_volumes"].sum(), np.prod(s["structure_size"]), rtol=1e-12)
    assert sorted(set(np.bincount(s["face_cell"], minlength=m).tolist())) == s["faces_per_cell"]  # distinct counts
    # Face F of cell i towards (j, offset) is face F of cell j towards (i, -offset): same area and dual edge.
    seen = {}
    for i, j, o, a, e in zip(s["face_cell"], s["face_neighbour"], s["face_offset"], s["face_area"],
                             s["face_dual_length"]):
        seen.setdefault((int(i), int(j), tuple(o)), []).append((a, e))
    for (i, j, o), faces in seen.items():
        back = seen[(j, i, tuple(-np.array(o)))]
        np.testing.assert_allclose(sorted(faces), sorted(back), rtol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(s["face_normal"], axis=1), 1, rtol=1e-12)


def test_dispersion_equals_the_cli(tmp_path, loom_cli):
    loom_cli("lattice", "dispersion", "--grid.type", "c15", "--dispersion.directions", 30, "--dispersion.k_edge", 0.4,
             "--plot", "false", "--output.dir", tmp_path / "run")
    cli = json.loads((tmp_path / "run" / "summary.json").read_text())["grids"]["c15"]
    d = loom.lattice_dispersion("c15", k_edge=0.4, directions=30)
    for key in ("k", "mean_dual_edge", "ratio_min", "ratio_max", "ratio_mean", "anisotropy"):
        assert d[key] == cli[key], key
    rows = np.genfromtxt(tmp_path / "run" / "dispersion.csv", delimiter=",", names=True, dtype=None,
                         encoding="utf-8")
    rows = rows[rows["grid"] == "c15"]
    np.testing.assert_allclose(d["ratio"], rows["ratio"], rtol=1e-10)  # the CSV holds 12 digits
    np.testing.assert_allclose(d["eigenvalue"], rows["eigenvalue"], rtol=1e-10)
    np.testing.assert_allclose(d["directions"] * d["k"], np.stack([rows["kx"], rows["ky"], rows["kz"]], 1),
                               rtol=1e-10, atol=1e-12)


def test_the_gil_is_released_while_the_dispersion_is_measured(runs_while):
    seconds, ticks = runs_while(lambda: loom.lattice_dispersion("c15", k_edge=0.4, directions=400))
    assert seconds > 0.03, "the call was too short to tell"  # released: ~1 tick per ms; held: none
    assert ticks >= 10


def test_dispersion_error_is_second_order_in_k():
    # ratio = 1 - c (|k| h)^2 + ...: halving |k| h divides the error by 4 (by 2 for a first-order grid).
    e = [1 - loom.lattice_dispersion("bcc", k_edge=k, directions=20)["ratio_mean"] for k in (0.2, 0.1)]
    assert 3.6 < e[0] / e[1] < 4.4


@pytest.mark.parametrize("call, message", [
    (lambda: loom.lattice("hex"), 'type = "hex": expected one of cubic, fcc, bcc, a15, c15, z'),
    (lambda: loom.lattice_dispersion("bcc", k_edge=-1), "k_edge = -1"),
    (lambda: loom.lattice_dispersion("bcc", directions=1), "directions = 1"),
])
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()
