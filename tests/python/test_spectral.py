"""loom.spectral against analytic functions written here in NumPy: Chebyshev and Fourier derivatives of
polynomials and trigonometric functions, Chebyshev coefficients against NumPy's own interpolation, real Y_lm
round trips and filters, the Cartesian gradient of x y e^z on a shell (spectral convergence), integrals and
interpolation, DiffJac and SpatialCoordJac against einsum, the strategies and backends against each other, zero
copy, the GIL, and bad input."""
import math

import numpy as np
import pytest

import loom
from loom import spectral

RNG = np.random.default_rng(11)


# ---- real spherical harmonics, written out (orthonormal on the unit sphere, no Condon-Shortley phase) ----
def ylm(l, m, theta, phi):
    c, s = np.cos(theta), np.sin(theta)
    table = {
        (0, 0): lambda: np.full_like(theta, math.sqrt(1 / (4 * math.pi))),
        (1, 0): lambda: math.sqrt(3 / (4 * math.pi)) * c,
        (1, 1): lambda: math.sqrt(3 / (4 * math.pi)) * s * np.cos(phi),
        (1, -1): lambda: math.sqrt(3 / (4 * math.pi)) * s * np.sin(phi),
        (2, 0): lambda: math.sqrt(5 / (16 * math.pi)) * (3 * c**2 - 1),
        (2, 1): lambda: math.sqrt(15 / (4 * math.pi)) * s * c * np.cos(phi),
        (2, -2): lambda: math.sqrt(15 / (16 * math.pi)) * s**2 * np.sin(2 * phi),
        (3, 3): lambda: math.sqrt(35 / (32 * math.pi)) * s**3 * np.cos(3 * phi),
    }
    return table[(l, m)]()


def test_chebyshev_derivative_of_a_polynomial_is_exact():
    b = spectral.Basis("chebyshev", 9, 1.0, 3.0)
    x = b.points
    assert x[0] == pytest.approx(1) and x[-1] == pytest.approx(3) and np.all(np.diff(x) > 0)
    u = 2 * x**8 - x**5 + 3 * x  # degree 8 = n - 1: in the basis
    np.testing.assert_allclose(b.derivative(u), 16 * x**7 - 5 * x**4 + 3, rtol=1e-11)
    # Along the last axis of any array: two lines at once.
    np.testing.assert_allclose(b.derivative(np.stack([u, x**2])), [16 * x**7 - 5 * x**4 + 3, 2 * x], rtol=1e-11)
    assert b.weights @ x**4 == pytest.approx((3**5 - 1) / 5, rel=1e-13)  # Clenshaw-Curtis integrates it exactly


def test_chebyshev_coefficients_equal_numpys_interpolant():
    b = spectral.Basis("chebyshev", 12)
    u = np.exp(b.points) * np.cos(3 * b.points)
    expected = np.polynomial.chebyshev.chebfit(b.points, u, 11)  # the degree-11 interpolant's T_k coefficients
    c = b.to_spectral(u)
    np.testing.assert_allclose(c, expected, atol=1e-12)
    np.testing.assert_allclose(b.to_physical(c), u, atol=1e-13)
    assert b.evaluate(c, 0.3) == pytest.approx(np.polynomial.chebyshev.chebval(0.3, expected), abs=1e-12)


def test_fourier_derivative_and_exponential_filter():
    b = spectral.Basis("fourier", 16)
    t = b.points
    np.testing.assert_allclose(b.derivative(np.sin(3 * t) + np.cos(t)), 3 * np.cos(3 * t) - np.sin(t), atol=1e-12)
    # The filter multiplies mode k by exp(-alpha (k / k_max)^(2 s)), k_max = n / 2 = 8.
    alpha, s = 5.0, 2
    damp = lambda k: math.exp(-alpha * (k / 8) ** (2 * s))
    out = b.exp_filter(np.cos(2 * t) + np.sin(6 * t), alpha=alpha, order=s)
    np.testing.assert_allclose(out, damp(2) * np.cos(2 * t) + damp(6) * np.sin(6 * t), atol=1e-12)


