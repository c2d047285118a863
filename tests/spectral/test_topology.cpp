// Cube and shell: the Cartesian gradient of x y e^z (shell: through the chain rule) against its exact value
// with exponential convergence, quadrature of known integrals, and interpolation to off-grid points; the shell's
// radial maps (linear, log, inverse): their points, their Jacobian against the analytic gradient of xi(r), and the
// same convergence on the mapped shells.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <numbers>
#include <random>

#include "loom/core/error.hpp"
#include "loom/spectral/operations.hpp"

namespace loom::spectral {
namespace {

constexpr double pi = std::numbers::pi;

double f(double x, double y, double z) { return x * y * std::exp(z); }

// Largest error of the reference Cartesian gradient of f on topology t.
double gradient_error(const Topology& t) {
  const auto x = t.cartesian();
  const Index n = t.size();
  Tensor u(shape_of(TensorKind::scalar), n);
  double* h = u.data.write(core::Where::host);
  for (Index p = 0; p < n; ++p) h[p] = f(x[0][p], x[1][p], x[2][p]);
  OperatorCache cache;
  const auto jac = t.inverse_jacobian();
  core::Array<double> inverse_jacobian = core::Array<double>::from(jac), scratch(3 * n), grad(3 * n);
  cartesian_gradient(t, Strategy::reference, cache, inverse_jacobian, u, scratch, grad);
  const double* g = grad.read(core::Where::host);
  double e = 0;
  for (Index p = 0; p < n; ++p) {
    const double ez = std::exp(x[2][p]);
    const double exact[3] = {x[1][p] * ez, x[0][p] * ez, x[0][p] * x[1][p] * ez};
    for (int i = 0; i < 3; ++i) e = std::max(e, std::abs(g[i * n + p] - exact[i]));
  }
  return e;
}

TEST(SpectralShell, CartesianGradientOfXYExpZConvergesToTheExactOne) {
  const double coarse = gradient_error(Shell(6, 8, 1, 2));
  const double fine = gradient_error(Shell(12, 20, 1, 2));
  EXPECT_LT(fine, 1e-4 * coarse);
  EXPECT_LT(fine, 1e-10);
}

// The radial row of the chain rule, d xi / d x^i, against the analytic gradient of the map's coordinate written
// here from its definition (not from dxi_dr): log: x^i / r^2, inverse (xi = -1/r): x^i / r^3.
TEST(SpectralShell, RadialMapJacobianIsTheGradientOfItsCoordinate) {
  for (RadialMap m : {RadialMap::linear, RadialMap::log, RadialMap::inverse}) {
    const Shell s(7, 6, 1.62, 6, m);
    const auto x = s.cartesian();
    const auto jac = s.inverse_jacobian();
    const Index n = s.size();
    for (Index p = 0; p < n; ++p) {
      const double r = std::sqrt(x[0][p] * x[0][p] + x[1][p] * x[1][p] + x[2][p] * x[2][p]);
      const double power = m == RadialMap::linear ? 1 : m == RadialMap::log ? 2 : 3;
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(jac[(3 * i + 0) * n + p], x[i][p] / std::pow(r, power), 1e-14);
    }
    // d xi / d r against a central difference of xi(r), and r(xi(r)) = r.
    for (double r : {1.62, 2.5, 6.0}) {
      const double h = 1e-5, fd = (radial_coordinate(m, r + h) - radial_coordinate(m, r - h)) / (2 * h);
      EXPECT_NEAR(dxi_dr(m, r), fd, 1e-9 * std::abs(fd)) << to_string(m);
      EXPECT_NEAR(radius_of(m, radial_coordinate(m, r)), r, 1e-14 * r);
    }
  }
}

// The inverse map's radii are Gauss-Lobatto in 1/r: 1/r_j = (1/a + 1/b) / 2 + (1/a - 1/b) / 2 cos(pi j / (n - 1)),
// ascending in r from a to b.
TEST(SpectralShell, InverseMapPointsAreGaussLobattoInOneOverR) {
  const double a = 1.62, b = 6;
  const int n = 9;
  const Shell s(n, 6, a, b, RadialMap::inverse);
  for (int j = 0; j < n; ++j) {
    const double inverse = (1 / a + 1 / b) / 2 + (1 / a - 1 / b) / 2 * std::cos(pi * j / (n - 1));
    EXPECT_NEAR(s.radii()[j], 1 / inverse, 1e-13) << j;
  }
}

// Largest error of the Cartesian gradient of 1 / |x - c| (c = (0.2, -0.1, 0.3), inside the inner radius; Kerr-
// Schild's fields near the hole are of this kind) on [1.62, 6] with n_r radial points and 16 x 32 angular ones.
double inverse_distance_gradient_error(RadialMap m, int n_r) {
  const Shell s(n_r, 16, 1.62, 6, m);
  const auto x = s.cartesian();
  const Index n = s.size();
  const double c[3] = {0.2, -0.1, 0.3};
  Tensor u(shape_of(TensorKind::scalar), n);
  double* h = u.data.write(core::Where::host);
  for (Index p = 0; p < n; ++p) h[p] = 1 / std::hypot(x[0][p] - c[0], x[1][p] - c[1], x[2][p] - c[2]);
  OperatorCache cache;
  core::Array<double> inverse_jacobian = core::Array<double>::from(s.inverse_jacobian()), scratch(3 * n), grad(3 * n);
  cartesian_gradient(s, Strategy::reference, cache, inverse_jacobian, u, scratch, grad);
  const double* g = grad.read(core::Where::host);
  double e = 0;
  for (Index p = 0; p < n; ++p) {
    const double d = std::hypot(x[0][p] - c[0], x[1][p] - c[1], x[2][p] - c[2]);
    for (int i = 0; i < 3; ++i) e = std::max(e, std::abs(g[i * n + p] + (x[i][p] - c[i]) / (d * d * d)));
  }
  return e;
}

// Exponential convergence on every map (each step of 2 radial points divides the error by more than 3 and the
// factor does not shrink, as an algebraic rate's would), and the inverse map below the linear one at equal points.
TEST(SpectralShell, GradientConvergesExponentiallyOnMappedShells) {
  std::array<std::vector<double>, 3> errors;
  const RadialMap maps[3] = {RadialMap::linear, RadialMap::log, RadialMap::inverse};
  for (int k = 0; k < 3; ++k) {
    // (n_r 10 would reach the angular floor, ~3e-10, on the inverse map)
    for (int n_r : {4, 6, 8}) errors[k].push_back(inverse_distance_gradient_error(maps[k], n_r));
    std::printf("%-8s gradient of 1/|x - c|, n_r 4, 6, 8: %.3e %.3e %.3e\n", std::string(to_string(maps[k])).c_str(),
                errors[k][0], errors[k][1], errors[k][2]);
  }
  for (int k = 0; k < 3; ++k)
    for (int i = 1; i < 3; ++i) {
      const double factor = errors[k][i - 1] / errors[k][i];
      EXPECT_GT(factor, 3.0) << to_string(maps[k]) << " step " << i;
      if (i > 1) {
        EXPECT_GT(factor, 0.85 * errors[k][i - 2] / errors[k][i - 1]) << to_string(maps[k]) << " step " << i;
      }
    }
  for (int i = 0; i < 3; ++i) EXPECT_LT(errors[2][i], 0.1 * errors[0][i]) << "n_r index " << i;
  // x y e^z (a polynomial-like field in r, not in 1/r) still converges on the mapped shells.
  for (RadialMap m : {RadialMap::log, RadialMap::inverse}) {
    const double coarse = gradient_error(Shell(6, 8, 1, 2, m)), fine = gradient_error(Shell(12, 20, 1, 2, m));
    std::printf("%s map: gradient of x y e^z %.3e (6 x 8), %.3e (12 x 20)\n", std::string(to_string(m)).c_str(),
                coarse, fine);
    EXPECT_LT(fine, 1e-3 * coarse) << to_string(m);
  }
}

TEST(SpectralShell, QuadratureOnMappedShells) {
  for (RadialMap m : {RadialMap::log, RadialMap::inverse}) {
    Shell s(30, 10, 0.5, 2, m);
    const auto w = s.weights();
    double volume = 0;
    for (double v : w) volume += v;
    EXPECT_NEAR(volume, 4 * pi / 3 * (8 - 0.125), 1e-11) << to_string(m);
  }
}

TEST(SpectralCube, GradientOfXYExpZ) {
  EXPECT_LT(gradient_error(*make_topology("cube", {16, 14, 18}, {0, 0})), 1e-12);
}

TEST(SpectralShell, QuadratureIntegratesPolynomialsExactly) {
  Shell s(8, 10, 0.5, 2);
  const auto x = s.cartesian();
  const auto w = s.weights();
  double volume = 0, second_moment = 0;
  for (Index p = 0; p < s.size(); ++p) {
    volume += w[p];
    second_moment += w[p] * x[2][p] * x[2][p];
  }
  const double r5 = std::pow(2.0, 5) - std::pow(0.5, 5), r3 = 8 - 0.125;
  EXPECT_NEAR(volume, 4 * pi / 3 * r3, 1e-12);
  EXPECT_NEAR(second_moment, 4 * pi / 15 * r5, 1e-12);  // integral of z^2 = (1/3) integral of r^2
}

TEST(SpectralTopology, InterpolationToOffGridPoints) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uni(-1, 1);
  const auto shell = make_topology("shell", {12, 20, 40}, {1, 2});
  const auto cube = make_topology("cube", {16, 16, 16}, {0, 0});
  for (const Topology* t : {shell.get(), cube.get()}) {
    const auto x = t->cartesian();
    std::vector<double> u(t->size());
    for (Index p = 0; p < t->size(); ++p) u[p] = f(x[0][p], x[1][p], x[2][p]);
    for (int trial = 0; trial < 5; ++trial) {
      std::array<double, 3> q{uni(rng), uni(rng), uni(rng)};
      if (t == shell.get()) {  // a point between the radii
        const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]), r = 1.2 + 0.15 * trial;
        for (auto& v : q) v *= r / norm;
      }
      EXPECT_NEAR(t->interpolate(u.data(), q), f(q[0], q[1], q[2]), 1e-10) << t->name();
    }
  }
}

TEST(SpectralTopology, BadExtentsNameTheKey) {
  EXPECT_THROW(make_topology("shell", {10, 19, 40}, {1, 2}), UsageError);  // N_phi != 2 N_theta
  EXPECT_THROW(make_topology("shell", {1, 19, 38}, {1, 2}), UsageError);
  EXPECT_THROW(make_topology("cube", {8, 1, 8}, {0, 0}), UsageError);
  EXPECT_THROW(make_topology("torus", {8, 8, 8}, {0, 0}), UsageError);
  Shell s(6, 6, 1, 2);
  FilterSpec bad;
  bad.half_order = 0;
  try {
    s.filter(bad);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("filter.order"), std::string::npos);
  }
}

}  // namespace
}  // namespace loom::spectral
