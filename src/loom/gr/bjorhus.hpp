// Constraint-preserving outer boundary conditions of the Bjorhus type for the first-order GH system (LSKOR 2006,
// section on boundary conditions; Kidder et al. PRD 71 (2005) 064020 for the method): at an outer boundary point
// the time derivative of each incoming characteristic field (characteristics.hpp) is replaced by its value from the
// right-hand side plus a correction that removes the normal derivative carrying an incoming constraint violation.
// Derived here from the principal parts of eqs. (35) and (37):
//  - u^psi = psi: (35) holds (1 + gamma1) N^k d_k psi; its normal part (1 + gamma1) N^k n_k n^i d_i psi is
//    rewritten with n^i Phi_i, i.e. the normal part of the three-index constraint C_iab = d_i psi_ab - Phi_iab
//    (eq. 41) is removed:      d_t u^psi_ab = D_t u^psi_ab + v_psi n^i C_iab,                v_psi = -(1+gamma1) N^k n_k
//  - u^0_i = P_i^j Phi_j (P_i^j = delta_i^j - n_i n^j): (37) holds N^k d_k Phi_j, whose normal part
//    N^k n_k n^l d_l Phi_j is rewritten as N^k n_k n^l d_j Phi_l with the four-index constraint
//    C_ljab = d_l Phi_jab - d_j Phi_lab:  d_t u^0_iab = D_t u^0_iab + v_0 n^l P_i^j C_ljab,  v_0 = -N^k n_k
//  - u^-: the gauge constraint C_a (eq. 40, algebraic in the state) obeys a wave equation whose incoming
//    characteristic at the boundary is t^c d_c C_a + n^k d_k C_a (speed -N^k n_k - N). Setting it to 0,
//                            d_t C_a = N^k d_k C_a - N n^k d_k C_a,
//    fixes 4 of u^-'s 10 rates: d_t C_a is linear in d_t u (dC_a/du . d_t u), and C_a depends on u^- through
//    M_a^bc = dC_a/du^-_bc; d_t u^- = M^T (M M^T)^-1 (the needed change of d_t C_a) on M's row space, and 0
//    (frozen, the stationary analytic solution's rate) on the other 6 (physical and gauge) directions. u^+, if
//    incoming, is frozen.
// Each correction acts only where its mode is incoming (speed < 0); an outgoing mode keeps D_t. Written once for
// both backends (gh_kernels.cpp calls it per boundary point).
#pragma once

#include "loom/core/host_device.hpp"
#include "loom/gr/characteristics.hpp"
#include "loom/gr/gh_equations.hpp"
#include "loom/gr/indices.hpp"

