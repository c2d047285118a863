// Complex solid harmonics of 1/r (the expansions of the paper's section on the FMM; exaFMM uses the same
// family). Regular R_n^m(r) = r^n P_n^m(cos t) e^{im phi} / (n+m)!, irregular I_n^m(r) = (n-m)! P_n^m e^{im phi}
// / r^{n+1}, Condon-Shortley phase, with X_n^{-m} = (-1)^m conj(X_n^m). With this normalisation
//   1/|x - y| = sum_{n,m} conj(R_n^m(y)) I_n^m(x)              (|y| < |x|)
//   R_n^m(a + b) = sum_{k,l} R_k^l(a) R_{n-k}^{m-l}(b)
//   I_n^m(x - b) = sum_{k,l} conj(R_k^l(b)) I_{n+k}^{m+l}(x)    (|b| < |x|)
//   d/dz R_n^m = R_{n-1}^m,  d/dx R_n^m = (R_{n-1}^{m+1} - R_{n-1}^{m-1})/2,
//   d/dy R_n^m = -i (R_{n-1}^{m-1} + R_{n-1}^{m+1})/2
// (checked against direct evaluation and finite differences in tests/fmm/test_harmonics.cpp). An expansion of
// order p keeps degrees n < p; only m >= 0 is stored: p(p+1)/2 complex terms.
#pragma once

#include "loom/fmm/real.hpp"

namespace loom::fmm {

constexpr int max_order = 16;  // the largest p supported (the paper runs p = 14)
LOOM_HOST_DEVICE constexpr int term_count(int p) { return p * (p + 1) / 2; }
LOOM_HOST_DEVICE constexpr int term(int n, int m) { return n * (n + 1) / 2 + m; }  // m >= 0
constexpr int max_terms = term_count(max_order);

// X_n^m from the stored m >= 0 half; zero outside 0 <= |m| <= n < p.
template <class Real>
LOOM_HOST_DEVICE inline Complex<Real> harmonic_at(const Complex<Real>* X, int p, int n, int m) {
  if (n >= p || n < 0) return {};
  if (m >= 0) return m <= n ? X[term(n, m)] : Complex<Real>{};
  if (-m > n) return {};
  const Complex<Real> c = X[term(n, -m)];
  return (m & 1) ? Complex<Real>{-c.re, c.im} : Complex<Real>{c.re, -c.im};
}

// Calls f(n, m, R_n^m(v)) for n = m .. p-1 of one column m, by the recurrences
//   R_m^m = -(x + iy)/(2m) R_{m-1}^{m-1},  R_{m+1}^m = z R_m^m,
//   R_n^m = ((2n-1) z R_{n-1}^m - r^2 R_{n-2}^m) / ((n+m)(n-m)),
// starting from rmm = R_m^m. Needs no storage, so P2M and L2P run with a few registers per body.
template <class Real, class F>
LOOM_HOST_DEVICE inline void for_each_regular_in_column(int p, int m, Vec3<Real> v, Real r2, Complex<Real> rmm, F&& f) {
  f(m, m, rmm);
  if (m + 1 >= p) return;
  Complex<Real> r_prev = rmm, r = v.z * rmm;
  f(m + 1, m, r);
  for (int n = m + 2; n < p; ++n) {
    const Complex<Real> next = (Real(2 * n - 1) * v.z * r - r2 * r_prev) * (Real(1) / Real((n + m) * (n - m)));
    r_prev = r;
    r = next;
    f(n, m, r);
  }
}

// R_m^m(v) by m steps of its recurrence (the same steps for_each_regular takes).
template <class Real>
LOOM_HOST_DEVICE inline Complex<Real> regular_diagonal(int m, Vec3<Real> v) {
  const Complex<Real> xy{v.x, v.y};
  Complex<Real> rmm{1, 0};
  for (int j = 1; j <= m; ++j) rmm = (rmm * xy) * (Real(-1) / Real(2 * j));
  return rmm;
}

// Calls f(n, m, R_n^m(v)) for 0 <= m <= n < p, column by column (m outer).
template <class Real, class F>
LOOM_HOST_DEVICE inline void for_each_regular(int p, Vec3<Real> v, F&& f) {
  const Real r2 = norm2(v);
  const Complex<Real> xy{v.x, v.y};
  Complex<Real> rmm{1, 0};
  for (int m = 0; m < p; ++m) {
    if (m > 0) rmm = (rmm * xy) * (Real(-1) / Real(2 * m));
    for_each_regular_in_column(p, m, v, r2, rmm, f);
  }
}

template <class Real>
LOOM_HOST_DEVICE inline void regular_harmonics(int p, Vec3<Real> v, Complex<Real>* R) {
  for_each_regular(p, v, [R](int n, int m, Complex<Real> value) { R[term(n, m)] = value; });
}

// I_n^m(v) for 0 <= m <= n < p by I_0^0 = 1/r, I_m^m = -(2m-1)(x+iy)/r^2 I_{m-1}^{m-1},
// I_{m+1}^m = (2m+1) z/r^2 I_m^m, I_n^m = ((2n-1) z I_{n-1}^m - (n-1+m)(n-1-m) I_{n-2}^m) / r^2.
template <class Real>
LOOM_HOST_DEVICE inline void irregular_harmonics(int p, Vec3<Real> v, Complex<Real>* I) {
  const Real inv_r2 = Real(1) / norm2(v);
  const Complex<Real> xy{v.x * inv_r2, v.y * inv_r2};
  const Real z = v.z * inv_r2;
  Complex<Real> imm{sqrt_of(inv_r2), 0};
  for (int m = 0; m < p; ++m) {
    if (m > 0) imm = (imm * xy) * Real(-(2 * m - 1));
    I[term(m, m)] = imm;
    if (m + 1 >= p) continue;
    I[term(m + 1, m)] = Real(2 * m + 1) * z * imm;
    for (int n = m + 2; n < p; ++n)
      I[term(n, m)] =
          Real(2 * n - 1) * z * I[term(n - 1, m)] - (Real((n - 1 + m) * (n - 1 - m)) * inv_r2) * I[term(n - 2, m)];
  }
}

}  // namespace loom::fmm
