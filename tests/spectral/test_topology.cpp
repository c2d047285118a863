// Cube and shell: the Cartesian gradient of x y e^z (shell: through the chain rule) against its exact value
// with exponential convergence, quadrature of known integrals, and interpolation to off-grid points.
#include <gtest/gtest.h>

#include <cmath>
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
