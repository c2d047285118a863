// The first-order generalized harmonic system of Lindblom, Scheel, Kidder, Owen and Rinne, "A new generalized
// harmonic evolution system", CQG 23 (2006) S447 (LSKOR), at one point, for both backends. Notation: psi_ab the
// spacetime metric, N the lapse, N^i the shift, g^ij the inverse spatial metric, psi^ab the inverse spacetime
// metric, t^a the unit normal (t_a = (-N, 0, 0, 0)), Pi_ab = -t^c d_c psi_ab, Phi_iab = d_i psi_ab, H_a the gauge
// source, Gamma_abc = (d_b psi_ac + d_c psi_ab - d_a psi_bc) / 2 with d_t psi_ab = -N Pi_ab + N^i Phi_iab, and
// gamma0, gamma1, gamma2 the damping parameters.
//
//  (35) d_t psi_ab - (1 + gamma1) N^k d_k psi_ab = -N Pi_ab - gamma1 N^i Phi_iab
//  (36) d_t Pi_ab - N^k d_k Pi_ab + N g^ki d_k Phi_iab - gamma1 gamma2 N^k d_k psi_ab
//         = 2 N psi^cd (g^ij Phi_ica Phi_jdb - Pi_ca Pi_db - psi^ef Gamma_ace Gamma_bdf)
//           - 2 N nabla_(a H_b) - (1/2) N t^c t^d Pi_cd Pi_ab - N t^c Pi_ci g^ij Phi_jab
//           + N gamma0 [2 delta^c_(a t_b) - psi_ab t^c] C_c - gamma1 gamma2 N^i Phi_iab
//  (37) d_t Phi_iab - N^k d_k Phi_iab + N d_i Pi_ab - N gamma2 d_i psi_ab
//         = (1/2) N t^c t^d Phi_icd Pi_ab + N g^jk t^c Phi_ijc Phi_kab - N gamma2 Phi_iab
// with nabla_(a H_b) = d_(a H_b) - psi^cd Gamma_dab H_c and the constraints
//  (40) C_a = H_a + g^ij Phi_ija + t^b Pi_ba - (1/2) g^i_a psi^bc Phi_ibc - (1/2) t_a psi^bc Pi_bc
//  (41) C_iab = d_i psi_ab - Phi_iab
// where g^i_a = delta^i_a + t^i t_a (so g^i_0 = N^i, g^i_j = delta^i_j). (40) is C_a = H_a + psi^bc Gamma_abc
// written in the first-order variables.
#pragma once

#include "loom/core/host_device.hpp"
#include "loom/gr/indices.hpp"
#include "loom/gr/spacetime.hpp"

namespace loom::gr {

// Everything the right-hand side reads at one point. d_a H_b: dgauge[a][b], a = 0 the time derivative.
struct GhInput {
  double psi[pairs], pi[pairs], phi[3 * pairs];
  double dpsi[3][pairs], dpi[3][pairs], dphi[3][3 * pairs];  // d_k of each, [k][component]
  double gauge[4];
  double dgauge[4][4];
  double gamma0, gamma1, gamma2;
};

struct GhDerived {
  ThreePlusOne s;
  double dpsi4[4][4][4];    // d_c psi_ab: [c][a][b]
  double christoffel[4][4][4];  // Gamma_abc: [a][b][c]
  double gauge_constraint[4];   // C_a
};

// The 3+1 split, d_c psi_ab, Gamma_abc and C_a (eq. 40) of a point.
LOOM_HOST_DEVICE inline void gh_derived(const GhInput& in, GhDerived& d) {
  double g[4][4], pi[4][4];
  unpack(in.psi, g);
  unpack(in.pi, pi);
  d.s = three_plus_one(g);
  const ThreePlusOne& s = d.s;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const int ab = sym(a, b);
      double dt = -s.lapse * pi[a][b];
      for (int i = 0; i < 3; ++i) {
        dt += s.shift[i] * in.phi[i * pairs + ab];
        d.dpsi4[i + 1][a][b] = in.phi[i * pairs + ab];
      }
      d.dpsi4[0][a][b] = dt;
    }
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 4; ++c)
        d.christoffel[a][b][c] = 0.5 * (d.dpsi4[b][a][c] + d.dpsi4[c][a][b] - d.dpsi4[a][b][c]);
  double trace_phi[3] = {0, 0, 0}, trace_pi = 0;  // psi^bc Phi_ibc, psi^bc Pi_bc
  for (int b = 0; b < 4; ++b)
    for (int c = 0; c < 4; ++c) {
      trace_pi += s.inverse[b][c] * pi[b][c];
      for (int i = 0; i < 3; ++i) trace_phi[i] += s.inverse[b][c] * in.phi[i * pairs + sym(b, c)];
    }
  for (int a = 0; a < 4; ++a) {
    double c = in.gauge[a] - 0.5 * s.normal_down[a] * trace_pi;
    for (int b = 0; b < 4; ++b) c += s.normal_up[b] * pi[b][a];
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) c += s.inverse_spatial[i][j] * in.phi[i * pairs + sym(j + 1, a)];
      const double g_ia = (a == i + 1 ? 1.0 : 0.0) + s.normal_up[i + 1] * s.normal_down[a];
      c -= 0.5 * g_ia * trace_phi[i];
    }
    d.gauge_constraint[a] = c;
  }
}

