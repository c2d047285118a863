// The constraint damping of the GH right-hand side (gh_equations.hpp), checked against the constraint evolution
// that LSKOR's eqs. (35)-(37), (40), (41) imply, not against the code's own terms. At points of Kerr-Schild data
// a smooth constraint violation is added and d_t C is formed from the right-hand side by the chain rule:
//  - Phi_iab + e f_iab(x) (psi, Pi exact): C_iab = -e f_iab, C_a = 0 to first order is not needed. With
//    d_t C_iab = d_i (d_t psi_ab) - d_t Phi_iab (the x-derivative of the psi rate by central differences of the
//    right-hand side at neighbouring points, the perturbation's derivatives analytic), eqs. (35) and (37) give,
//    linear in e (the terms that cancel on exact data use d_i N = -N t^c t^d Phi_icd / 2):
//      d_t C_iab = (1 + gamma1) N^k d_k C_iab + gamma1 N^k C_kiab + gamma1 (d_i N^k) C_kab - gamma2 N C_iab
//                  + (1/2) N t^c t^d C_icd Pi_ab + N g^jk t^c (C_ijc Phi_kab + Phi_ijc C_kab)
//    with C_kiab = d_k Phi_iab - d_i Phi_kab: the only damping is -gamma2 N C_iab;
//  - Pi_ab + e g_ab(x) (psi, Phi exact): only C_a != 0, C_iab stays 0 (d_t C_iab = 0), and C_a, being algebraic
//    in (psi, Pi, Phi), changes at d_t C_a = (dC_a/du) d_t u. Eq. (36)'s damping term
//    N gamma0 [t_b C_a + t_a C_b - psi_ab t^c C_c] through C_a's Pi part t^b Pi_ba - t_a psi^bc Pi_bc / 2 gives
//      d(d_t C_a)/d gamma0 = -N (C_a - t_a t^c C_c):
//    the spatial part of C_a damped at rate gamma0 N, the normal part t^a C_a at 2 gamma0 N; gamma1 and gamma2 act
//    only through C_iab (eqs. 35-36), so d_t C_a does not depend on them here.
// C_a is evaluated by this file's own formula C_a = H_a + psi^bc Gamma_abc (the definition behind eq. 40).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "ks_fd.hpp"
#include "loom/gr/gh_equations.hpp"
#include "loom/gr/kerr_schild.hpp"

namespace loom::gr {
namespace {

const KerrSchild hole{1.0, {0.2, 0.3, 0.4}};
constexpr double fd_step = 2e-3;

struct Gammas {
  double g0, g1, g2;
};

// A smooth perturbation of 30 components, amp_c sin(w . x + phase_c), with its analytic gradient.
struct Wave {
  double amp[3 * pairs], phase[3 * pairs], w[3];
  double value(const double (&x)[3], int c) const { return amp[c] * std::sin(dot(x) + phase[c]); }
  double grad(const double (&x)[3], int k, int c) const { return amp[c] * w[k] * std::cos(dot(x) + phase[c]); }
  double dot(const double (&x)[3]) const { return w[0] * x[0] + w[1] * x[1] + w[2] * x[2]; }
};

Wave random_wave(std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(-1, 1);
  Wave f{};
  for (int c = 0; c < 3 * pairs; ++c) f.amp[c] = unit(rng), f.phase[c] = 3 * unit(rng);
  for (double& v : f.w) v = 1.5 * unit(rng);
  return f;
}

// The exact state (50) and gauge source (4) at x, and their x-derivatives by sixth-order differences.
struct Exact {
  double u[state_size], h[4], du[3][state_size], dh[3][4];
};

std::vector<double> exact_values(const double (&x)[3]) {
  std::vector<double> v(state_size + 4);
  kerr_schild_state(hole, x, v.data(), v.data() + state_size);
  return v;
}

Exact exact_at(const double (&x)[3]) {
  Exact e{};
  kerr_schild_state(hole, x, e.u, e.h);
  for (int k = 0; k < 3; ++k) {
    const auto d = testing::central_difference(exact_values, x, k, fd_step);
    std::copy_n(d.begin(), state_size, e.du[k]);
    std::copy_n(d.begin() + state_size, 4, e.dh[k]);
  }
  return e;
}

// The right-hand side's input at x: exact data with Phi + e_phi f and Pi + e_pi g (g: f's first 10 components of
// `pi_wave`), d_i psi the exact (analytic) Phi.
struct Perturbed {
  const Wave& phi_wave;
  const Wave& pi_wave;
  double e_phi = 0, e_pi = 0;
  Gammas gammas{};

