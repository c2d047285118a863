// A reduced model of the inner shell for issue 19's excision-surface mode (docs/gr.md, "Where the excision mode
// comes from"): the GH system linearised about the exact Kerr-Schild hole along one ray x = r e (e a unit vector),
// for perturbations du(r) that depend on r alone (their Cartesian gradient on the ray is e d_r du), discretised
// as loom's inner shell is along r: Chebyshev-Gauss-Lobatto collocation on [r_inner, r_outer], nothing imposed at
// the excision surface, the outer end in penalty form towards the unperturbed solution (penalty_merge at
// |v| / w, w = L / (N (N - 1))). A dense matrix of 50 N rows, so that its spectrum is a LAPACK call:
//   J = blockdiag(A_i) + [B_i D_ij] + the penalty at i = N - 1,
// A_i = d(rhs)/d(u) and B_i = e^k d(rhs)/d(d_k u) at the background of point i (the pointwise right-hand side
// gh_rhs of gh_equations.hpp, differentiated numerically: exact in d_k u, where it is linear; central differences of
// step 1e-6 in u), D the radial Chebyshev derivative. The background's gradients (of Pi, Phi and H_a) are the
// analytic fields' by sixth-order differences (ks_fd.hpp). Points are ordered point-major: row 50 i + c.
#pragma once

#include <cmath>
#include <functional>
#include <vector>

#include "ks_fd.hpp"
#include "loom/gr/characteristics.hpp"
#include "loom/gr/damping.hpp"
#include "loom/gr/gh_equations.hpp"
#include "loom/gr/kerr_schild.hpp"
#include "loom/spectral/basis_1d.hpp"

