"""The spectral toolkit (`loom spectral`, the spectral-BH paper): one-dimensional bases, the sphere S2, the cube
I1 x I1 x I1 and the shell I1 x S2, tensors with symmetries and the Jacobian kernels, over NumPy arrays.

    import numpy as np, loom
    shell = loom.spectral.Shell(n_r=12, n_theta=16, radii=(1, 2))
    x, y, z = shell.points                     # the collocation points, each (N,)
    grad = shell.gradient(x * y * np.exp(z))   # the Cartesian gradient, (3, N)

Fields are component-major arrays: (N,) for one field or (components, N) for a tensor (rows in the order of
components(kind)), N = topology.size points ordered with the first logical coordinate fastest (cube: x, y, z;
shell: r, theta, phi), so u.reshape(topology.shape) is indexed [phi, theta, r] on a shell. C-contiguous float64
inputs are read in place on the CPU (any other layout is converted once); results are NumPy arrays over loom's
own memory. Matrix operations take backend="cpu", "cuda" or "auto" (the best present) and optionally a strategy
(reference, blas; batched, streamed, fused on the GPU). Every call releases the GIL; the toolkit's calls run one
at a time (its FFT plans are not thread-safe). Bad input raises loom.UsageError (a ValueError).
"""
from . import _core

component = _core.spectral.component
diff_jac = _core.spectral.diff_jac
spatial_coord_jac = _core.spectral.spatial_coord_jac

def components(kind):
    """The stored components of a tensor kind (scalar, a, aa, ab, abb, iaa, i, ij, ii) as index tuples, in
    storage order: row c of a tensor array holds components(kind)[c]. Spacetime indices a, b run over 0..3 (0 the
    time), spatial i, j over 0..2; a symmetric pair is stored once, with p <= q."""
    return [tuple(c) for c in _core.spectral.components(kind)]


__all__ = ["Basis", "Sphere", "Cube", "Shell", "components", "component", "diff_jac", "spatial_coord_jac"]


class Basis(_core.spectral._Basis):
    """A one-dimensional basis (eqs. 14-18): "chebyshev" on n Gauss-Lobatto points of [lower, upper] (default
    [-1, 1]) or "fourier" on n uniform points of [lower, upper) (default [0, 2 pi)). Transforms act along the last
    axis of any array. Chebyshev coefficients c give u(x) = sum_k c_k T_k(s(x)); Fourier ones are
    (a_0, a_1, b_1, a_2, b_2, ...) with u = a_0 + sum_k a_k cos(k t) + b_k sin(k t)."""

    def __init__(self, kind, n, lower=None, upper=None):
        periodic = kind == "fourier"
        lower = (0.0 if periodic else -1.0) if lower is None else lower
        upper = ((2 * 3.141592653589793) if periodic else 1.0) if upper is None else upper
        super().__init__(kind, n, lower, upper)

    def to_spectral(self, u):
        """PhysToSpec (eq. 16): the coefficients of the values u (last axis: the n points)."""
        return self._line(u, "to_spectral")

    def to_physical(self, c):
        """SpecToPhys (eq. 17): the values at the points of the coefficients c."""
        return self._line(c, "to_physical")

    def derivative(self, u):
        """du/dx at the points, through the coefficients (eq. 18)."""
        return self._line(u, "derivative")

    def derivative_coefficients(self, c):
        """The coefficients of du/dx from those of u."""
        return self._line(c, "derivative_coefficients")

    def exp_filter(self, u, alpha=36.0, order=8):
        """The exponential filter: coefficient k times exp(-alpha (k / k_max)^(2 order)), k_max the highest mode."""
        return self._exp_filter(u, alpha, order)

    def evaluate(self, c, x):
        """The expansion with coefficients c (1-D) at x in [lower, upper]."""
        return self._evaluate(c, x)