def test_ylm_round_trip_and_heaviside_filter():
    sphere = spectral.Sphere(8)
    theta, phi = sphere.points
    terms = {(0, 0): 0.5, (1, -1): -1.0, (2, 1): 2.0, (2, -2): 0.25, (3, 3): 1.5}
    u = sum(a * ylm(l, m, theta, phi) for (l, m), a in terms.items())
    c = sphere.to_spectral(u)
    expected = np.zeros((sphere.l_max + 1) ** 2)
    for (l, m), a in terms.items():
        expected[spectral.Sphere.index(l, m)] = a
    np.testing.assert_allclose(c, expected, atol=1e-13)
    np.testing.assert_allclose(sphere.to_physical(c), u, atol=1e-13)
    assert sphere.weights @ ylm(2, 1, theta, phi) ** 2 == pytest.approx(1, rel=1e-13)
    kept = sum(a * ylm(l, m, theta, phi) for (l, m), a in terms.items() if l <= 2)
    np.testing.assert_allclose(sphere.heaviside_filter(u, 2), kept, atol=1e-13)
    # d/dphi of cos(3 phi) sin^3(theta) and d/dtheta of Y_20
    np.testing.assert_allclose(sphere.d_phi(ylm(3, 3, theta, phi)),
                               -3 * math.sqrt(35 / (32 * math.pi)) * np.sin(theta)**3 * np.sin(3 * phi), atol=1e-12)
    np.testing.assert_allclose(sphere.d_theta(ylm(2, 0, theta, phi)),
                               -6 * math.sqrt(5 / (16 * math.pi)) * np.cos(theta) * np.sin(theta), atol=1e-12)


def shell_field(shell):
    x, y, z = shell.points
    u = x * y * np.exp(z)
    return u, np.array([y * np.exp(z), x * np.exp(z), u])


def test_cartesian_gradient_of_x_y_exp_z_on_a_shell_converges_spectrally():
    errors = []
    for n in (8, 10, 12, 14, 16):
        shell = spectral.Shell(n, n, radii=(1, 2))
        u, exact = shell_field(shell)
        g = shell.gradient(u, backend="cpu")
        assert g.shape == (3, shell.size)
        errors.append(np.abs(g - exact).max() / np.abs(exact).max())
    # Measured 1.6e-3, 3.7e-5, 4.8e-7, 4.4e-9, 2.8e-11: each step of 2 points gains > 20, which an algebraic
    # order below ~20 cannot ((n / (n + 2))^p).
    assert errors[-1] < 1e-10
    assert all(b < a / 20 for a, b in zip(errors, errors[1:])), errors


@pytest.mark.parametrize("strategy, angular", [("reference", "dense"), ("blas", "separable"),
                                               ("reference", "separable")])
def test_strategies_and_angular_routes_agree(strategy, angular):
    shell = spectral.Shell(9, 10, radii=(0.5, 2))
    u = RNG.standard_normal((4, shell.size))
    reference = shell.gradient(u, backend="cpu", strategy="blas")
    np.testing.assert_allclose(shell.gradient(u, strategy=strategy, angular=angular), reference, atol=1e-10)
    np.testing.assert_allclose(shell.filter(u, strategy=strategy, angular=angular), shell.filter(u, strategy="blas"),
                               atol=1e-10)


def test_tensor_gradient_is_the_gradient_of_each_component():
    shell = spectral.Shell(8, 8)
    u = RNG.standard_normal((10, shell.size))  # an aa tensor: 10 components
    g = shell.gradient(u, backend="cpu")
    assert g.shape == (3, 10, shell.size)
    for c in (0, 4, 9):
        np.testing.assert_allclose(g[:, c], shell.gradient(u[c], backend="cpu"), atol=1e-12)
    d = shell.logical_gradient(u, backend="cpu")
    np.testing.assert_allclose(d[0], shell.derivative(u, 0, backend="cpu"), atol=1e-12)


def test_cube_derivatives_of_polynomials_and_trigonometric_axes():
    cube = spectral.Cube((6, 7, 5))
    x, y, z = cube.points
    u = x**5 * y**3 - z**4 * x + y * z
    np.testing.assert_allclose(cube.derivative(u, 0), 5 * x**4 * y**3 - z**4, atol=1e-11)
    np.testing.assert_allclose(cube.gradient(u)[2], -4 * z**3 * x + y, atol=1e-11)
    assert cube.shape == (5, 7, 6) and np.all(x.reshape(cube.shape)[0, 0] == np.sort(x.reshape(cube.shape)[0, 0]))
    periodic = spectral.Cube((8, 8, 6), bases=("fourier", "fourier", "chebyshev"))
    x, y, z = periodic.points
    np.testing.assert_allclose(periodic.gradient(np.sin(2 * x) * np.cos(y) * z**2),
                               [2 * np.cos(2 * x) * np.cos(y) * z**2, -np.sin(2 * x) * np.sin(y) * z**2,
                                2 * np.sin(2 * x) * np.cos(y) * z], atol=1e-11)


