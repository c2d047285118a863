// The CPU's M2L, several source cells of one target at a time: the O(p^4) sum of operators.hpp's m2l()
// (L_n^m += (-1)^n sum_{k,l} M_k^l I_{n+k}^{m+l}(D), k from high to low) with the pairs in the lanes of the
// innermost loop, so that every multiply-add runs at full SIMD width (m2l()'s innermost loop, over m <= n, is
// short). Each lane's sum is that of m2l() for its pair; the lanes are added in order at the end (the same
// result for every thread count). Host only.
#pragma once

#include <vector>

#include "loom/fmm/expansions/harmonics.hpp"

namespace loom::fmm {

template <int W>
class M2lBatch {
 public:
  static constexpr int lanes = W;

  explicit M2lBatch(int p)
      : p_(p),
        q_(2 * p - 1),
        ire_(std::size_t(q_ * q_) * W),
        iim_(ire_.size()),
        mre_(std::size_t(p * p) * W),
        mim_(mre_.size()) {}

  // L (one expansion, term_count(p) terms) += the M2L of `count` <= W pairs: offsets D[s] = c_A - c_B and the
  // sources' multipoles M[s].
  void apply(int count, const Vec3d* D, const Complex<double>* const* M, Complex<double>* L) {
    const int p = p_, q = q_;
    double* ire = ire_.data();
    double* iim = iim_.data();
    double* mre = mre_.data();
    double* mim = mim_.data();
    // The irregular harmonics of each lane (unused lanes: a unit offset and zero multipoles).
    double x[W], y[W], z[W], inv_r2[W];
    for (int s = 0; s < W; ++s) {
      const Vec3d d = s < count ? D[s] : Vec3d{0, 0, 1};
      inv_r2[s] = 1 / norm2(d);
      x[s] = d.x * inv_r2[s];
      y[s] = d.y * inv_r2[s];
      z[s] = d.z * inv_r2[s];
    }
    double mm_re[W], mm_im[W];
    for (int s = 0; s < W; ++s) {
      mm_re[s] = std::sqrt(inv_r2[s]);
      mm_im[s] = 0;
    }
    for (int m = 0; m < q; ++m) {
      if (m > 0)
        for (int s = 0; s < W; ++s) {  // I_m^m = -(2m-1) (x + iy)/r^2 I_{m-1}^{m-1}
          const double re = mm_re[s] * x[s] - mm_im[s] * y[s], im = mm_re[s] * y[s] + mm_im[s] * x[s];
          mm_re[s] = -(2 * m - 1) * re;
          mm_im[s] = -(2 * m - 1) * im;
        }
      double prev_re[W], prev_im[W], cur_re[W], cur_im[W];
      for (int s = 0; s < W; ++s) {
        cur_re[s] = mm_re[s];
        cur_im[s] = mm_im[s];
        prev_re[s] = prev_im[s] = 0;
      }
      for (int n = m; n < q; ++n) {
        if (n == m + 1) {
          for (int s = 0; s < W; ++s) {
            prev_re[s] = cur_re[s];
            prev_im[s] = cur_im[s];
            cur_re[s] *= (2 * m + 1) * z[s];
            cur_im[s] *= (2 * m + 1) * z[s];
          }
        } else if (n > m + 1) {
          const double a = 2 * n - 1, b = double((n - 1 + m) * (n - 1 - m));
          for (int s = 0; s < W; ++s) {
            const double re = a * z[s] * cur_re[s] - b * inv_r2[s] * prev_re[s];
            const double im = a * z[s] * cur_im[s] - b * inv_r2[s] * prev_im[s];
            prev_re[s] = cur_re[s];
            prev_im[s] = cur_im[s];
            cur_re[s] = re;
            cur_im[s] = im;
          }
        }
        const double sign = (m & 1) ? -1.0 : 1.0;  // I_n^{-m} = (-1)^m conj(I_n^m)
        double* pr = ire + std::size_t(n * n + n + m) * W;
        double* pi = iim + std::size_t(n * n + n + m) * W;
        double* nr = ire + std::size_t(n * n + n - m) * W;
        double* ni = iim + std::size_t(n * n + n - m) * W;
        for (int s = 0; s < W; ++s) {
          pr[s] = cur_re[s];
          pi[s] = cur_im[s];
          nr[s] = sign * cur_re[s];
          ni[s] = -sign * cur_im[s];
        }
      }
    }
    // The multipoles, all l.
    for (int k = 0; k < p; ++k)
      for (int l = 0; l <= k; ++l) {
        const double sign = (l & 1) ? -1.0 : 1.0;
        double* pr = mre + std::size_t(k * k + k + l) * W;
        double* pi = mim + std::size_t(k * k + k + l) * W;
        double* nr = mre + std::size_t(k * k + k - l) * W;
        double* ni = mim + std::size_t(k * k + k - l) * W;
        for (int s = 0; s < W; ++s) {
          const Complex<double> v = s < count ? M[s][term(k, l)] : Complex<double>{};
          pr[s] = v.re;
          pi[s] = v.im;
          nr[s] = sign * v.re;
          ni[s] = -sign * v.im;
        }
      }
    // The sums, lane by lane.
    for (int n = 0; n < p; ++n)
      for (int m = 0; m <= n; ++m) {
        double are[W] = {}, aim[W] = {};
        for (int k = p - 1; k >= 0; --k) {  // high to low order
          const double* ir = ire + std::size_t((n + k) * (n + k) + (n + k) + m) * W;
          const double* ii = iim + std::size_t((n + k) * (n + k) + (n + k) + m) * W;
          const double* mr = mre + std::size_t(k * k + k) * W;
          const double* mi = mim + std::size_t(k * k + k) * W;
          for (int l = -k; l <= k; ++l) {
            const std::ptrdiff_t at = std::ptrdiff_t(l) * W;
#pragma omp simd
            for (int s = 0; s < W; ++s) {
              const double a = mr[at + s], b = mi[at + s], c = ir[at + s], d = ii[at + s];
              are[s] += a * c - b * d;
              aim[s] += a * d + b * c;
            }
          }
        }
        double sre = 0, sim = 0;
        for (int s = 0; s < W; ++s) {
          sre += are[s];
          sim += aim[s];
        }
        const double sign = (n & 1) ? -1.0 : 1.0;
        L[term(n, m)] += Complex<double>{sign * sre, sign * sim};
      }
  }

 private:
  int p_, q_;
  std::vector<double> ire_, iim_, mre_, mim_;  // [index][lane]
};

}  // namespace loom::fmm
