// The M2L of the GPU kernels in normalised form, for single precision (the paper's GPU section: coefficients
// normalised to a small dynamic range, sums from high to low order). With u = D/|D|, a = rho_A/|D|,
// b = rho_B/|D| (rho: cell radii), Mn_k^l = M_k^l k!/rho_B^k, In_N^M = I_N^M(u)/N!, Ln_n^m = L_n^m rho_A^n/n!:
//   Ln_n^m = (-1)^n a^n / |D| sum_{k=p-1..0} [C(n+k, n) b^k] sum_l Mn_k^l In_{n+k}^{m+l}
// (from L_n^m = (-1)^n sum M_k^l I_{n+k}^{m+l}(D) in operators.hpp). Every factor is of order one, so float
// keeps its relative precision. The harmonics In are computed in a wider type (double on the GPU: they are a
// small part of the work, and their recurrences take precomputed coefficients, no division) and stored in Real;
// the sums run in Real. b^k multiplies the sum over l rather than each Mn_k^l, so a source's normalised
// multipoles are the same for every pair and are staged by plain copies. Arrays are complex (re, im adjacent), so
// that a GPU thread reads each factor with one shared-memory load. Host and device functions; the tests run
// them on the CPU in float and double.
#pragma once

#include "loom/fmm/expansions/harmonics.hpp"