def test_integration_and_interpolation():
    shell = spectral.Shell(10, 12, radii=(1, 2))
    x, y, z = shell.points
    r2 = x**2 + y**2 + z**2
    assert shell.integrate(r2) == pytest.approx(4 * math.pi * (2**5 - 1) / 5, rel=1e-13)  # int r^2 dV
    np.testing.assert_allclose(shell.integrate(np.stack([r2, np.ones_like(r2)])),
                               [4 * math.pi * 31 / 5, 4 * math.pi * 7 / 3], rtol=1e-13)
    cube = spectral.Cube((5, 5, 5))
    cx, cy, cz = cube.points
    assert cube.integrate(cx**2 * cy**2 * cz**2) == pytest.approx((2 / 3) ** 3, rel=1e-13)
    u, _ = shell_field(shell)
    r = RNG.uniform(1.1, 1.9, 20)
    th, ph = np.arccos(RNG.uniform(-1, 1, 20)), RNG.uniform(0, 2 * math.pi, 20)
    p = np.stack([r * np.sin(th) * np.cos(ph), r * np.sin(th) * np.sin(ph), r * np.cos(th)], axis=1)
    np.testing.assert_allclose(shell.interpolate(u, p), p[:, 0] * p[:, 1] * np.exp(p[:, 2]), atol=1e-6)


def test_shell_angular_transform_per_radius():
    shell = spectral.Shell(6, 6, radii=(1, 3))
    x, y, z = shell.points
    r = np.sqrt(x**2 + y**2 + z**2)
    theta, phi = np.arccos(z / r), np.arctan2(y, x)
    u = r**2 * ylm(2, 1, theta, phi) + r * ylm(0, 0, theta, phi)
    c = shell.to_spectral(u)
    assert c.shape == (shell.n_lm, 6)
    radii = r.reshape(shell.shape)[0, 0]  # the N_r radii (r fastest)
    expected = np.zeros((shell.n_lm, 6))
    expected[spectral.Sphere.index(2, 1)] = radii**2
    expected[0] = radii
    np.testing.assert_allclose(c, expected, atol=1e-12)
    np.testing.assert_allclose(shell.to_physical(c), u, atol=1e-12)
    # Heaviside filter alone (alpha = 0: no radial damping) keeps l <= 1.
    np.testing.assert_allclose(shell.filter(u, alpha=0, l_keep=1), r * ylm(0, 0, theta, phi), atol=1e-12)


def test_tensor_components_follow_the_symmetries():
    assert spectral.components("aa") == [(a, b) for a in range(4) for b in range(a, 4)]
    assert len(spectral.components("abb")) == 40 and len(spectral.components("iaa")) == 30
    assert len(spectral.components("ij")) == 9 and len(spectral.components("scalar")) == 1
    for kind in ("aa", "iaa", "ij", "ii"):
        for row, idx in enumerate(spectral.components(kind)):
            assert spectral.component(kind, idx) == row
    assert spectral.component("aa", (3, 1)) == spectral.component("aa", (1, 3))


def full_tensor(kind, t):
    """The tensor with every index value, (4 or 3, ...) per slot, from its stored rows."""
    comps = spectral.components(kind)
    dims = [4 if kind[s] in "ab" else 3 for s in range(len(comps[0]))]
    full = np.zeros(dims + [t.shape[1]])
    for idx in np.ndindex(*dims):
        full[idx] = t[spectral.component(kind, idx)]
    return full


@pytest.mark.parametrize("kind", ["a", "i", "aa", "ij", "ii", "iaa", "abb"])
def test_spatial_coord_jac_equals_einsum(kind):
    n = 7
    jac = RNG.standard_normal((3, 3, n))
    t = RNG.standard_normal((len(spectral.components(kind)), n))
    out = spectral.spatial_coord_jac(jac, t, kind, backend="cpu")
    # Each spatial index transforms with J[i, j]; a spacetime slot's J is 1 on the time index.
    j4 = np.zeros((4, 4, n))
    j4[0, 0] = 1
    j4[1:, 1:] = jac
    full = full_tensor(kind, t)
    for s, letter in enumerate(kind):
        full = np.moveaxis(np.einsum("ijp,...jp->...ip", j4 if letter in "ab" else jac, np.moveaxis(full, s, -2)),
                           -2, s)
    expected = np.array([full[tuple(idx)] for idx in spectral.components(kind)])
    np.testing.assert_allclose(out, expected, atol=1e-12)


