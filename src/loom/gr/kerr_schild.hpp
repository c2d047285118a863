// The Kerr solution in Kerr-Schild coordinates for a mass m and a spin vector chi of any direction (|chi| < 1),
// in closed form with its spatial derivatives (no finite differences); stationary, so d_t of everything is 0.
// With a_i = m chi_i, rho^2 = x.x, s = a.x:
//   r^4 - (rho^2 - a^2) r^2 - s^2 = 0                       (the spheroidal radius, the positive root)
//   H = m r^3 / (r^4 + s^2)
//   l_a = (1, l_i),  l_i = (r x_i - (a x x)_i + s a_i / r) / (r^2 + a^2)
//   psi_ab = eta_ab + 2 H l_a l_b                              (eta = diag(-1, 1, 1, 1))
// and by implicit differentiation of the quartic:
//   d_i r = r (r^2 x_i + s a_i) / (r^4 + s^2)
//   d_i H = m [(3 r^2 s^2 - r^6) d_i r - 2 r^3 s a_i] / (r^4 + s^2)^2
//   d_i l_j = [d_i r x_j + r delta_ij - eps_jki a_k + a_i a_j / r - s a_j d_i r / r^2 - 2 r l_j d_i r] / (r^2 + a^2)
// For chi along z these reduce to the textbook form l = ((r x + a y), (r y - a x), z (r^2 + a^2) / r) / (r^2 + a^2).
// The GH variables follow (LSKOR 2006, eqs. 23-24): Phi_iab = d_i psi_ab, Pi_ab = -t^c d_c psi_ab =
// N^i Phi_iab / N, and the gauge source that keeps the coordinates fixed: with C_a = H_a + Gamma_a (LSKOR eq. 40)
// H_a = -psi^bc Gamma_abc, Gamma_abc = (d_b psi_ac + d_c psi_ab - d_a psi_bc) / 2.
#pragma once

#include <cmath>

#include "loom/core/host_device.hpp"
#include "loom/gr/indices.hpp"
#include "loom/gr/spacetime.hpp"

namespace loom::gr {

struct KerrSchild {
  double mass = 1;
  double spin[3] = {0, 0, 0};  // the dimensionless chi = J / m^2
};

// H, l_a and their spatial derivatives at one point.
struct KerrSchildFactors {
  double r = 0, h = 0;
  double l[4] = {1, 0, 0, 0};
  double dh[3] = {};
  double dl[3][4] = {};  // dl[i][a] = d_i l_a (d_i l_0 = 0)
};

LOOM_HOST_DEVICE inline KerrSchildFactors kerr_schild_factors(const KerrSchild& bh, const double (&x)[3]) {
  const double a[3] = {bh.mass * bh.spin[0], bh.mass * bh.spin[1], bh.mass * bh.spin[2]};
  const double a2 = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
  const double rho2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  const double s = a[0] * x[0] + a[1] * x[1] + a[2] * x[2];
  const double half = 0.5 * (rho2 - a2);
  const double r2 = half + std::sqrt(half * half + s * s), r = std::sqrt(r2);
  const double d = r2 * r2 + s * s, ra = r2 + a2;
  const double axx[3] = {a[1] * x[2] - a[2] * x[1], a[2] * x[0] - a[0] * x[2], a[0] * x[1] - a[1] * x[0]};
  KerrSchildFactors f;
  f.r = r;
  f.h = bh.mass * r * r2 / d;
  double dr[3];
  for (int i = 0; i < 3; ++i) {
    f.l[i + 1] = (r * x[i] - axx[i] + s * a[i] / r) / ra;
    dr[i] = r * (r2 * x[i] + s * a[i]) / d;
    f.dh[i] = bh.mass * ((3 * r2 * s * s - r2 * r2 * r2) * dr[i] - 2 * r * r2 * s * a[i]) / (d * d);
  }
  // eps_a[j][i] = eps_jki a_k = d_i (a x x)_j.
  const double eps_a[3][3] = {{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      f.dl[i][j + 1] = (dr[i] * x[j] + (i == j ? r : 0.0) - eps_a[j][i] + a[i] * a[j] / r - s * a[j] * dr[i] / r2 -
                        2 * r * f.l[j + 1] * dr[i]) /
                       ra;
  return f;
}

// psi_ab (10 values) and Phi_iab = d_i psi_ab (30 values, [i * 10 + sym(a, b)]).
LOOM_HOST_DEVICE inline void kerr_schild_metric(const KerrSchild& bh, const double (&x)[3], double* psi,
                                                double* phi) {
  const KerrSchildFactors f = kerr_schild_factors(bh, x);
  for (int a = 0; a < 4; ++a)
    for (int b = a; b < 4; ++b) {
      const double eta = a == b ? (a == 0 ? -1.0 : 1.0) : 0.0;
      psi[sym(a, b)] = eta + 2 * f.h * f.l[a] * f.l[b];
      for (int i = 0; i < 3; ++i)
        phi[i * pairs + sym(a, b)] =
            2 * (f.dh[i] * f.l[a] * f.l[b] + f.h * f.dl[i][a] * f.l[b] + f.h * f.l[a] * f.dl[i][b]);
    }
}

// The evolved GH variables of the stationary solution: psi, Pi = N^i Phi_i / N, Phi (the 50-value state of
// indices.hpp), and the gauge source H_a (4 values).
LOOM_HOST_DEVICE inline void kerr_schild_state(const KerrSchild& bh, const double (&x)[3], double* state,
                                               double* gauge) {
  double* psi = state;
  double* pi = state + pi_offset;
  double* phi = state + phi_offset;
  kerr_schild_metric(bh, x, psi, phi);
  double g[4][4];
  unpack(psi, g);
  const ThreePlusOne s = three_plus_one(g);
  for (int c = 0; c < pairs; ++c) {
    double v = 0;
    for (int i = 0; i < 3; ++i) v += s.shift[i] * phi[i * pairs + c];
    pi[c] = v / s.lapse;
  }
  if (gauge == nullptr) return;
  // d_c psi_ab with d_t = 0: dpsi[c][a][b].
  double dpsi[4][4][4] = {};
  for (int i = 0; i < 3; ++i)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) dpsi[i + 1][a][b] = phi[i * pairs + sym(a, b)];
  for (int a = 0; a < 4; ++a) {
    double contracted = 0;
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 4; ++c)
        contracted += s.inverse[b][c] * 0.5 * (dpsi[b][a][c] + dpsi[c][a][b] - dpsi[a][b][c]);
    gauge[a] = -contracted;
  }
}

// The outer horizon's spheroidal radius r_+ = m (1 + sqrt(1 - |chi|^2)).
LOOM_HOST_DEVICE inline double kerr_horizon_radius(const KerrSchild& bh) {
  const double chi2 = bh.spin[0] * bh.spin[0] + bh.spin[1] * bh.spin[1] + bh.spin[2] * bh.spin[2];
  return bh.mass * (1 + std::sqrt(1 - chi2));
}

}  // namespace loom::gr