// Eq. (35).
LOOM_HOST_DEVICE inline void gh_psi_rate(const GhInput& in, const GhDerived& d, double* dt_psi) {
  const ThreePlusOne& s = d.s;
  for (int ab = 0; ab < pairs; ++ab) {
    double v = -s.lapse * in.pi[ab];
    for (int k = 0; k < 3; ++k)
      v += (1 + in.gamma1) * s.shift[k] * in.dpsi[k][ab] - in.gamma1 * s.shift[k] * in.phi[k * pairs + ab];
    dt_psi[ab] = v;
  }
}

// Eq. (36).
LOOM_HOST_DEVICE inline void gh_pi_rate(const GhInput& in, const GhDerived& d, double* dt_pi) {
  const ThreePlusOne& s = d.s;
  const double n = s.lapse, g12 = in.gamma1 * in.gamma2;
  double pi[4][4];
  unpack(in.pi, pi);
  // raised[a][d][f] = psi^cd psi^ef Gamma_ace; second_kind[c][a][b] = psi^cd Gamma_dab.
  double half_raised[4][4][4] = {}, raised[4][4][4] = {}, second_kind[4][4][4] = {};
  for (int a = 0; a < 4; ++a)
    for (int dd = 0; dd < 4; ++dd)
      for (int e = 0; e < 4; ++e)
        for (int c = 0; c < 4; ++c) half_raised[a][dd][e] += s.inverse[c][dd] * d.christoffel[a][c][e];
  for (int a = 0; a < 4; ++a)
    for (int dd = 0; dd < 4; ++dd)
      for (int f = 0; f < 4; ++f)
        for (int e = 0; e < 4; ++e) raised[a][dd][f] += half_raised[a][dd][e] * s.inverse[e][f];
  for (int c = 0; c < 4; ++c)
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b)
        for (int dd = 0; dd < 4; ++dd) second_kind[c][a][b] += s.inverse[c][dd] * d.christoffel[dd][a][b];
  // phi_up[a][d][j] = psi^cd g^ij Phi_ica, pi_up[a][d] = psi^cd Pi_ca: the quadratic terms of (36) as
  // contractions over d and j only.
  double phi_up[4][4][3] = {}, pi_up[4][4] = {};
  for (int a = 0; a < 4; ++a)
    for (int c = 0; c < 4; ++c) {
      double g_phi[3] = {0, 0, 0};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) g_phi[j] += s.inverse_spatial[i][j] * in.phi[i * pairs + sym(c, a)];
      for (int dd = 0; dd < 4; ++dd) {
        pi_up[a][dd] += s.inverse[c][dd] * pi[c][a];
        for (int j = 0; j < 3; ++j) phi_up[a][dd][j] += s.inverse[c][dd] * g_phi[j];
      }
    }
  double tt_pi = 0, t_c[4] = {0, 0, 0, 0};  // t^c t^d Pi_cd; t^c C_c in t_c[0]
  for (int c = 0; c < 4; ++c)
    for (int e = 0; e < 4; ++e) tt_pi += s.normal_up[c] * s.normal_up[e] * pi[c][e];
  for (int c = 0; c < 4; ++c) t_c[0] += s.normal_up[c] * d.gauge_constraint[c];
  double t_pi[3];  // t^c Pi_ci
  for (int i = 0; i < 3; ++i) {
    t_pi[i] = 0;
    for (int c = 0; c < 4; ++c) t_pi[i] += s.normal_up[c] * pi[c][i + 1];
  }
  for (int a = 0; a < 4; ++a)
    for (int b = a; b < 4; ++b) {
      const int ab = sym(a, b);
      double v = 0;
      for (int k = 0; k < 3; ++k) {
        v += s.shift[k] * in.dpi[k][ab] + g12 * s.shift[k] * in.dpsi[k][ab] - g12 * s.shift[k] * in.phi[k * pairs + ab];
        for (int i = 0; i < 3; ++i) v -= n * s.inverse_spatial[k][i] * in.dphi[k][i * pairs + ab];
      }
      double quad = 0;
      for (int dd = 0; dd < 4; ++dd) {
        quad -= pi_up[a][dd] * pi[dd][b];
        for (int j = 0; j < 3; ++j) quad += phi_up[a][dd][j] * in.phi[j * pairs + sym(dd, b)];
      }
      for (int dd = 0; dd < 4; ++dd)
        for (int f = 0; f < 4; ++f) quad -= raised[a][dd][f] * d.christoffel[b][dd][f];
      v += 2 * n * quad;
      double grad_h = 0.5 * (in.dgauge[a][b] + in.dgauge[b][a]);
      for (int c = 0; c < 4; ++c) grad_h -= second_kind[c][a][b] * in.gauge[c];
      v -= 2 * n * grad_h + 0.5 * n * tt_pi * in.pi[ab];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) v -= n * t_pi[i] * s.inverse_spatial[i][j] * in.phi[j * pairs + ab];
      v += n * in.gamma0 *
           (s.normal_down[b] * d.gauge_constraint[a] + s.normal_down[a] * d.gauge_constraint[b] - in.psi[ab] * t_c[0]);
      dt_pi[ab] = v;
    }
}