namespace loom::gr::testing {

// A dense n x n matrix, column-major (LAPACK's layout).
struct Dense {
  int n = 0;
  std::vector<double> a;
  explicit Dense(int size) : n(size), a(std::size_t(size) * size, 0.0) {}
  double& operator()(int i, int j) { return a[std::size_t(j) * n + i]; }
  double operator()(int i, int j) const { return a[std::size_t(j) * n + i]; }
};

inline Dense product(const Dense& x, const Dense& y) {
  Dense z(x.n);
  for (int j = 0; j < x.n; ++j)
    for (int k = 0; k < x.n; ++k) {
      const double ykj = y(k, j);
      if (ykj == 0) continue;
      for (int i = 0; i < x.n; ++i) z(i, j) += x(i, k) * ykj;
    }
  return z;
}

// The matrix of a linear map of N values (applied to each unit vector).
inline std::vector<double> line_matrix(int n, const std::function<void(const double*, double*)>& map) {
  std::vector<double> m(std::size_t(n) * n), e(n), out(n);
  for (int j = 0; j < n; ++j) {
    std::fill(e.begin(), e.end(), 0.0);
    e[j] = 1;
    map(e.data(), out.data());
    for (int i = 0; i < n; ++i) m[std::size_t(i) * n + j] = out[i];  // row-major m[i][j]
  }
  return m;
}

struct RadialModel {
  KerrSchild hole;
  double direction[3] = {0, 0, 1};  // the ray's unit vector
  int n = 10;                       // radial points
  double r_inner = 1.62, r_outer = 6;
  Damping damping{};
  bool gauge_terms = true;  // false: the terms with H_a left out of the linearisation (a diagnostic)
};

// The background of one point: the state, its gradient [k][c], H_a and d_a H_b.
struct Background {
  double u[state_size], du[3][state_size], h[4], dh[4][4];
};

inline Background background(const KerrSchild& hole, const double (&x)[3]) {
  Background b{};
  kerr_schild_state(hole, x, b.u, b.h);
  const auto state = [&](const double (&y)[3]) {
    std::vector<double> v(state_size + 4);
    kerr_schild_state(hole, y, v.data(), v.data() + state_size);
    return v;
  };
  for (int k = 0; k < 3; ++k) {
    const auto d = central_difference(state, x, k, 1e-3);
    for (int c = 0; c < state_size; ++c) b.du[k][c] = d[c];
    for (int a = 0; a < 4; ++a) b.dh[k + 1][a] = d[state_size + a];
  }
  for (int a = 0; a < 4; ++a) b.dh[0][a] = 0;  // stationary
  return b;
}

// gh_rhs at a point from a 50-value state and its gradient.
inline void point_rhs(const Background& b, const double* u, const double (*du)[state_size], double g0, double g1,
                      double g2, double* rates) {
  GhInput in{};
  for (int c = 0; c < pairs; ++c) {
    in.psi[c] = u[c];
    in.pi[c] = u[pi_offset + c];
    for (int k = 0; k < 3; ++k) in.dpsi[k][c] = du[k][c], in.dpi[k][c] = du[k][pi_offset + c];
  }
  for (int c = 0; c < 3 * pairs; ++c) {
    in.phi[c] = u[phi_offset + c];
    for (int k = 0; k < 3; ++k) in.dphi[k][c] = du[k][phi_offset + c];
  }
  for (int a = 0; a < 4; ++a) {
    in.gauge[a] = b.h[a];
    for (int c = 0; c < 4; ++c) in.dgauge[a][c] = b.dh[a][c];
  }
  in.gamma0 = g0, in.gamma1 = g1, in.gamma2 = g2;
  gh_rhs(in, rates);
}

// The linearised operator split as the model's filter needs it: the interior rates and the outer penalty.
struct RadialOperator {
  Dense interior, penalty;
  std::vector<Dense> local;  // A_i alone (50 x 50 per point): the non-principal terms
  std::vector<double> radii;
};

inline RadialOperator radial_operator(const RadialModel& m) {
  const int n = m.n, size = state_size * n;
  const spectral::Basis1D basis(spectral::BasisKind::chebyshev, n, m.r_inner, m.r_outer);
  const std::vector<double> d = line_matrix(n, [&](const double* in, double* out) { basis.derivative(in, out); });
  RadialOperator op{Dense(size), Dense(size), std::vector<Dense>(n, Dense(state_size)), basis.points()};
  const double* e = m.direction;
  for (int i = 0; i < n; ++i) {
    const double r = basis.points()[i];
    const double x[3] = {r * e[0], r * e[1], r * e[2]};
    Background b = background(m.hole, x);
    if (!m.gauge_terms) std::fill_n(b.h, 4, 0.0), std::fill_n(&b.dh[0][0], 16, 0.0);
    const double g0 = damping_gamma0(m.damping, r), g1 = m.damping.gamma1, g2 = damping_gamma2(m.damping, r);
    double base[state_size], plus[state_size], minus[state_size], u[state_size], du[3][state_size];
    point_rhs(b, b.u, b.du, g0, g1, g2, base);
    for (int c = 0; c < state_size; ++c) {
      // A_i: central differences in u_c.
      const double h = 1e-6;
      std::copy_n(b.u, state_size, u);
      u[c] += h;
      point_rhs(b, u, b.du, g0, g1, g2, plus);
      u[c] -= 2 * h;
      point_rhs(b, u, b.du, g0, g1, g2, minus);
      for (int q = 0; q < state_size; ++q) {
        op.local[i](q, c) = (plus[q] - minus[q]) / (2 * h);
        op.interior(state_size * i + q, state_size * i + c) += op.local[i](q, c);
      }
      // B_i = e^k d(rhs)/d(d_k u_c): the rhs is linear in the gradient, so one difference of step 1 is exact.
      for (int k = 0; k < 3; ++k) std::copy_n(b.du[k], state_size, du[k]);
      for (int k = 0; k < 3; ++k) du[k][c] += e[k];
      point_rhs(b, b.u, du, g0, g1, g2, plus);
      for (int j = 0; j < n; ++j) {
        const double dij = d[std::size_t(i) * n + j];
        for (int q = 0; q < state_size; ++q) op.interior(state_size * i + q, state_size * j + c) += (plus[q] - base[q]) * dij;
      }
    }
    if (i != n - 1) continue;
    // The outer end: the incoming modes' rates pulled towards the unperturbed solution (penalty_merge, linear in
    // the perturbation, the frame from the background).
    const BoundaryFrame frame = boundary_frame(b.u, {e[0], e[1], e[2]}, g1);
    const double weight = (m.r_outer - m.r_inner) / (double(n) * (n - 1));
    for (int c = 0; c < state_size; ++c) {
      double value[state_size] = {}, zero[state_size] = {}, rates[state_size] = {}, unused[state_size] = {};
      value[c] = 1;
      penalty_merge(value, zero, rates, unused, frame, g2, weight, 1.0);
      for (int q = 0; q < state_size; ++q) op.penalty(state_size * i + q, state_size * i + c) = rates[q];
    }
  }
  return op;
}

// The radial exponential filter on every component (loom's Basis1D::exp_filter), as a 50 N matrix.
inline Dense radial_filter(const RadialModel& m, double alpha, int half_order) {
  const spectral::Basis1D basis(spectral::BasisKind::chebyshev, m.n, m.r_inner, m.r_outer);
  const std::vector<double> f =
      line_matrix(m.n, [&](const double* in, double* out) { basis.exp_filter(in, out, alpha, half_order); });
  Dense out(state_size * m.n);
  for (int i = 0; i < m.n; ++i)
    for (int j = 0; j < m.n; ++j)
      for (int c = 0; c < state_size; ++c) out(state_size * i + c, state_size * j + c) = f[std::size_t(i) * m.n + j];
  return out;
}

}  // namespace loom::gr::testing
