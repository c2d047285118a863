// The closed-form Kerr-Schild solution (gr/kerr_schild.hpp) against independent facts: its Phi against finite
// differences of its psi, det psi = -1 and l null (Kerr-Schild form), the outer horizon where the r = const
// surfaces turn null at r_+ = m (1 + sqrt(1 - chi^2)), covariance under a rotation of the spin vector, the gauge
// source against finite-difference Christoffel symbols, and eq. 40's C_a vanishing on the exact data.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gr/ks_fd.hpp"
#include "loom/gr/gh_equations.hpp"
#include "loom/gr/kerr_schild.hpp"

namespace loom::gr {
namespace {

const KerrSchild tilted{1.0, {0.2, 0.3, 0.4}};

std::array<double, 3> random_point(std::mt19937& rng, double r_min, double r_max) {
  std::uniform_real_distribution<double> u(-1, 1), radius(r_min, r_max);
  double x[3] = {u(rng), u(rng), u(rng)};
  const double n = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), r = radius(rng);
  return {x[0] / n * r, x[1] / n * r, x[2] / n * r};
}

std::vector<double> metric_at(const KerrSchild& bh, const double (&x)[3]) {
  std::vector<double> psi(pairs), phi(3 * pairs);
  kerr_schild_metric(bh, x, psi.data(), phi.data());
  return psi;
}

TEST(KerrSchild, PhiIsTheDerivativeOfPsi) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const auto p = random_point(rng, 1.5, 12);
    const double x[3] = {p[0], p[1], p[2]};
    double psi[pairs], phi[3 * pairs];
    kerr_schild_metric(tilted, x, psi, phi);
    for (int i = 0; i < 3; ++i) {
      const auto fd = testing::central_difference([](const double (&y)[3]) { return metric_at(tilted, y); }, x, i, 1e-3);
      for (int c = 0; c < pairs; ++c) EXPECT_NEAR(phi[i * pairs + c], fd[c], 1e-10) << "i " << i << " c " << c;
    }
  }
}

TEST(KerrSchild, DeterminantIsMinusOneAndLIsNull) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const auto p = random_point(rng, 0.8, 20);
    const double x[3] = {p[0], p[1], p[2]};
    double packed[pairs], phi[3 * pairs], g[4][4];
    kerr_schild_metric(tilted, x, packed, phi);
    unpack(packed, g);
    // det by cofactor expansion along the first row of 3 x 3 minors
    auto minor3 = [&](int skip) {
      int c[3], k = 0;
      for (int j = 0; j < 4; ++j)
        if (j != skip) c[k++] = j;
      return g[1][c[0]] * (g[2][c[1]] * g[3][c[2]] - g[2][c[2]] * g[3][c[1]]) -
             g[1][c[1]] * (g[2][c[0]] * g[3][c[2]] - g[2][c[2]] * g[3][c[0]]) +
             g[1][c[2]] * (g[2][c[0]] * g[3][c[1]] - g[2][c[1]] * g[3][c[0]]);
    };
    double det = 0;
    for (int j = 0; j < 4; ++j) det += (j % 2 == 0 ? 1 : -1) * g[0][j] * minor3(j);
    EXPECT_NEAR(det, -1.0, 1e-12);
    const KerrSchildFactors f = kerr_schild_factors(tilted, x);
    EXPECT_NEAR(f.l[1] * f.l[1] + f.l[2] * f.l[2] + f.l[3] * f.l[3], 1.0, 1e-13);
  }
}

// psi^ij d_i r d_j r (= g^rr = Delta / Sigma in Boyer-Lindquist terms) changes sign at r_+; d_i r by finite
// differences of the spheroidal radius.
double grr(const KerrSchild& bh, const double (&x)[3]) {
  double packed[pairs], phi[3 * pairs], g[4][4];
  kerr_schild_metric(bh, x, packed, phi);
  unpack(packed, g);
  const ThreePlusOne s = three_plus_one(g);
  double dr[3];
  for (int i = 0; i < 3; ++i)
    dr[i] = testing::central_difference(
        [&](const double (&y)[3]) { return std::vector<double>{kerr_schild_factors(bh, y).r}; }, x, i, 1e-4)[0];
  double v = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) v += s.inverse[i + 1][j + 1] * dr[i] * dr[j];
  return v;
}