// Eq. (37).
LOOM_HOST_DEVICE inline void gh_phi_rate(const GhInput& in, const GhDerived& d, double* dt_phi) {
  const ThreePlusOne& s = d.s;
  const double n = s.lapse;
  for (int i = 0; i < 3; ++i) {
    double tt_phi = 0, t_phi[3] = {0, 0, 0};  // t^c t^d Phi_icd; t^c Phi_ijc
    for (int c = 0; c < 4; ++c) {
      for (int e = 0; e < 4; ++e) tt_phi += s.normal_up[c] * s.normal_up[e] * in.phi[i * pairs + sym(c, e)];
      for (int j = 0; j < 3; ++j) t_phi[j] += s.normal_up[c] * in.phi[i * pairs + sym(j + 1, c)];
    }
    for (int ab = 0; ab < pairs; ++ab) {
      double v = -n * in.dpi[i][ab] + n * in.gamma2 * in.dpsi[i][ab] + 0.5 * n * tt_phi * in.pi[ab] -
                 n * in.gamma2 * in.phi[i * pairs + ab];
      for (int k = 0; k < 3; ++k) {
        v += s.shift[k] * in.dphi[k][i * pairs + ab];
        for (int j = 0; j < 3; ++j) v += n * s.inverse_spatial[j][k] * t_phi[j] * in.phi[k * pairs + ab];
      }
      dt_phi[i * pairs + ab] = v;
    }
  }
}

// d_t of the 50-value state (psi, Pi, Phi) at one point, eqs. (35)-(37); C_a (eq. 40) into `gauge_constraint`
// when it is not null.
LOOM_HOST_DEVICE inline void gh_rhs(const GhInput& in, double* dt_state, double* gauge_constraint = nullptr) {
  GhDerived d;
  gh_derived(in, d);
  gh_psi_rate(in, d, dt_state);
  gh_pi_rate(in, d, dt_state + pi_offset);
  gh_phi_rate(in, d, dt_state + phi_offset);
  if (gauge_constraint != nullptr)
    for (int a = 0; a < 4; ++a) gauge_constraint[a] = d.gauge_constraint[a];
}

// C_a (eq. 40) and C_iab (eq. 41) at one point.
LOOM_HOST_DEVICE inline void gh_constraints(const GhInput& in, double* gauge_constraint, double* three_index) {
  GhDerived d;
  gh_derived(in, d);
  for (int a = 0; a < 4; ++a) gauge_constraint[a] = d.gauge_constraint[a];
  for (int i = 0; i < 3; ++i)
    for (int ab = 0; ab < pairs; ++ab) three_index[i * pairs + ab] = in.dpsi[i][ab] - in.phi[i * pairs + ab];
}

}  // namespace loom::gr