namespace loom::fmm {

// The coefficients of the recurrences of In_N^M = I_N^M / N! (harmonics.hpp's divided by N!), for degrees
// N < 2 max_order - 1:
//   In_m^m = diag[m] (u_x + i u_y) In_{m-1}^{m-1},             diag[m] = -(2m-1)/m
//   In_{m+1}^m = first[m] u_z In_m^m,                           first[m] = (2m+1)/(m+1)
//   In_N^m = a[N] u_z In_{N-1}^m - (N-1+m)(N-1-m) r[N] In_{N-2}^m,  a[N] = (2N-1)/N,  r[N] = 1/((N-1) N).
struct HarmonicRecurrence {
  static constexpr int degrees = 2 * max_order - 1;
  double diag[degrees], first[degrees], a[degrees], r[degrees];
};
inline HarmonicRecurrence make_harmonic_recurrence() {
  HarmonicRecurrence h{};
  for (int m = 0; m < HarmonicRecurrence::degrees; ++m) {
    h.diag[m] = m > 0 ? -double(2 * m - 1) / m : 1;
    h.first[m] = double(2 * m + 1) / (m + 1);
    h.a[m] = m > 0 ? double(2 * m - 1) / m : 0;
    h.r[m] = m > 1 ? 1.0 / (double(m - 1) * m) : 0;
  }
  return h;
}

// Column mm of In_N^M(u) for N = mm .. q-1 (|u| = 1), written to the full array at N*N + N +- mm, by the
// recurrences above evaluated in Work.
template <class Work, class Real>
LOOM_HOST_DEVICE inline void scaled_irregular_column(int q, int mm, Vec3<Work> u, const HarmonicRecurrence& h,
                                                     Complex<Real>* in) {
  Complex<Work> cur{1, 0};
  for (int j = 1; j <= mm; ++j) cur = (cur * Complex<Work>{u.x, u.y}) * Work(h.diag[j]);
  Complex<Work> prev{};
  const Real sign = (mm & 1) ? Real(-1) : Real(1);
  for (int nn = mm; nn < q; ++nn) {
    if (nn == mm + 1) {
      prev = cur;
      cur = (Work(h.first[mm]) * u.z) * cur;
    } else if (nn > mm + 1) {
      const Complex<Work> next =
          (Work(h.a[nn]) * u.z) * cur - (Work((nn - 1 + mm) * (nn - 1 - mm)) * Work(h.r[nn])) * prev;
      prev = cur;
      cur = next;
    }
    const int at = nn * nn + nn;
    const Complex<Real> c{Real(cur.re), Real(cur.im)};
    in[at + mm] = c;
    in[at - mm] = {sign * c.re, -sign * c.im};  // In_N^{-M} = (-1)^M conj(In_N^M)
  }
}

// Stores the normalised source coefficient (k, l >= 0) at k*k + k +- l of the full array.
template <class Real>
LOOM_HOST_DEVICE inline void store_scaled_multipole(int k, int l, Complex<Real> mn, Complex<Real>* mhat) {
  const Real sign = (l & 1) ? Real(-1) : Real(1);
  mhat[k * k + k + l] = mn;
  mhat[k * k + k - l] = {sign * mn.re, -sign * mn.im};
}

// sum_{k=p-1..0} (C(n+k, n) b^k) sum_l Mhat_k^l In_{n+k}^{m+l}  (binom_row[k] = C(n+k, n), b_power[k] = b^k,
// their product taken in Real).
template <class Real>
LOOM_HOST_DEVICE inline Complex<Real> scaled_m2l_sum(int p, int n, int m, const Complex<Real>* mhat,
                                                     const Complex<Real>* in, const Real* binom_row,
                                                     const Real* b_power) {
  Real sre = 0, sim = 0;
  for (int k = p - 1; k >= 0; --k) {  // high to low order
    const Complex<Real>* ik = in + (n + k) * (n + k) + (n + k) + m;
    const Complex<Real>* mk = mhat + k * k + k;
    Real kre = 0, kim = 0;
    for (int l = -k; l <= k; ++l) {
      const Complex<Real> a = mk[l], b = ik[l];
      // four multiply-adds (one FMA each where the compiler contracts; a - b c d written as one expression
      // would cost a multiply, an FMA and an add)
      kre += a.re * b.re;
      kre -= a.im * b.im;
      kim += a.re * b.im;
      kim += a.im * b.re;
    }
    const Real factor = binom_row[k] * b_power[k];
    sre += factor * kre;
    sim += factor * kim;
  }
  return {sre, sim};
}

// The GPU kernel's runs: a thread sums the coefficients (n, m0 .. m0 + B - 1) of a degree n, m0 a multiple of B,
// ceil((n + 1) / B) threads per degree, degrees in order.
LOOM_HOST_DEVICE inline int m2l_threads_per_source(int p, int block) {
  int t = 0;
  for (int n = 0; n < p; ++n) t += (n + block) / block;
  return t;
}
struct M2lRun {
  int n, m0;
};
LOOM_HOST_DEVICE inline M2lRun m2l_run_of_thread(int block, int thread) {
  int n = 0;
  while (thread >= (n + block) / block) {
    thread -= (n + block) / block;
    ++n;
  }
  return {n, thread * block};
}
// Complex entries of one source's harmonic table for runs of B orders: the (2p - 1)^2 harmonics and B of padding,
// which a run reads past the last degree only for its orders m > n (whose sums are dropped).
LOOM_HOST_DEVICE inline int m2l_harmonic_stride(int p, int block) { return (2 * p - 1) * (2 * p - 1) + block; }

// scaled_m2l_sum for the run (n, m0 .. m0 + B - 1) and NComp multipole tables at once (mhat + c p^2): for each k
// and l the harmonic In_{n+k}^{m0+j+l} slides through a window of B values (one load per step instead of B), and
// each is multiplied with the NComp multipoles Mhat_k^l (one load each, at the same address for every thread of
// a source on the GPU). Per coefficient the arithmetic and its order are scaled_m2l_sum's. `in` must hold
// m2l_harmonic_stride entries; sums of orders m0 + j > n are meaningless.
template <class Real, int NComp, int B>
LOOM_HOST_DEVICE inline void scaled_m2l_run_sums(int p, int n, int m0, const Complex<Real>* mhat,
                                                 const Complex<Real>* in, const Real* binom_row, const Real* b_power,
                                                 Real (&out_re)[NComp][B], Real (&out_im)[NComp][B]) {
  LOOM_UNROLL
  for (int c = 0; c < NComp; ++c) {
    LOOM_UNROLL
    for (int j = 0; j < B; ++j) out_re[c][j] = out_im[c][j] = 0;
  }
  for (int k = p - 1; k >= 0; --k) {                                      // high to low order
    const Complex<Real>* ik = in + (n + k) * (n + k) + (n + k) + m0 - k;  // In_{n+k}^{m0-k} (l = -k)
    const Complex<Real>* mk = mhat + k * k;                               // Mhat_k^{-k}
    Real kre[NComp][B], kim[NComp][B];
    LOOM_UNROLL
    for (int c = 0; c < NComp; ++c) {
      LOOM_UNROLL
      for (int j = 0; j < B; ++j) kre[c][j] = kim[c][j] = 0;
    }
    Complex<Real> w[B];
    LOOM_UNROLL
    for (int j = 0; j + 1 < B; ++j) w[j] = ik[j];
    for (int l = 0; l <= 2 * k; ++l) {
      w[B - 1] = ik[l + B - 1];
      LOOM_UNROLL
      for (int c = 0; c < NComp; ++c) {
        const Complex<Real> a = mk[c * p * p + l];
        LOOM_UNROLL
        for (int j = 0; j < B; ++j) {
          kre[c][j] += a.re * w[j].re;  // as scaled_m2l_sum: four multiply-adds
          kre[c][j] -= a.im * w[j].im;
          kim[c][j] += a.re * w[j].im;
          kim[c][j] += a.im * w[j].re;
        }
      }
      LOOM_UNROLL
      for (int j = 0; j + 1 < B; ++j) w[j] = w[j + 1];
    }
    const Real factor = binom_row[k] * b_power[k];
    LOOM_UNROLL
    for (int c = 0; c < NComp; ++c) {
      LOOM_UNROLL
      for (int j = 0; j < B; ++j) {
        out_re[c][j] += factor * kre[c][j];
        out_im[c][j] += factor * kim[c][j];
      }
    }
  }
}

// (-1)^n a^n / |D| * n! / rho_A^n = (-1)^n n! / |D|^(n+1): the factor, in double, that takes the normalised
// sum of coefficient n back to L_n^m (rho_A cancels: the target's normalisation never enters the float sum).
LOOM_HOST_DEVICE inline double scaled_m2l_factor(int n, double dist) {
  double f = ((n & 1) ? -1.0 : 1.0) / dist;
  for (int j = 1; j <= n; ++j) f *= j / dist;
  return f;
}

// One whole normalised M2L for one pair, the way the GPU kernel assembles it from the pieces above (which
// there run one coefficient per thread): M (double, not normalised) about c_B into L (double) about c_A,
// computed in Real (harmonics in double). For tests on the host and as the kernel's specification.
template <class Real>
LOOM_HOST_DEVICE inline void scaled_m2l(int p, Vec3<double> D, double rho_b, const Complex<double>* M,
                                        Complex<double>* L) {
  constexpr int max_degree = 2 * max_order - 1;
  Complex<Real> in[max_degree * max_degree], mhat[max_order * max_order];
  Real binom_row[max_order], b_power[max_order];
  const int q = 2 * p - 1;
  const double dist = sqrt_of(norm2(D)), b = rho_b / dist;
  const Vec3<double> u{D.x / dist, D.y / dist, D.z / dist};
  const HarmonicRecurrence h = make_harmonic_recurrence();
  for (int mm = 0; mm < q; ++mm) scaled_irregular_column(q, mm, u, h, in);
  double factorial[max_order];
  factorial[0] = 1;
  for (int k = 1; k < max_order; ++k) factorial[k] = factorial[k - 1] * k;
  double b_k = 1;
  for (int k = 0; k < p; ++k) {
    double rho_k = 1;
    for (int j = 0; j < k; ++j) rho_k *= rho_b;
    b_power[k] = Real(b_k);  // b^k by repeated products in double, as the kernel's
    b_k *= b;
    for (int l = 0; l <= k; ++l) {
      const Complex<double> v = M[term(k, l)];
      const double s = factorial[k] / rho_k;  // Mn = M k! / rho_B^k
      store_scaled_multipole(k, l, Complex<Real>{Real(v.re * s), Real(v.im * s)}, mhat);
    }
  }
  for (int n = 0; n < p; ++n) {
    // C(n + k, n) by the product formula
    for (int k = 0; k < p; ++k) {
      double c = 1;
      for (int j = 1; j <= k; ++j) c = c * (n + j) / j;
      binom_row[k] = Real(c);
    }
    const double scale = scaled_m2l_factor(n, dist);
    for (int m = 0; m <= n; ++m) {
      const Complex<Real> sum = scaled_m2l_sum(p, n, m, mhat, in, binom_row, b_power);
      L[term(n, m)] += Complex<double>{scale * double(sum.re), scale * double(sum.im)};
    }
  }
}

}  // namespace loom::fmm