TEST(KerrSchild, HorizonRadiusForSpinAlongZ) {
  for (double chi : {0.0, 0.5, 0.9}) {
    const KerrSchild bh{2.0, {0, 0, chi}};
    const double expected = 2.0 * (1 + std::sqrt(1 - chi * chi));
    for (double theta : {0.3, 1.2, 2.0}) {
      // bisection in the spheroidal radius along a ray: x = (sqrt(r^2 + a^2) sin th, 0, r cos th)
      const double a = 2.0 * chi;
      auto at = [&](double r) {
        const double x[3] = {std::sqrt(r * r + a * a) * std::sin(theta), 0, r * std::cos(theta)};
        return grr(bh, x);
      };
      double lo = 0.5 * expected, hi = 1.5 * expected;
      ASSERT_LT(at(lo), 0) << "inside the horizon g^rr < 0";
      ASSERT_GT(at(hi), 0);
      for (int it = 0; it < 60; ++it) (at(0.5 * (lo + hi)) < 0 ? lo : hi) = 0.5 * (lo + hi);
      EXPECT_NEAR(0.5 * (lo + hi), expected, 1e-8) << "chi " << chi << " theta " << theta;
      EXPECT_NEAR(kerr_horizon_radius(bh), expected, 1e-15);
    }
  }
}

TEST(KerrSchild, RotatingTheSpinRotatesTheMetric) {
  // R: a rotation by 0.7 about the axis (1, 2, 2) / 3 (Rodrigues).
  const double k[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3}, c = std::cos(0.7), s = std::sin(0.7);
  double R[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double cross[3][3] = {{0, -k[2], k[1]}, {k[2], 0, -k[0]}, {-k[1], k[0], 0}};
      R[i][j] = (i == j ? c : 0.0) + s * cross[i][j] + (1 - c) * k[i] * k[j];
    }
  KerrSchild rotated{tilted.mass, {}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) rotated.spin[i] += R[i][j] * tilted.spin[j];
  std::mt19937 rng(7);
  for (int trial = 0; trial < 10; ++trial) {
    const auto p = random_point(rng, 1.5, 10);
    const double x[3] = {p[0], p[1], p[2]};
    double rx[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) rx[i] += R[i][j] * x[j];
    double a[pairs], b[pairs], phi[3 * pairs], ga[4][4], gb[4][4];
    kerr_schild_metric(tilted, x, a, phi);
    kerr_schild_metric(rotated, rx, b, phi);
    unpack(a, ga);
    unpack(b, gb);
    // Lambda = diag(1, R): psi'_ab(R x) = Lambda_a^c Lambda_b^d psi_cd(x)
    double L[4][4] = {{1, 0, 0, 0}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) L[i + 1][j + 1] = R[i][j];
    for (int m = 0; m < 4; ++m)
      for (int n = 0; n < 4; ++n) {
        double v = 0;
        for (int p2 = 0; p2 < 4; ++p2)
          for (int q = 0; q < 4; ++q) v += L[m][p2] * L[n][q] * ga[p2][q];
        EXPECT_NEAR(gb[m][n], v, 1e-13);
      }
  }
}

TEST(KerrSchild, GaugeSourceAndConstraintsOfTheExactData) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 10; ++trial) {
    const auto p = random_point(rng, 1.5, 12);
    const double x[3] = {p[0], p[1], p[2]};
    double state[state_size], gauge[4];
    kerr_schild_state(tilted, x, state, gauge);
    // H_a = -psi^bc Gamma_abc with d psi from finite differences (d_t psi = 0)
    double g[4][4];
    unpack(state, g);
    const ThreePlusOne s = three_plus_one(g);
    double d[4][4][4] = {};
    for (int i = 0; i < 3; ++i) {
      const auto fd = testing::central_difference([](const double (&y)[3]) { return metric_at(tilted, y); }, x, i, 1e-3);
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) d[i + 1][a][b] = fd[sym(a, b)];
    }
    for (int a = 0; a < 4; ++a) {
      double gamma = 0;
      for (int b = 0; b < 4; ++b)
        for (int c = 0; c < 4; ++c) gamma += s.inverse[b][c] * 0.5 * (d[b][a][c] + d[c][a][b] - d[a][b][c]);
      EXPECT_NEAR(gauge[a], -gamma, 1e-9);
    }
    // Pi = -t^c d_c psi with d_t psi = 0
    for (int c = 0; c < pairs; ++c) {
      double v = 0;
      for (int i = 0; i < 3; ++i) v -= s.normal_up[i + 1] * state[phi_offset + i * pairs + c];
      EXPECT_NEAR(state[pi_offset + c], v, 1e-14);
    }
    // eq. 40 on the exact data: C_a = 0
    GhInput in{};
    for (int c = 0; c < pairs; ++c) in.psi[c] = state[c], in.pi[c] = state[pi_offset + c];
    for (int c = 0; c < 3 * pairs; ++c) in.phi[c] = state[phi_offset + c];
    for (int a = 0; a < 4; ++a) in.gauge[a] = gauge[a];
    double ca[4], ciab[3 * pairs];
    gh_constraints(in, ca, ciab);
    for (int a = 0; a < 4; ++a) EXPECT_NEAR(ca[a], 0.0, 1e-13);
  }
}

}  // namespace
}  // namespace loom::gr