class Sphere(_core.spectral._Sphere):
    """The sphere S2: n_theta Gauss-Legendre points in theta times n_phi = 2 n_theta uniform points in phi,
    expanded in real spherical harmonics orthonormal on the unit sphere up to l_max = n_theta - 1. Physical values
    are ordered theta fastest (u.reshape(n_phi, n_theta)); coefficients at index(l, m) = l^2 + l + m, m > 0 the
    cos(m phi) harmonic, m < 0 the sin(|m| phi) one (no Condon-Shortley phase). Transforms act along the last
    axis."""

    @staticmethod
    def index(l, m):
        """The coefficient slot of Y_lm."""
        return l * l + l + m

    @property
    def points(self):
        """(theta, phi) of every point, each (n_theta n_phi,), theta fastest."""
        import numpy as np
        phi, theta = np.meshgrid(self.phi, self.theta, indexing="ij")
        return theta.ravel(), phi.ravel()

    def to_spectral(self, u):
        """PhysToSpec: the (l_max + 1)^2 Y_lm coefficients of the values u."""
        return self._line(u, "to_spectral", 0)

    def to_physical(self, c):
        """SpecToPhys: the values of the coefficients c at the points."""
        return self._line(c, "to_physical", 0)

    def d_theta(self, u):
        """du/dtheta at the points, through the expansion."""
        return self._line(u, "d_theta", 0)

    def d_phi(self, u):
        """du/dphi at the points, through the expansion."""
        return self._line(u, "d_phi", 0)

    def heaviside_filter(self, u, l_keep):
        """The Y_lm Heaviside filter: every coefficient with l > l_keep set to zero."""
        return self._line(u, "heaviside", l_keep)

    def evaluate(self, c, theta, phi):
        """The expansion with coefficients c at (theta, phi)."""
        return self._evaluate(c, theta, phi)


class _Element(_core.spectral._Topology):
    """What the cube and the shell share."""

    @property
    def shape(self):
        """The NumPy shape of one field on the grid: the logical extents, slowest first."""
        return tuple(reversed(self.extents))

    def derivative(self, u, coordinate, backend="auto", strategy=None, angular="dense"):
        """d u / d xi^coordinate of every component (cube: x, y, z; shell: r, theta, phi), u's shape."""
        return self._derivative(u, coordinate, backend, strategy, angular)

    def gradient(self, u, backend="auto", strategy=None, angular="dense"):
        """The Cartesian gradient d u / d x^i of every component: shape (3,) + u.shape. The logical gradient
        followed by DiffJac with the inverse Jacobian (eq. 8), as loom bh differentiates."""
        return self._gradient(u, True, backend, strategy, angular)

    def logical_gradient(self, u, backend="auto", strategy=None, angular="dense"):
        """d u / d xi^j for j = 0, 1, 2: shape (3,) + u.shape."""
        return self._gradient(u, False, backend, strategy, angular)

    def filter(self, u, alpha=36.0, order=8, l_keep=-1, backend="auto", strategy=None, angular="dense"):
        """The element's filter on every component: the exponential filter exp(-alpha (k / k_max)^(2 order)) along
        each Chebyshev or Fourier axis, and on a shell the Y_lm Heaviside filter keeping l <= l_keep (-1:
        l_max - 1)."""
        return self._filter(u, alpha, order, l_keep, backend, strategy, angular)

    def interpolate(self, u, x):
        """The spectral interpolant of u at Cartesian points x (m, 3) inside the element: (m,) or
        (components, m)."""
        return self._interpolate(u, x)

    def integrate(self, u):
        """The quadrature sum_p weights[p] u[p] of the integral over the element: a float, or one per
        component."""
        return self._integrate(u)


class Cube(_Element):
    """The cube I1 x I1 x I1: extents (n_x, n_y, n_z) and a basis per axis, "chebyshev" on [-1, 1] or "fourier"
    on [0, 2 pi)."""

    def __init__(self, extents, bases="chebyshev"):
        bases = (bases,) * 3 if isinstance(bases, str) else tuple(bases)
        super().__init__("cube", tuple(extents), (1.0, 2.0), bases)


class Shell(_Element):
    """The spherical shell I1 x S2: n_r Chebyshev points between radii = (inner, outer) times the sphere with
    n_theta points in theta and 2 n_theta in phi."""

    def __init__(self, n_r, n_theta, radii=(1.0, 3.0)):
        super().__init__("shell", (n_r, n_theta, 2 * n_theta), tuple(radii), ("chebyshev",) * 3)

    @property
    def n_lm(self):
        """The number of Y_lm coefficients per radius, (l_max + 1)^2 = n_theta^2."""
        return self.extents[1] ** 2

    def to_spectral(self, u, backend="auto", strategy=None):
        """The angular PhysToSpec at every radius: Y_lm coefficients of shape (n_lm, n_r) per component (index
        l^2 + l + m as Sphere.index)."""
        c = self._angular_transform(u, True, backend, strategy)
        return c.reshape(c.shape[:-1] + (self.n_lm, self.extents[0]))

    def to_physical(self, c, backend="auto", strategy=None):
        """The angular SpecToPhys at every radius of coefficients (n_lm, n_r) per component: (N,) or
        (components, N)."""
        import numpy as np
        c = np.asarray(c, dtype=np.float64)
        return self._angular_transform(c.reshape(c.shape[:-2] + (-1,)), False, backend, strategy)
