// The Hermitian eigenvalue solver (src/loom/dec/hermitian_eigen.*) on matrices with known spectra: U diag(l) U^H
// with U a product of random complex Householder reflections, the 1D Laplacian's tridiagonal matrix, and the
// closed form of 2 x 2 matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <random>

#include "loom/dec/hermitian_eigen.hpp"

namespace loom::dec {
namespace {

using Complex = std::complex<double>;

HermitianMatrix with_spectrum(const std::vector<double>& lambda, unsigned seed) {
  const int n = static_cast<int>(lambda.size());
  std::mt19937 rng(seed);
  std::normal_distribution<double> g;
  // Start diagonal, apply H = I - 2 v v^H on both sides a few times: A <- H A H.
  std::vector<Complex> a(static_cast<std::size_t>(n) * n, 0.0);
  auto at = [&](int i, int j) -> Complex& { return a[static_cast<std::size_t>(i) * n + j]; };
  for (int i = 0; i < n; ++i) at(i, i) = lambda[static_cast<std::size_t>(i)];
  for (int r = 0; r < 4; ++r) {
    std::vector<Complex> v(static_cast<std::size_t>(n));
    double len = 0;
    for (auto& x : v) {
      x = {g(rng), g(rng)};
      len += std::norm(x);
    }
    for (auto& x : v) x /= std::sqrt(len);
    // A H: columns; then H (A H): rows.
    for (int i = 0; i < n; ++i) {
      Complex s = 0;
      for (int j = 0; j < n; ++j) s += at(i, j) * v[static_cast<std::size_t>(j)];
      for (int j = 0; j < n; ++j) at(i, j) -= 2.0 * s * std::conj(v[static_cast<std::size_t>(j)]);
    }
    for (int j = 0; j < n; ++j) {
      Complex s = 0;
      for (int i = 0; i < n; ++i) s += std::conj(v[static_cast<std::size_t>(i)]) * at(i, j);
      for (int i = 0; i < n; ++i) at(i, j) -= 2.0 * v[static_cast<std::size_t>(i)] * s;
    }
  }
  HermitianMatrix m(n);
  m.a = a;
  return m;
}

TEST(HermitianEigen, RecoversAKnownSpectrum) {
  for (int n : {1, 2, 5, 40, 136}) {
    std::vector<double> lambda;
    for (int i = 0; i < n; ++i) lambda.push_back(std::sin(1.7 * i) * 100 - (i % 3 == 0 ? 250.0 : 0.0));
    if (n > 5) lambda[3] = lambda[4] = lambda[5];  // a degenerate triple
    const auto ev = hermitian_eigenvalues(with_spectrum(lambda, 7u + static_cast<unsigned>(n)));
    std::sort(lambda.begin(), lambda.end());
    ASSERT_EQ(ev.size(), lambda.size());
    for (std::size_t i = 0; i < ev.size(); ++i) EXPECT_NEAR(ev[i], lambda[i], 1e-10 * 350) << "n = " << n << " i " << i;
  }
}

TEST(HermitianEigen, TwoByTwoClosedForm) {
  HermitianMatrix m(2);
  m(0, 0) = 1.5;
  m(1, 1) = -0.5;
  m(1, 0) = {0.3, -1.2};
  const double mean = 0.5, radius = std::sqrt(1.0 + std::norm(Complex{0.3, -1.2}));
  const auto ev = hermitian_eigenvalues(m);  // reads the lower triangle only
  EXPECT_NEAR(ev[0], mean - radius, 1e-14);
  EXPECT_NEAR(ev[1], mean + radius, 1e-14);
}

TEST(HermitianEigen, OneDimensionalLaplacian) {
  const int n = 60;
  const std::vector<double> d(n, 2.0), e(n - 1, 1.0);  // |off-diagonal| = 1
  const auto ev = tridiagonal_eigenvalues(d, e);
  for (int k = 1; k <= n; ++k)
    EXPECT_NEAR(ev[static_cast<std::size_t>(k - 1)], 2 - 2 * std::cos(k * std::numbers::pi / (n + 1)), 1e-13);
}

}  // namespace
}  // namespace loom::dec