namespace loom::gr {

// C_a (eq. 40) of a 50-value state with gauge source h.
LOOM_HOST_DEVICE inline void gauge_constraint_of(const double* u, const double* h, double (&c)[4]) {
  GhInput in{};
  for (int k = 0; k < pairs; ++k) in.psi[k] = u[k], in.pi[k] = u[pi_offset + k];
  for (int k = 0; k < 3 * pairs; ++k) in.phi[k] = u[phi_offset + k];
  for (int a = 0; a < 4; ++a) in.gauge[a] = h[a];
  GhDerived d;
  gh_derived(in, d);
  for (int a = 0; a < 4; ++a) c[a] = d.gauge_constraint[a];
}

// dC_a/du . v, the change of C_a along a 50-value direction v, by a central difference (C_a is linear in Pi and
// Phi, so only psi's part carries an error, of order (step |v_psi|)^2 ~ 1e-10 relative).
LOOM_HOST_DEVICE inline void gauge_constraint_change(const double* u, const double* h, const double* v,
                                                     double (&dc)[4]) {
  double size = 0;
  for (int k = 0; k < state_size; ++k) size = size > std::abs(v[k]) ? size : std::abs(v[k]);
  for (int a = 0; a < 4; ++a) dc[a] = 0;
  if (size == 0) return;
  const double step = 1e-5 / size;
  double plus[state_size], minus[state_size], cp[4], cm[4];
  for (int k = 0; k < state_size; ++k) plus[k] = u[k] + step * v[k], minus[k] = u[k] - step * v[k];
  gauge_constraint_of(plus, h, cp);
  gauge_constraint_of(minus, h, cm);
  for (int a = 0; a < 4; ++a) dc[a] = (cp[a] - cm[a]) / (2 * step);
}

// x = A^-1 b for a symmetric positive definite 4 x 4 A (Cholesky).
LOOM_HOST_DEVICE inline void solve_spd4(double (&a)[4][4], double (&x)[4]) {
  for (int j = 0; j < 4; ++j) {
    for (int k = 0; k < j; ++k) a[j][j] -= a[j][k] * a[j][k];
    a[j][j] = std::sqrt(a[j][j]);
    for (int i = j + 1; i < 4; ++i) {
      for (int k = 0; k < j; ++k) a[i][j] -= a[i][k] * a[j][k];
      a[i][j] /= a[j][j];
    }
  }
  for (int i = 0; i < 4; ++i) {
    for (int k = 0; k < i; ++k) x[i] -= a[i][k] * x[k];
    x[i] /= a[i][i];
  }
  for (int i = 3; i >= 0; --i) {
    for (int k = i + 1; k < 4; ++k) x[i] -= a[k][i] * x[k];
    x[i] /= a[i][i];
  }
}

// The gauge-constraint condition on u^- (above): `c` holds the characteristic rates with u^- frozen (0); on
// return its u^- rates make d_t C_a = N^k d_k C_a - N n^k d_k C_a. `dh[k]` = d_k H_a.
LOOM_HOST_DEVICE inline void constrain_minus(CharacteristicFields& c, const double* u, const double* h,
                                             const double (&dh)[3][4], const double (&grad)[3][state_size],
                                             const BoundaryFrame& f, double gamma2) {
  const double lapse = 0.5 * (f.speed[mode_plus] - f.speed[mode_minus]);  // v_+- = -N^k n_k +- N
  double g[4][4];
  unpack(u, g);
  const ThreePlusOne t = three_plus_one(g);
  double target[4] = {0, 0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    double dk[4];
    gauge_constraint_change(u, h, grad[k], dk);
    for (int a = 0; a < 4; ++a) target[a] += (t.shift[k] - lapse * f.n_up[k]) * (dk[a] + dh[k][a]);
  }
  double rates[state_size], now[4];
  from_characteristic(c, f, gamma2, rates);
  gauge_constraint_change(u, h, rates, now);
  // M_a^bc: the change of C_a per unit u^-_bc (exact: C_a is linear in Pi and Phi).
  double m[4][pairs];
  for (int bc = 0; bc < pairs; ++bc) {
    CharacteristicFields e{};
    e.minus[bc] = 1;
    double v[state_size], dc[4];
    from_characteristic(e, f, gamma2, v);
    gauge_constraint_change(u, h, v, dc);
    for (int a = 0; a < 4; ++a) m[a][bc] = dc[a];
  }
  double mmt[4][4], x[4];
  for (int a = 0; a < 4; ++a) {
    x[a] = target[a] - now[a];
    for (int b = 0; b < 4; ++b) {
      mmt[a][b] = 0;
      for (int bc = 0; bc < pairs; ++bc) mmt[a][b] += m[a][bc] * m[b][bc];
    }
  }
  solve_spd4(mmt, x);
  for (int bc = 0; bc < pairs; ++bc)
    for (int a = 0; a < 4; ++a) c.minus[bc] += m[a][bc] * x[a];
}

// `rates` (50 values, D_t u of the right-hand side) corrected in place; `u` the state and `grad[k]` its d_k (50
// values each) at the point, h the gauge source H_a and dh[k] its d_k; gamma2 the damping there.
LOOM_HOST_DEVICE inline void bjorhus_rates(double* rates, const double* u, const double (&grad)[3][state_size],
                                           const double* h, const double (&dh)[3][4], const BoundaryFrame& f,
                                           double gamma2) {
  CharacteristicFields c = to_characteristic(rates, f, gamma2);
  const double v_psi = f.speed[mode_psi], v_zero = f.speed[mode_zero];
  for (int ab = 0; ab < pairs; ++ab) {
    if (v_psi < -zero_speed) {
      double normal_c3 = 0;  // n^i C_iab
      for (int i = 0; i < 3; ++i) normal_c3 += f.n_up[i] * (grad[i][ab] - u[phi_offset + i * pairs + ab]);
      c.psi[ab] += v_psi * normal_c3;
    }
    if (v_zero < -zero_speed) {
      // n^l P_i^j C_ljab = n^l C_liab: the part along n_i, n^j n^l C_ljab, vanishes by antisymmetry.
      for (int i = 0; i < 3; ++i) {
        double normal_c4 = 0;
        for (int l = 0; l < 3; ++l)
          normal_c4 += f.n_up[l] * (grad[l][phi_offset + i * pairs + ab] - grad[i][phi_offset + l * pairs + ab]);
        c.zero[i * pairs + ab] += v_zero * normal_c4;
      }
    }
    if (f.speed[mode_plus] < -zero_speed) c.plus[ab] = 0;
    if (f.speed[mode_minus] < -zero_speed) c.minus[ab] = 0;
  }
  if (f.speed[mode_minus] < -zero_speed) constrain_minus(c, u, h, dh, grad, f, gamma2);
  from_characteristic(c, f, gamma2, rates);
}

}  // namespace loom::gr