  GhInput input(const double (&x)[3]) const {
    const Exact e = exact_at(x);
    GhInput in{};
    for (int c = 0; c < pairs; ++c) {
      in.psi[c] = e.u[c];
      in.pi[c] = e.u[pi_offset + c] + e_pi * pi_wave.value(x, c);
      for (int k = 0; k < 3; ++k) {
        in.dpsi[k][c] = e.u[phi_offset + k * pairs + c];
        in.dpi[k][c] = e.du[k][pi_offset + c] + e_pi * pi_wave.grad(x, k, c);
      }
    }
    for (int c = 0; c < 3 * pairs; ++c) {
      in.phi[c] = e.u[phi_offset + c] + e_phi * phi_wave.value(x, c);
      for (int k = 0; k < 3; ++k) in.dphi[k][c] = e.du[k][phi_offset + c] + e_phi * phi_wave.grad(x, k, c);
    }
    for (int a = 0; a < 4; ++a) {
      in.gauge[a] = e.h[a];
      for (int k = 0; k < 3; ++k) in.dgauge[k + 1][a] = e.dh[k][a];
    }
    in.gamma0 = gammas.g0, in.gamma1 = gammas.g1, in.gamma2 = gammas.g2;
    return in;
  }

  std::array<double, state_size> rates(const double (&x)[3]) const {
    std::array<double, state_size> r{};
    gh_rhs(input(x), r.data());
    return r;
  }

  // d_t C_iab = d_i (d_t psi_ab) - d_t Phi_iab.
  std::array<double, 3 * pairs> three_index_rate(const double (&x)[3]) const {
    const auto psi_rate = [&](const double(&y)[3]) {
      const auto r = rates(y);
      return std::vector<double>(r.begin(), r.begin() + pairs);
    };
    const auto centre = rates(x);
    std::array<double, 3 * pairs> out{};
    for (int i = 0; i < 3; ++i) {
      const auto d = testing::central_difference(psi_rate, x, i, fd_step);
      for (int ab = 0; ab < pairs; ++ab) out[i * pairs + ab] = d[ab] - centre[phi_offset + i * pairs + ab];
    }
    return out;
  }

