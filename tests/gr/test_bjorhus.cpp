// The Bjorhus outer boundary conditions at one point (gr/bjorhus.hpp), against their definition rather than their
// formula: the corrected d_t u^psi and d_t u^0 must equal the right-hand side (gh_rhs, eqs. 35-37) evaluated with
// a gradient whose normal derivatives are rewritten so that the normal parts of the constraints vanish,
//   d_k psi  -> d_k psi  - n_k n^i C_iab                 (n^i C_iab = 0 afterwards),
//   d_k Phi_j -> d_k Phi_j - n_k n^l C_ljab              (n^l C_ljab = 0 afterwards),
// with tangential derivatives unchanged; u^+ (outgoing here) keeps D_t; and the u^- rates satisfy the gauge
// constraint's incoming condition d_t C_a = N^k d_k C_a - N n^k d_k C_a (C_a and its changes evaluated here by
// gh_constraints and a finite difference of this file's own) while lying in the row space of dC_a/du^- (the
// other six directions frozen at 0).
// Random states near Kerr-Schild at the outer radius, random gradients, and gamma1 = -1/2 so that u^psi is
// incoming too (the runs' gamma1 = -1 makes its speed 0).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "loom/gr/bjorhus.hpp"
#include "loom/gr/gh_equations.hpp"
#include "loom/gr/kerr_schild.hpp"

namespace loom::gr {
namespace {

struct Sample {
  GhInput in;
  double state[state_size], grad[3][state_size];
  double radial[3];  // the outward normal direction of a sphere through the point
};

Sample random_sample(std::mt19937& rng, double gamma1) {
  std::uniform_real_distribution<double> unit(-1, 1);
  Sample s{};
  const double x[3] = {7.0 + unit(rng), 6.0 + unit(rng), -6.0 + unit(rng)};
  double h[4];
  kerr_schild_state(KerrSchild{1.0, {0.2, 0.3, 0.4}}, x, s.state, h);
  const double r = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  for (int i = 0; i < 3; ++i) s.radial[i] = x[i] / r;
  for (double& v : s.state) v += 0.01 * unit(rng);
  for (auto& g : s.grad)
    for (double& v : g) v = 0.1 * unit(rng);
  for (int c = 0; c < pairs; ++c) {
    s.in.psi[c] = s.state[c];
    s.in.pi[c] = s.state[pi_offset + c];
  }
  for (int c = 0; c < 3 * pairs; ++c) s.in.phi[c] = s.state[phi_offset + c];
  for (int k = 0; k < 3; ++k) {
    for (int c = 0; c < pairs; ++c) {
      s.in.dpsi[k][c] = s.grad[k][c];
      s.in.dpi[k][c] = s.grad[k][pi_offset + c];
    }
    for (int c = 0; c < 3 * pairs; ++c) s.in.dphi[k][c] = s.grad[k][phi_offset + c];
  }
  for (int a = 0; a < 4; ++a) {
    s.in.gauge[a] = h[a] + 0.01 * unit(rng);
    for (int b = 0; b < 4; ++b) s.in.dgauge[a][b] = 0.01 * unit(rng);
  }
  s.in.gamma0 = 0.5, s.in.gamma1 = gamma1, s.in.gamma2 = 0.3;
  return s;
}

// The gradient with the normal parts of C_iab and C_ijab removed (the definition above).
GhInput constraint_free_normal(const Sample& s, const BoundaryFrame& f) {
  GhInput in = s.in;
  for (int ab = 0; ab < pairs; ++ab) {
    double n_c3 = 0;
    for (int i = 0; i < 3; ++i) n_c3 += f.n_up[i] * (s.grad[i][ab] - s.state[phi_offset + i * pairs + ab]);
    for (int k = 0; k < 3; ++k) in.dpsi[k][ab] -= f.n_down[k] * n_c3;
    for (int j = 0; j < 3; ++j) {
      double n_c4 = 0;
      for (int l = 0; l < 3; ++l)
        n_c4 += f.n_up[l] * (s.grad[l][phi_offset + j * pairs + ab] - s.grad[j][phi_offset + l * pairs + ab]);
      for (int k = 0; k < 3; ++k) in.dphi[k][j * pairs + ab] -= f.n_down[k] * n_c4;
    }
  }
  return in;
}

// C_a of a state (gh_constraints) and its change along v (central difference, step 1e-6).
std::array<double, 4> gauge_constraint(const Sample& s, const double* u) {
  GhInput in = s.in;
  for (int c = 0; c < pairs; ++c) in.psi[c] = u[c], in.pi[c] = u[pi_offset + c];
  for (int c = 0; c < 3 * pairs; ++c) in.phi[c] = u[phi_offset + c];
  std::array<double, 4> ca;
  double c3[3 * pairs];
  gh_constraints(in, ca.data(), c3);
  return ca;
}

std::array<double, 4> change(const Sample& s, const double* v) {
  const double step = 1e-6;
  double plus[state_size], minus[state_size];
  for (int c = 0; c < state_size; ++c) plus[c] = s.state[c] + step * v[c], minus[c] = s.state[c] - step * v[c];
  const auto p = gauge_constraint(s, plus), m = gauge_constraint(s, minus);
  std::array<double, 4> d;
  for (int a = 0; a < 4; ++a) d[a] = (p[a] - m[a]) / (2 * step);
  return d;
}

void check_gauge_condition(const Sample& s, const BoundaryFrame& f, const double* rates) {
  double g[4][4];
  unpack(s.state, g);
  const ThreePlusOne t = three_plus_one(g);
  const auto now = change(s, rates);
  std::array<double, 4> want{};
  for (int k = 0; k < 3; ++k) {
    const auto dk = change(s, s.grad[k]);
    for (int a = 0; a < 4; ++a) want[a] += (t.shift[k] - t.lapse * f.n_up[k]) * (dk[a] + s.in.dgauge[k + 1][a]);
  }
  for (int a = 0; a < 4; ++a) EXPECT_NEAR(now[a], want[a], 1e-7 * (1 + std::abs(want[a]))) << "C_a condition " << a;
  // The u^- rates are a combination of the rows m_a = dC_a/du^-: orthogonal to every vector w with m_a . w = 0.
  // Built here as w = e_bc minus its projection on the rows (Gram-Schmidt of the four rows).
  std::array<std::array<double, pairs>, 4> rows{};
  for (int bc = 0; bc < pairs; ++bc) {
    CharacteristicFields e{};
    e.minus[bc] = 1;
    double v[state_size];
    from_characteristic(e, f, s.in.gamma2, v);
    const auto d = change(s, v);
    for (int a = 0; a < 4; ++a) rows[a][bc] = d[a];
  }
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < a; ++b) {
      double dot = 0;
      for (int k = 0; k < pairs; ++k) dot += rows[a][k] * rows[b][k];
      for (int k = 0; k < pairs; ++k) rows[a][k] -= dot * rows[b][k];
    }
    double norm = 0;
    for (int k = 0; k < pairs; ++k) norm += rows[a][k] * rows[a][k];
    for (int k = 0; k < pairs; ++k) rows[a][k] /= std::sqrt(norm);
  }
  const CharacteristicFields c = to_characteristic(rates, f, s.in.gamma2);
  double residual[pairs], size = 0;
  for (int k = 0; k < pairs; ++k) residual[k] = c.minus[k], size = std::max(size, std::abs(c.minus[k]));
  for (int a = 0; a < 4; ++a) {
    double dot = 0;
    for (int k = 0; k < pairs; ++k) dot += rows[a][k] * c.minus[k];
    for (int k = 0; k < pairs; ++k) residual[k] -= dot * rows[a][k];
  }
  for (int k = 0; k < pairs; ++k) EXPECT_NEAR(residual[k], 0.0, 1e-7 * size) << "u^- outside the constraint rows";
  EXPECT_GT(size, 1e-4) << "the condition must need a nonzero u^- rate";
}

