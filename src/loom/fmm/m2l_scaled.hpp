// The M2L of the GPU kernels in normalised form, for single precision (the paper's GPU section: coefficients
// normalised to a small dynamic range, sums from high to low order). With u = D/|D|, a = rho_A/|D|,
// b = rho_B/|D| (rho: cell radii), Mn_k^l = M_k^l k!/rho_B^k, In_N^M = I_N^M(u)/N!, Ln_n^m = L_n^m rho_A^n/n!:
//   Ln_n^m = (-1)^n a^n / |D| sum_{k=p-1..0} C(n+k, n) sum_l (Mn_k^l b^k) In_{n+k}^{m+l}
// (from L_n^m = (-1)^n sum M_k^l I_{n+k}^{m+l}(D) in operators.hpp). Every factor is of order one, so float
// keeps its relative precision. Host and device functions; tests run them on the CPU in float and double.
#pragma once

#include "loom/fmm/harmonics.hpp"

namespace loom::fmm {

// Column mm of In_N^M(u) for N = mm .. q-1 (|u| = 1), written to the full arrays at N*N + N +- mm by the
// recurrences of harmonics.hpp divided by N!:
//   In_m^m = -(2m-1)/m (u_x + i u_y) In_{m-1}^{m-1},  In_{m+1}^m = (2m+1)/(m+1) u_z In_m^m,
//   In_N^m = ((2N-1) u_z In_{N-1}^m - (N-1+m)(N-1-m)/(N-1) In_{N-2}^m) / N.
template <class Real>
LOOM_HOST_DEVICE inline void scaled_irregular_column(int q, int mm, Vec3<Real> u, Real* ire, Real* iim) {
  Complex<Real> cur{1, 0};
  for (int j = 1; j <= mm; ++j) cur = (cur * Complex<Real>{u.x, u.y}) * (Real(-(2 * j - 1)) / Real(j));
  Complex<Real> prev{};
  const Real sign = (mm & 1) ? Real(-1) : Real(1);
  for (int nn = mm; nn < q; ++nn) {
    if (nn == mm + 1) {
      prev = cur;
      cur = (Real(2 * mm + 1) / Real(mm + 1)) * u.z * cur;
    } else if (nn > mm + 1) {
      const Complex<Real> next =
          (Real(2 * nn - 1) * u.z * cur - (Real((nn - 1 + mm) * (nn - 1 - mm)) / Real(nn - 1)) * prev) *
          (Real(1) / Real(nn));
      prev = cur;
      cur = next;
    }
    const int at = nn * nn + nn;
    ire[at + mm] = cur.re;
    iim[at + mm] = cur.im;
    ire[at - mm] = sign * cur.re;
    iim[at - mm] = -sign * cur.im;
  }
}

// Stores the normalised source coefficient (k, l >= 0), times b^k, at k*k + k +- l of the full arrays.
template <class Real>
LOOM_HOST_DEVICE inline void store_scaled_multipole(int k, int l, Complex<Real> mn, Real bk, Real* mre, Real* mim) {
  const Real sign = (l & 1) ? Real(-1) : Real(1);
  mre[k * k + k + l] = bk * mn.re;
  mim[k * k + k + l] = bk * mn.im;
  mre[k * k + k - l] = sign * bk * mn.re;
  mim[k * k + k - l] = -sign * bk * mn.im;
}

// sum_{k=p-1..0} C(n+k, n) sum_l Mhat_k^l In_{n+k}^{m+l}  (binom_row[k] = C(n+k, n)).
template <class Real>
LOOM_HOST_DEVICE inline Complex<Real> scaled_m2l_sum(int p, int n, int m, const Real* mre, const Real* mim,
                                                     const Real* ire, const Real* iim, const Real* binom_row) {
  Real sre = 0, sim = 0;
  for (int k = p - 1; k >= 0; --k) {  // high to low order
    const int at = (n + k) * (n + k) + (n + k) + m;
    Real kre = 0, kim = 0;
    for (int l = -k; l <= k; ++l) {
      const Real mr = mre[k * k + k + l], mi = mim[k * k + k + l];
      const Real ir = ire[at + l], ii = iim[at + l];
      kre += mr * ir - mi * ii;
      kim += mr * ii + mi * ir;
    }
    sre += binom_row[k] * kre;
    sim += binom_row[k] * kim;
  }
  return {sre, sim};
}

// One whole normalised M2L for one pair, the way the GPU kernel assembles it from the pieces above (which
// there run one coefficient per thread): M (double, not normalised) about c_B into L (double) about c_A,
// computed in Real. For tests on the host and as the kernel's specification.
template <class Real>
LOOM_HOST_DEVICE inline void scaled_m2l(int p, Vec3<double> D, double rho_a, double rho_b, const Complex<double>* M,
                                        Complex<double>* L) {
  constexpr int max_degree = 2 * max_order - 1;
  Real ire[max_degree * max_degree], iim[max_degree * max_degree];
  Real mre[max_order * max_order], mim[max_order * max_order], binom_row[max_order];
  const int q = 2 * p - 1;
  const double dist = sqrt_of(norm2(D)), b = rho_b / dist;
  for (int mm = 0; mm < q; ++mm)
    scaled_irregular_column(q, mm, Vec3<Real>{Real(D.x / dist), Real(D.y / dist), Real(D.z / dist)}, ire, iim);
  double factorial[max_order];
  factorial[0] = 1;
  for (int k = 1; k < max_order; ++k) factorial[k] = factorial[k - 1] * k;
  for (int k = 0; k < p; ++k) {
    double rho_k = 1, b_k = 1;
    for (int j = 0; j < k; ++j) {
      rho_k *= rho_b;
      b_k *= b;
    }
    for (int l = 0; l <= k; ++l) {
      const Complex<double> v = M[term(k, l)];
      const double s = factorial[k] / rho_k;  // Mn = M k! / rho_B^k
      store_scaled_multipole(k, l, Complex<Real>{Real(v.re * s), Real(v.im * s)}, Real(b_k), mre, mim);
    }
  }
  for (int n = 0; n < p; ++n) {
    // C(n + k, n) by the product formula
    for (int k = 0; k < p; ++k) {
      double c = 1;
      for (int j = 1; j <= k; ++j) c = c * (n + j) / j;
      binom_row[k] = Real(c);
    }
    double a_n = 1, rho_n = 1;
    for (int j = 0; j < n; ++j) {
      a_n *= rho_a / dist;
      rho_n *= rho_a;
    }
    const double scale = ((n & 1) ? -1.0 : 1.0) * a_n / dist * factorial[n] / rho_n;  // and back from Ln to L
    for (int m = 0; m <= n; ++m) {
      const Complex<Real> sum = scaled_m2l_sum(p, n, m, mre, mim, ire, iim, binom_row);
      L[term(n, m)] += Complex<double>{scale * double(sum.re), scale * double(sum.im)};
    }
  }
}

}  // namespace loom::fmm