def test_diff_jac_equals_einsum_and_matches_the_gradient():
    n = 11
    jac = RNG.standard_normal((3, 3, n))
    du = RNG.standard_normal((3, 5, n))
    np.testing.assert_allclose(spectral.diff_jac(jac, du, backend="cpu"), np.einsum("ijp,jcp->icp", jac, du),
                               atol=1e-13)
    shell = spectral.Shell(7, 6)
    u = RNG.standard_normal((2, shell.size))
    np.testing.assert_allclose(spectral.diff_jac(shell.inverse_jacobian, shell.logical_gradient(u)),
                               shell.gradient(u), atol=1e-12)


def test_inputs_are_read_in_place_and_results_are_not_copied():
    shell = spectral.Shell(6, 6)
    u = RNG.standard_normal((3, shell.size))
    # Every loom.spectral call converts its arrays as loom.fmm does (C-order float64 in place, anything else once).
    assert loom.fmm._input_address(u) == u.ctypes.data
    for out in (shell.gradient(u, backend="cpu"), shell.filter(u, backend="cpu"),
                spectral.diff_jac(shell.inverse_jacobian, shell.logical_gradient(u, backend="cpu"), backend="cpu")):
        assert not out.flags.owndata and type(out.base).__name__ == "PyCapsule" and out.flags.c_contiguous
    np.testing.assert_array_equal(shell.gradient(np.asfortranarray(u), backend="cpu"), shell.gradient(u, backend="cpu"))


def test_the_gil_is_released_during_a_spectral_call(runs_while):
    shell = spectral.Shell(24, 32)
    u = RNG.standard_normal((10, shell.size))
    seconds, ticks = runs_while(lambda: shell.gradient(u, backend="cpu", strategy="reference"))
    assert seconds > 0.03, "the call was too short to tell"  # released: ~1 tick per ms; held: none
    assert ticks >= 10


@pytest.mark.parametrize("make, message", [
    (lambda: spectral.Shell(1, 6), "extents"),
    (lambda: spectral.Cube((6, 6, 6), bases="legendre"), 'bases = "legendre"'),
    (lambda: spectral.Shell(6, 6, radii=(2, 1)), "radii"),
    (lambda: spectral.Shell(6, 6).gradient(np.ones(5)), "u: expected an array of shape (432,)"),
    (lambda: spectral.Shell(6, 6).derivative(np.ones(432), 3), "coordinate = 3"),
    (lambda: spectral.Shell(6, 6).gradient(np.ones(432), backend="gpu"), 'backend = "gpu"'),
    (lambda: spectral.Shell(6, 6).gradient(np.ones(432), backend="cpu", strategy="batched"), 'strategy = "batched"'),
    (lambda: spectral.Shell(6, 6).filter(np.ones(432), order=0), "filter.order = 0"),
    (lambda: spectral.Shell(6, 6).filter(np.ones(432), l_keep=9), "filter.l_keep = 9"),
    (lambda: spectral.spatial_coord_jac(np.ones((3, 3, 4)), np.ones((9, 4)), "aa"), "t: expected"),
    (lambda: spectral.components("abc"), 'kind = "abc"'),
])
def test_bad_input_raises_value_error_with_one_line(make, message):
    with pytest.raises(ValueError) as e:
        make()
    assert message in str(e.value) and "\n" not in str(e.value)


@pytest.mark.skipif("cuda" in loom.backends(), reason="a CUDA device is present")
def test_cuda_without_a_device_is_refused():
    with pytest.raises(ValueError, match="backend"):
        spectral.Shell(6, 6).gradient(np.ones(432), backend="cuda")


@pytest.mark.skipif("cuda" not in loom.backends(), reason="no CUDA device in this process")
@pytest.mark.parametrize("strategy", ["batched", "streamed", "fused"])
def test_the_gpu_strategies_match_the_cpu(strategy):
    shell = spectral.Shell(10, 12, radii=(1, 2))
    u = RNG.standard_normal((10, shell.size))
    for angular in ("dense", "separable"):
        try:
            g = shell.gradient(u, backend="cuda", strategy=strategy, angular=angular)
        except ValueError:  # fused: a dense angular matrix does not fit in shared memory
            assert strategy == "fused" and angular == "dense"
            continue
        np.testing.assert_allclose(g, shell.gradient(u, backend="cpu", angular=angular), atol=1e-9)
    np.testing.assert_allclose(shell.filter(u, backend="cuda", strategy="batched"), shell.filter(u, backend="cpu"),
                               atol=1e-10)
    np.testing.assert_allclose(shell.to_spectral(u, backend="cuda"), shell.to_spectral(u, backend="cpu"), atol=1e-10)
    jac = shell.inverse_jacobian
    np.testing.assert_allclose(spectral.spatial_coord_jac(jac, u, "aa", backend="cuda"),
                               spectral.spatial_coord_jac(jac, u, "aa", backend="cpu"), atol=1e-12)
