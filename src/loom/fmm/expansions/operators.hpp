// The FMM translation operators P2M, M2M, M2L, L2L and L2P for expansions of 1/r in solid harmonics
// (harmonics.hpp), written once for host and device and templated on the real type (DESIGN.md, "One formula,
// two backends"). Conventions: a multipole expansion about c is  phi(x) = sum M_n^m I_n^m(x - c)  with
// M_n^m = sum_j q_j conj(R_n^m(y_j - c)); a local expansion about c is  phi(x) = sum L_n^m conj(R_n^m(x - c)).
// Every operator acts on `ncomp` expansions at once (1 for Laplace, 3 for the Biot-Savart vector potential),
// stored component after component, `stride` terms apart.
#pragma once

#include "loom/fmm/expansions/harmonics.hpp"

namespace loom::fmm {

// P2M: M += q_c conj(R(y - c)) for one body at offset v = y - c with strengths q[0..ncomp).
template <class Real>
LOOM_HOST_DEVICE inline void p2m(int p, int ncomp, Vec3<Real> v, const Real* q, Complex<Real>* M, int stride) {
  for_each_regular(p, v, [&](int n, int m, Complex<Real> r) {
    const Complex<Real> cr = conj(r);
    for (int c = 0; c < ncomp; ++c) M[c * stride + term(n, m)] += q[c] * cr;
  });
}

// One coefficient of M2M: sum_{k,l} Mc_k^l conj(R_{n-k}^{m-l}(d)) for a child's expansion Mc and the regular
// harmonics R of d = c_child - c_parent (both of order p). Shared by m2m() and the GPU's M2M kernel (a thread
// per coefficient).
template <class Real>
LOOM_HOST_DEVICE inline Complex<Real> m2m_coefficient(int p, int n, int m, const Complex<Real>* mc,
                                                      const Complex<Real>* R) {
  Complex<Real> acc{};
  for (int k = 0; k <= n; ++k) {
    const int j = n - k;
    const int lo = (-k > m - j) ? -k : m - j, hi = (k < m + j) ? k : m + j;
    for (int l = lo; l <= hi; ++l) acc += mul_conj(harmonic_at(mc, p, k, l), harmonic_at(R, p, j, m - l));
  }
  return acc;
}

// M2M: a child's expansion Mc about c_child into the parent's Mp about c_parent, d = c_child - c_parent:
// Mp_n^m += sum_{k,l} Mc_k^l conj(R_{n-k}^{m-l}(d)).
template <class Real>
LOOM_HOST_DEVICE inline void m2m(int p, int ncomp, Vec3<Real> d, const Complex<Real>* Mc, Complex<Real>* Mp,
                                 int stride) {
  Complex<Real> R[max_terms];
  regular_harmonics(p, d, R);
  for (int c = 0; c < ncomp; ++c)
    for (int n = 0; n < p; ++n)
      for (int m = 0; m <= n; ++m) Mp[c * stride + term(n, m)] += m2m_coefficient(p, n, m, Mc + c * stride, R);
}

// M2L: a source expansion M about c_B into the local expansion L about c_A, D = c_A - c_B:
// L_n^m += (-1)^n sum_{k<p,l} M_k^l I_{n+k}^{m+l}(D). The O(p^4) form, with both factors expanded to all m in
// split real/imaginary arrays, so that the innermost loop (over m, with independent accumulators) vectorises.
template <class Real>
LOOM_HOST_DEVICE inline void m2l(int p, int ncomp, Vec3<Real> D, const Complex<Real>* M, Complex<Real>* L, int stride) {
  constexpr int max_degree = 2 * max_order - 1;
  Real ire[max_degree * max_degree], iim[max_degree * max_degree];  // I_N^M at N*N + N + M
  Real mre[max_order * max_order], mim[max_order * max_order];      // M_k^l at k*k + k + l
  const int q = 2 * p - 1;
  {  // the recurrences of irregular_harmonics, written straight into the full arrays
    const Real inv_r2 = Real(1) / norm2(D);
    const Complex<Real> xy{D.x * inv_r2, D.y * inv_r2};
    const Real z = D.z * inv_r2;
    Complex<Real> imm{sqrt_of(inv_r2), 0};
    for (int m = 0; m < q; ++m) {
      if (m > 0) imm = (imm * xy) * Real(-(2 * m - 1));
      Complex<Real> prev{}, cur = imm;
      for (int n = m; n < q; ++n) {
        if (n == m + 1) {
          prev = cur;
          cur = Real(2 * m + 1) * z * cur;
        } else if (n > m + 1) {
          const Complex<Real> next = Real(2 * n - 1) * z * cur - (Real((n - 1 + m) * (n - 1 - m)) * inv_r2) * prev;
          prev = cur;
          cur = next;
        }
        const int at = n * n + n;
        ire[at + m] = cur.re;
        iim[at + m] = cur.im;
        const Real sign = (m & 1) ? Real(-1) : Real(1);  // I_n^{-m} = (-1)^m conj(I_n^m)
        ire[at - m] = sign * cur.re;
        iim[at - m] = -sign * cur.im;
      }
    }
  }
  for (int c = 0; c < ncomp; ++c) {
    const Complex<Real>* mc = M + c * stride;
    for (int k = 0; k < p; ++k)
      for (int l = 0; l <= k; ++l) {
        const Complex<Real> v = mc[term(k, l)];
        const Real sign = (l & 1) ? Real(-1) : Real(1);
        mre[k * k + k + l] = v.re;
        mim[k * k + k + l] = v.im;
        mre[k * k + k - l] = sign * v.re;
        mim[k * k + k - l] = -sign * v.im;
      }
    for (int n = 0; n < p; ++n) {
      Real are[max_order], aim[max_order];
      for (int m = 0; m <= n; ++m) are[m] = aim[m] = 0;
      for (int k = p - 1; k >= 0; --k) {  // high to low order: small terms first
        const int at = (n + k) * (n + k) + (n + k);
        for (int l = -k; l <= k; ++l) {
          const Real a = mre[k * k + k + l], b = mim[k * k + k + l];
          const Real* ir = ire + at + l;
          const Real* ii = iim + at + l;
          for (int m = 0; m <= n; ++m) {
            are[m] += a * ir[m] - b * ii[m];
            aim[m] += a * ii[m] + b * ir[m];
          }
        }
      }
      const Real sign = (n & 1) ? Real(-1) : Real(1);
      for (int m = 0; m <= n; ++m) L[c * stride + term(n, m)] += Complex<Real>{sign * are[m], sign * aim[m]};
    }
  }
}

// One coefficient of L2L: sum_{n>=k,m} Lp_n^m conj(R_{n-k}^{m-l}(d)) for the parent's expansion Lp and the
// regular harmonics R of d = c_child - c_parent. Shared by l2l() and the GPU's L2L kernel.
template <class Real>
LOOM_HOST_DEVICE inline Complex<Real> l2l_coefficient(int p, int k, int l, const Complex<Real>* lp,
                                                      const Complex<Real>* R) {
  Complex<Real> acc{};
  for (int n = p - 1; n >= k; --n) {
    const int j = n - k;
    const int lo = (-n > l - j) ? -n : l - j, hi = (n < l + j) ? n : l + j;
    for (int m = lo; m <= hi; ++m) acc += mul_conj(harmonic_at(lp, p, n, m), harmonic_at(R, p, j, m - l));
  }
  return acc;
}

// L2L: the parent's local expansion Lp about c_parent into the child's Lc about c_child, d = c_child - c_parent:
// Lc_k^l += sum_{n>=k,m} Lp_n^m conj(R_{n-k}^{m-l}(d)).
template <class Real>
LOOM_HOST_DEVICE inline void l2l(int p, int ncomp, Vec3<Real> d, const Complex<Real>* Lp, Complex<Real>* Lc,
                                 int stride) {
  Complex<Real> R[max_terms];
  regular_harmonics(p, d, R);
  for (int c = 0; c < ncomp; ++c)
    for (int k = 0; k < p; ++k)
      for (int l = 0; l <= k; ++l) Lc[c * stride + term(k, l)] += l2l_coefficient(p, k, l, Lp + c * stride, R);
}

// The coefficient (n, m) of d^A/dx^A d^B/dy^B d^C/dz^C of the local expansion L (an expansion of order
// p - A - B - C in the same conj(R) form), from the ladder relations of harmonics.hpp:
//   (d/dz L)_n^m = L_{n+1}^m,  (d/dx L)_n^m = (L_{n+1}^{m-1} - L_{n+1}^{m+1})/2,
//   (d/dy L)_n^m = i (L_{n+1}^{m+1} + L_{n+1}^{m-1})/2.
template <int A, int B, int C, class Real>
LOOM_HOST_DEVICE inline Complex<Real> derivative_coefficient(const Complex<Real>* L, int p, int n, int m) {
  if constexpr (A > 0) {
    return Real(0.5) * (derivative_coefficient<A - 1, B, C>(L, p, n + 1, m - 1) -
                        derivative_coefficient<A - 1, B, C>(L, p, n + 1, m + 1));
  } else if constexpr (B > 0) {
    const Complex<Real> s = derivative_coefficient<A, B - 1, C>(L, p, n + 1, m + 1) +
                            derivative_coefficient<A, B - 1, C>(L, p, n + 1, m - 1);
    return {Real(-0.5) * s.im, Real(0.5) * s.re};
  } else if constexpr (C > 0) {
    return derivative_coefficient<A, B, C - 1>(L, p, n + 1, m);
  } else {
    return harmonic_at(L, p, n, m);
  }
}

// What L2P returns for one expansion at one point: the value, the gradient, and (when asked) the Hessian
// (xx, xy, xz, yy, yz, zz).
template <class Real>
struct LocalField {
  Real value = 0;
  Vec3<Real> gradient{};
  Real hessian[6] = {0, 0, 0, 0, 0, 0};
};

// L2P at offset v = x - c for `ncomp` expansions; order 1: value and gradient, 2: also the Hessian.
template <int Order, class Real>
LOOM_HOST_DEVICE inline void l2p(int p, int ncomp, Vec3<Real> v, const Complex<Real>* L, int stride,
                                 LocalField<Real>* out) {
  static_assert(Order == 1 || Order == 2);
  // sum over all m of a conj(R) expansion of a real function: the m = 0 term plus twice the real part of m > 0
  auto re = [](Complex<Real> a, Complex<Real> r, Real w) { return w * (a.re * r.re + a.im * r.im); };
  for_each_regular(p, v, [&](int n, int m, Complex<Real> r) {
    const Real w = m == 0 ? Real(1) : Real(2);
    for (int c = 0; c < ncomp; ++c) {
      const Complex<Real>* lc = L + c * stride;
      LocalField<Real>& f = out[c];
      f.value += re(lc[term(n, m)], r, w);
      if (n + 1 < p) {
        f.gradient.x += re(derivative_coefficient<1, 0, 0>(lc, p, n, m), r, w);
        f.gradient.y += re(derivative_coefficient<0, 1, 0>(lc, p, n, m), r, w);
        f.gradient.z += re(derivative_coefficient<0, 0, 1>(lc, p, n, m), r, w);
      }
      if constexpr (Order == 2) {
        if (n + 2 < p) {
          f.hessian[0] += re(derivative_coefficient<2, 0, 0>(lc, p, n, m), r, w);
          f.hessian[1] += re(derivative_coefficient<1, 1, 0>(lc, p, n, m), r, w);
          f.hessian[2] += re(derivative_coefficient<1, 0, 1>(lc, p, n, m), r, w);
          f.hessian[3] += re(derivative_coefficient<0, 2, 0>(lc, p, n, m), r, w);
          f.hessian[4] += re(derivative_coefficient<0, 1, 1>(lc, p, n, m), r, w);
          f.hessian[5] += re(derivative_coefficient<0, 0, 2>(lc, p, n, m), r, w);
        }
      }
    }
  });
}

// The gradient of a local expansion as three expansions of the same form (order p - 1, stored with p's
// layout, the last degree zero): G[0..2] = d/dx L, d/dy L, d/dz L. With them L2P needs no ladder per body
// (the GPU's L2P stages L and G once per leaf in shared memory).
template <class Real>
LOOM_HOST_DEVICE inline void gradient_expansion_term(int p, int t, const Complex<Real>* L, Complex<Real>* Gx,
                                                     Complex<Real>* Gy, Complex<Real>* Gz) {
  int n = 0;
  while ((n + 1) * (n + 2) / 2 <= t) ++n;
  const int m = t - n * (n + 1) / 2;
  const bool inside = n + 1 < p;
  Gx[t] = inside ? derivative_coefficient<1, 0, 0>(L, p, n, m) : Complex<Real>{};
  Gy[t] = inside ? derivative_coefficient<0, 1, 0>(L, p, n, m) : Complex<Real>{};
  Gz[t] = inside ? derivative_coefficient<0, 0, 1>(L, p, n, m) : Complex<Real>{};
}

// L2P (value and gradient, one expansion) at offset v from L and its gradient expansions: the same sums as
// l2p<1>, term by term in the same order.
template <class Real>
LOOM_HOST_DEVICE inline void l2p_with_gradient(int p, Vec3<Real> v, const Complex<Real>* L, const Complex<Real>* Gx,
                                               const Complex<Real>* Gy, const Complex<Real>* Gz, LocalField<Real>& f) {
  auto re = [](Complex<Real> a, Complex<Real> r, Real w) { return w * (a.re * r.re + a.im * r.im); };
  for_each_regular(p, v, [&](int n, int m, Complex<Real> r) {
    const Real w = m == 0 ? Real(1) : Real(2);
    const int t = term(n, m);
    f.value += re(L[t], r, w);
    if (n + 1 < p) {
      f.gradient.x += re(Gx[t], r, w);
      f.gradient.y += re(Gy[t], r, w);
      f.gradient.z += re(Gz[t], r, w);
    }
  });
}

// The value and gradient of a multipole expansion M about c at offset v = x - c (the M2P of treecodes; used by
// tests and the periodic far field): phi = sum M_n^m I_n^m(v).
template <class Real>
LOOM_HOST_DEVICE inline Real m2p_value(int p, Vec3<Real> v, const Complex<Real>* M) {
  Complex<Real> I[max_terms];
  irregular_harmonics(p, v, I);
  Real phi = 0;
  for (int n = 0; n < p; ++n)
    for (int m = 0; m <= n; ++m) {
      const Complex<Real> t = M[term(n, m)] * I[term(n, m)];
      phi += (m == 0 ? Real(1) : Real(2)) * t.re;
    }
  return phi;
}

}  // namespace loom::fmm