  // d_t C_a = (dC_a/du) d_t u, by a central difference along the rates.
  std::array<double, 4> gauge_rate(const double (&x)[3]) const;
};

// C_a = H_a + psi^bc Gamma_abc, Gamma_abc = (d_b psi_ac + d_c psi_ab - d_a psi_bc) / 2, d_t psi = -N Pi + N^i Phi_i.
std::array<double, 4> gauge_constraint(const double* u, const double* h) {
  double g[4][4];
  unpack(u, g);
  const ThreePlusOne s = three_plus_one(g);
  double d[4][4][4];  // d_c psi_ab
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const int ab = sym(a, b);
      d[0][a][b] = -s.lapse * u[pi_offset + ab];
      for (int i = 0; i < 3; ++i) {
        d[i + 1][a][b] = u[phi_offset + i * pairs + ab];
        d[0][a][b] += s.shift[i] * u[phi_offset + i * pairs + ab];
      }
    }
  std::array<double, 4> c{};
  for (int a = 0; a < 4; ++a) {
    c[a] = h[a];
    for (int b = 0; b < 4; ++b)
      for (int e = 0; e < 4; ++e) c[a] += s.inverse[b][e] * 0.5 * (d[b][a][e] + d[e][a][b] - d[a][b][e]);
  }
  return c;
}

std::array<double, state_size> state_of(const GhInput& in) {
  std::array<double, state_size> u{};
  std::copy_n(in.psi, pairs, u.begin());
  std::copy_n(in.pi, pairs, u.begin() + pi_offset);
  std::copy_n(in.phi, 3 * pairs, u.begin() + phi_offset);
  return u;
}

std::array<double, 4> Perturbed::gauge_rate(const double (&x)[3]) const {
  const GhInput in = input(x);
  const auto u = state_of(in);
  const auto r = rates(x);
  const double step = 1e-6;
  std::array<double, state_size> plus{}, minus{};
  for (int c = 0; c < state_size; ++c) plus[c] = u[c] + step * r[c], minus[c] = u[c] - step * r[c];
  const auto p = gauge_constraint(plus.data(), in.gauge), m = gauge_constraint(minus.data(), in.gauge);
  std::array<double, 4> out{};
  for (int a = 0; a < 4; ++a) out[a] = (p[a] - m[a]) / (2 * step);
  return out;
}

// Sample points from just outside the excision radius to the outer shell, off the coordinate planes.
const double sample_points[][3] = {{1.1, -0.9, 0.7}, {-1.2, 0.6, -1.0}, {2.0, 1.5, -1.2}, {-4.0, 3.0, 5.5}};

double largest(const std::array<double, 3 * pairs>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// The linear part in e of d_t C_iab for Phi + e f: LSKOR's constraint evolution (the header) for C = -f.
std::array<double, 3 * pairs> expected_three_index_rate(const Wave& f, const double (&x)[3], const Gammas& gm) {
  const Exact e = exact_at(x);
  double g[4][4];
  unpack(e.u, g);
  const ThreePlusOne s = three_plus_one(g);
  const auto shift_of = [](const double(&y)[3]) {
    double u[state_size], gg[4][4];
    kerr_schild_state(hole, y, u, nullptr);
    unpack(u, gg);
    const ThreePlusOne t = three_plus_one(gg);
    return std::vector<double>(t.shift, t.shift + 3);
  };
  double dshift[3][3];  // d_i N^k
  for (int i = 0; i < 3; ++i) {
    const auto d = testing::central_difference(shift_of, x, i, fd_step);
    for (int k = 0; k < 3; ++k) dshift[i][k] = d[k];
  }
  const auto c = [&](int i, int a, int b) { return -f.value(x, i * pairs + sym(a, b)); };
  const auto phi = [&](int i, int a, int b) { return e.u[phi_offset + i * pairs + sym(a, b)]; };
  const double n = s.lapse;
  std::array<double, 3 * pairs> out{};
  for (int i = 0; i < 3; ++i)
    for (int a = 0; a < 4; ++a)
      for (int b = a; b < 4; ++b) {
        const int iab = i * pairs + sym(a, b);
        double v = -gm.g2 * n * c(i, a, b);
        for (int k = 0; k < 3; ++k) {
          const double c4 = f.grad(x, k, iab) - f.grad(x, i, k * pairs + sym(a, b));  // C_kiab
          v += (1 + gm.g1) * s.shift[k] * -f.grad(x, k, iab) + gm.g1 * s.shift[k] * c4 +
               gm.g1 * dshift[i][k] * c(k, a, b);
        }
        for (int cc = 0; cc < 4; ++cc)
          for (int d = 0; d < 4; ++d)
            v += 0.5 * n * s.normal_up[cc] * s.normal_up[d] * c(i, cc, d) * e.u[pi_offset + sym(a, b)];
        for (int j = 0; j < 3; ++j)
          for (int k = 0; k < 3; ++k)
            for (int cc = 0; cc < 4; ++cc)
              v += n * s.inverse_spatial[j][k] * s.normal_up[cc] *
                   (c(i, j + 1, cc) * phi(k, a, b) + phi(i, j + 1, cc) * c(k, a, b));
        out[iab] = v;
      }
  return out;
}

TEST(GhDamping, ThreeIndexConstraintEvolvesAsLskorsConstraintSystem) {
  std::mt19937 rng(41);
  const Wave f = random_wave(rng), none{};
  const double e = 1e-2;
  for (const Gammas gm : {Gammas{2.0, -1.0, 0.7}, Gammas{0.4, -0.5, 1.3}})
    for (const auto& x : sample_points) {
      const auto plus = Perturbed{f, none, e, 0, gm}.three_index_rate(x);
      const auto minus = Perturbed{f, none, -e, 0, gm}.three_index_rate(x);
      const auto want = expected_three_index_rate(f, x, gm);
      const double scale = largest(want);
      ASSERT_GT(scale, 0.1);
      for (int c = 0; c < 3 * pairs; ++c)
        EXPECT_NEAR((plus[c] - minus[c]) / (2 * e), want[c], 1e-7 * scale) << "component " << c << " at x0 " << x[0];
    }
}

// Each damping parameter's sign and factor on its own: d(d_t C)/d gamma by differences in gamma (the right-hand
// side is linear in gamma0 and gamma2).
TEST(GhDamping, Gamma2DampsTheThreeIndexConstraintAtRateGamma2N) {
  std::mt19937 rng(42);
  const Wave f = random_wave(rng), none{};
  const double e = 0.05;
  for (const auto& x : sample_points) {
    const Gammas base{1.0, -1.0, 0.5}, more_g2{1.0, -1.0, 1.5}, more_g0{2.0, -1.0, 0.5};
    const auto r0 = Perturbed{f, none, e, 0, base}.three_index_rate(x);
    const auto r2 = Perturbed{f, none, e, 0, more_g2}.three_index_rate(x);
    const auto r00 = Perturbed{f, none, e, 0, more_g0}.three_index_rate(x);
    double u[state_size], gg[4][4];
    kerr_schild_state(hole, x, u, nullptr);
    unpack(u, gg);
    const double n = three_plus_one(gg).lapse;
    for (int c = 0; c < 3 * pairs; ++c) {
      const double constraint = -e * f.value(x, c);
      EXPECT_NEAR(r2[c] - r0[c], -n * constraint, 1e-8) << "d/d gamma2 of component " << c;
      EXPECT_NEAR(r00[c] - r0[c], 0.0, 1e-8) << "gamma0 must not act on C_iab, component " << c;
    }
  }
}

TEST(GhDamping, Gamma0DampsTheGaugeConstraint) {
  std::mt19937 rng(43);
  const Wave none{}, g = random_wave(rng);
  const double e = 0.1;
  for (const auto& x : sample_points) {
    const Gammas base{1.0, -1.0, 0.5};
    const Perturbed p{none, g, 0, e, base};
    const GhInput in = p.input(x);
    const auto u = state_of(in);
    const auto ca = gauge_constraint(u.data(), in.gauge);
    ASSERT_GT(std::abs(ca[0]) + std::abs(ca[1]), 1e-3);
    const auto r0 = p.gauge_rate(x);
    const auto r_g0 = Perturbed{none, g, 0, e, {2.0, -1.0, 0.5}}.gauge_rate(x);
    const auto r_g1 = Perturbed{none, g, 0, e, {1.0, -0.3, 0.5}}.gauge_rate(x);
    const auto r_g2 = Perturbed{none, g, 0, e, {1.0, -1.0, 1.5}}.gauge_rate(x);
    double gg[4][4];
    unpack(u.data(), gg);
    const ThreePlusOne s = three_plus_one(gg);
    double t_c = 0;
    for (int a = 0; a < 4; ++a) t_c += s.normal_up[a] * ca[a];
    for (int a = 0; a < 4; ++a) {
      const double want = -s.lapse * (ca[a] - s.normal_down[a] * t_c);
      EXPECT_NEAR(r_g0[a] - r0[a], want, 1e-7) << "d/d gamma0 of C_" << a;
      EXPECT_NEAR(r_g1[a] - r0[a], 0.0, 1e-7) << "gamma1 acts on C_" << a << " without C_iab";
      EXPECT_NEAR(r_g2[a] - r0[a], 0.0, 1e-7) << "gamma2 acts on C_" << a << " without C_iab";
    }
    // C_iab = 0 stays 0: its rate has no C_a source.
    const auto c3 = p.three_index_rate(x);
    EXPECT_LT(largest(c3), 1e-8) << "a Pi perturbation must leave d_t C_iab = 0";
  }
}

}  // namespace
}  // namespace loom::gr
