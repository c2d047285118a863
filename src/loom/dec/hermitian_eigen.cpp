// Householder: for column k, the reflector H = I - 2 v v^H maps the part below the diagonal onto alpha e_1 with
// |alpha| = its norm; A <- H A H updates the trailing block as A - 2 (v w^H + w v^H), w = p - (v^H p) v,
// p = A v. The tridiagonal matrix has complex off-diagonals; a diagonal unitary similarity makes them real
// and non-negative (|alpha|) without changing eigenvalues.
#include "loom/dec/hermitian_eigen.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace loom::dec {

using Complex = std::complex<double>;

void tridiagonalize(HermitianMatrix& m, std::vector<double>& d, std::vector<double>& e) {
  const int n = m.n;
  // Make the matrix exactly Hermitian from its lower triangle.
  for (int i = 0; i < n; ++i) {
    m(i, i) = m(i, i).real();
    for (int j = 0; j < i; ++j) m(j, i) = std::conj(m(i, j));
  }
  d.assign(static_cast<std::size_t>(n), 0.0);
  e.assign(static_cast<std::size_t>(std::max(n - 1, 0)), 0.0);
  std::vector<Complex> v(static_cast<std::size_t>(n)), p(static_cast<std::size_t>(n));
  for (int k = 0; k + 2 < n; ++k) {
    double sigma = 0;
    for (int i = k + 1; i < n; ++i) sigma += std::norm(m(i, k));
    const double xnorm = std::sqrt(sigma);
    const Complex x0 = m(k + 1, k);
    if (xnorm == 0) continue;  // already reduced
    const Complex phase = std::abs(x0) > 0 ? x0 / std::abs(x0) : Complex(1, 0);
    const Complex alpha = -phase * xnorm;  // opposite sign to x0: no cancellation in v
    for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = 0;
    v[static_cast<std::size_t>(k + 1)] = x0 - alpha;
    for (int i = k + 2; i < n; ++i) v[static_cast<std::size_t>(i)] = m(i, k);
    double vnorm = 0;
    for (int i = k + 1; i < n; ++i) vnorm += std::norm(v[static_cast<std::size_t>(i)]);
    vnorm = std::sqrt(vnorm);
    for (int i = k + 1; i < n; ++i) v[static_cast<std::size_t>(i)] /= vnorm;
    // p = A v on the trailing block, K = v^H p (real), w = p - K v.
    Complex K = 0;
    for (int i = k + 1; i < n; ++i) {
      Complex s = 0;
      for (int j = k + 1; j < n; ++j) s += m(i, j) * v[static_cast<std::size_t>(j)];
      p[static_cast<std::size_t>(i)] = s;
      K += std::conj(v[static_cast<std::size_t>(i)]) * s;
    }
    for (int i = k + 1; i < n; ++i) p[static_cast<std::size_t>(i)] -= K.real() * v[static_cast<std::size_t>(i)];
    for (int i = k + 1; i < n; ++i)
      for (int j = k + 1; j < n; ++j)
        m(i, j) -= 2.0 * (v[static_cast<std::size_t>(i)] * std::conj(p[static_cast<std::size_t>(j)]) +
                          p[static_cast<std::size_t>(i)] * std::conj(v[static_cast<std::size_t>(j)]));
    m(k + 1, k) = alpha;
    m(k, k + 1) = std::conj(alpha);
    for (int i = k + 2; i < n; ++i) m(i, k) = m(k, i) = 0;
  }
  for (int i = 0; i < n; ++i) d[static_cast<std::size_t>(i)] = m(i, i).real();
  for (int i = 0; i + 1 < n; ++i) e[static_cast<std::size_t>(i)] = std::abs(m(i + 1, i));
}

namespace {

// Number of eigenvalues of the tridiagonal matrix below x (the Sturm count of the LDL^T pivots).
int count_below(const std::vector<double>& d, const std::vector<double>& e, double x) {
  const double tiny = std::numeric_limits<double>::min();
  int count = 0;
  double q = 1;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const double off = i == 0 ? 0.0 : e[i - 1] * e[i - 1];
    q = d[i] - x - (i == 0 ? 0.0 : off / q);
    if (std::abs(q) < tiny) q = -tiny;
    if (q < 0) ++count;
  }
  return count;
}

}  // namespace

std::vector<double> tridiagonal_eigenvalues(const std::vector<double>& d, const std::vector<double>& e) {
  const int n = static_cast<int>(d.size());
  if (n == 0) return {};
  // Gershgorin interval.
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  for (int i = 0; i < n; ++i) {
    const double r =
        (i > 0 ? e[static_cast<std::size_t>(i - 1)] : 0.0) + (i + 1 < n ? e[static_cast<std::size_t>(i)] : 0.0);
    lo = std::min(lo, d[static_cast<std::size_t>(i)] - r);
    hi = std::max(hi, d[static_cast<std::size_t>(i)] + r);
  }
  const double width = std::max(hi - lo, std::numeric_limits<double>::min());
  lo -= 1e-12 * width;
  hi += 1e-12 * width;
  const double eps = 4 * std::numeric_limits<double>::epsilon() * std::max(std::abs(lo), std::abs(hi));
  std::vector<double> out(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    // The (k+1)-th smallest: the smallest x with count_below(x) > k.
    double a = k > 0 ? out[static_cast<std::size_t>(k - 1)] : lo, b = hi;
    while (b - a > eps) {
      const double mid = 0.5 * (a + b);
      if (mid <= a || mid >= b) break;
      if (count_below(d, e, mid) > k)
        b = mid;
      else
        a = mid;
    }
    out[static_cast<std::size_t>(k)] = 0.5 * (a + b);
  }
  return out;
}

std::vector<double> hermitian_eigenvalues(HermitianMatrix m) {
  std::vector<double> d, e;
  tridiagonalize(m, d, e);
  return tridiagonal_eigenvalues(d, e);
}

}  // namespace loom::dec