TEST(Bjorhus, MatchesTheRightHandSideWithConstraintFreeNormalDerivatives) {
  std::mt19937 rng(19);
  const double gamma1 = -0.5;
  for (int trial = 0; trial < 20; ++trial) {
    const Sample s = random_sample(rng, gamma1);
    const BoundaryFrame f = boundary_frame(s.state, s.radial, gamma1);
    ASSERT_LT(f.speed[mode_psi], 0);
    ASSERT_LT(f.speed[mode_zero], 0);
    ASSERT_LT(f.speed[mode_minus], 0);
    ASSERT_GT(f.speed[mode_plus], 0);

    double corrected[state_size], plain[state_size], expected[state_size];
    gh_rhs(s.in, plain);
    std::copy_n(plain, state_size, corrected);
    double dh[3][4];
    for (int k = 0; k < 3; ++k)
      for (int a = 0; a < 4; ++a) dh[k][a] = s.in.dgauge[k + 1][a];
    bjorhus_rates(corrected, s.state, s.grad, s.in.gauge, dh, f, s.in.gamma2);
    gh_rhs(constraint_free_normal(s, f), expected);

    const CharacteristicFields got = to_characteristic(corrected, f, s.in.gamma2);
    const CharacteristicFields want = to_characteristic(expected, f, s.in.gamma2);
    const CharacteristicFields before = to_characteristic(plain, f, s.in.gamma2);
    double changed = 0;
    for (int ab = 0; ab < pairs; ++ab) {
      EXPECT_NEAR(got.psi[ab], want.psi[ab], 1e-12) << trial << " psi " << ab;
      for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(got.zero[i * pairs + ab], want.zero[i * pairs + ab], 1e-12) << trial << " zero " << i << ab;
        changed = std::max(changed, std::abs(got.zero[i * pairs + ab] - before.zero[i * pairs + ab]));
      }
      EXPECT_NEAR(got.plus[ab], before.plus[ab], 1e-12) << "outgoing u^+ keeps D_t";
    }
    EXPECT_GT(changed, 1e-3) << "the random gradient's constraints must make the correction matter";
    check_gauge_condition(s, f, corrected);
  }
}

}  // namespace
}  // namespace loom::gr
