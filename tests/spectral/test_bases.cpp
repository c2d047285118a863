// 1D bases against analytic functions: exponential convergence of derivatives, exact coefficients of single
// modes, quadrature, the exponential filter's factors, and rejection of too few points.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "loom/core/error.hpp"
#include "loom/spectral/basis_1d.hpp"

namespace loom::spectral {
namespace {

constexpr double pi = std::numbers::pi;

template <class F, class DF>
double derivative_error(const Basis1D& b, F f, DF df) {
  std::vector<double> u(b.size()), du(b.size());
  for (int j = 0; j < b.size(); ++j) u[j] = f(b.points()[j]);
  b.derivative(u.data(), du.data());
  double e = 0;
  for (int j = 0; j < b.size(); ++j) e = std::max(e, std::abs(du[j] - df(b.points()[j])));
  return e;
}

TEST(SpectralChebyshev, DerivativeConvergesExponentially) {
  auto f = [](double x) { return std::exp(x) * std::sin(2 * x); };
  auto df = [](double x) { return std::exp(x) * (std::sin(2 * x) + 2 * std::cos(2 * x)); };
  const double e8 = derivative_error(Basis1D(BasisKind::chebyshev, 8, -1, 1), f, df);
  const double e16 = derivative_error(Basis1D(BasisKind::chebyshev, 16, -1, 1), f, df);
  const double e24 = derivative_error(Basis1D(BasisKind::chebyshev, 24, -1, 1), f, df);
  EXPECT_LT(e16, 1e-4 * e8);  // algebraic convergence of any fixed order would not gain 10^4 from 8 to 16 points
  EXPECT_LT(e24, 1e-12);
}

TEST(SpectralChebyshev, DerivativeOnAShiftedInterval) {
  auto f = [](double x) { return std::cos(x) / (1 + 0.1 * x * x); };
  auto df = [](double x) {
    const double q = 1 + 0.1 * x * x;
    return -std::sin(x) / q - std::cos(x) * 0.2 * x / (q * q);
  };
  EXPECT_LT(derivative_error(Basis1D(BasisKind::chebyshev, 32, 1.5, 4), f, df), 1e-11);
}

TEST(SpectralFourier, DerivativeConvergesExponentially) {
  auto f = [](double x) { return std::exp(std::sin(x)); };
  auto df = [](double x) { return std::cos(x) * std::exp(std::sin(x)); };
  const double e8 = derivative_error(Basis1D(BasisKind::fourier, 8, 0, 2 * pi), f, df);
  const double e16 = derivative_error(Basis1D(BasisKind::fourier, 16, 0, 2 * pi), f, df);
  const double e24 = derivative_error(Basis1D(BasisKind::fourier, 24, 0, 2 * pi), f, df);
  const double e32 = derivative_error(Basis1D(BasisKind::fourier, 32, 0, 2 * pi), f, df);
  EXPECT_LT(e16, 1e-4 * e8);  // measured 4e-5: a fixed algebraic order would need order 13 for that
  EXPECT_LT(e24, 1e-11);
  EXPECT_LT(e32, 1e-13);
  // an odd number of points and another period
  auto g = [](double x) { return std::sin(pi * x) + 0.5 * std::cos(3 * pi * x); };
  auto dg = [](double x) { return pi * std::cos(pi * x) - 1.5 * pi * std::sin(3 * pi * x); };
  EXPECT_LT(derivative_error(Basis1D(BasisKind::fourier, 9, -1, 1), g, dg), 1e-12);
}

TEST(SpectralChebyshev, CoefficientsOfOnePolynomialAndRoundTrip) {
  Basis1D b(BasisKind::chebyshev, 7, -1, 1);
  std::vector<double> u(7), c(7), back(7);
  for (int j = 0; j < 7; ++j) {
    const double x = b.points()[j];
    u[j] = 4 * x * x * x - 3 * x + 0.5;  // T_3 + 0.5 T_0
  }
  b.to_spectral(u.data(), c.data());
  for (int k = 0; k < 7; ++k) EXPECT_NEAR(c[k], k == 3 ? 1.0 : k == 0 ? 0.5 : 0.0, 1e-14) << k;
  b.to_physical(c.data(), back.data());
  for (int j = 0; j < 7; ++j) EXPECT_NEAR(back[j], u[j], 1e-14);
  EXPECT_NEAR(b.evaluate(c.data(), 0.3), 4 * 0.027 - 0.9 + 0.5, 1e-14);
}

TEST(SpectralFourier, CoefficientsOfSingleModes) {
  Basis1D b(BasisKind::fourier, 8, 0, 2 * pi);
  std::vector<double> u(8), c(8);
  for (int j = 0; j < 8; ++j) {
    const double x = b.points()[j];
    u[j] = 0.25 + std::cos(2 * x) - 3 * std::sin(3 * x) + 0.5 * std::cos(4 * x);
  }
  b.to_spectral(u.data(), c.data());
  const double expected[8] = {0.25, 0, 0, 1, 0, 0, -3, 0.5};  // a0, a1, b1, a2, b2, a3, b3, a4
  for (int k = 0; k < 8; ++k) EXPECT_NEAR(c[k], expected[k], 1e-14) << k;
  EXPECT_NEAR(b.evaluate(c.data(), 0.7), 0.25 + std::cos(1.4) - 3 * std::sin(2.1) + 0.5 * std::cos(2.8), 1e-13);
}

TEST(SpectralBases, QuadratureIntegratesExactly) {
  Basis1D cheb(BasisKind::chebyshev, 20, -1, 2);
  double s = 0;
  for (int j = 0; j < 20; ++j) s += cheb.weights()[j] * std::exp(cheb.points()[j]);
  EXPECT_NEAR(s, std::exp(2.0) - std::exp(-1.0), 1e-13);
  Basis1D four(BasisKind::fourier, 16, 0, 2 * pi);
  double t = 0;
  for (int j = 0; j < 16; ++j) t += four.weights()[j] * std::pow(std::cos(four.points()[j]), 2);
  EXPECT_NEAR(t, pi, 1e-13);
}

TEST(SpectralBases, ExponentialFilterScalesEachModeByItsFactor) {
  for (auto kind : {BasisKind::chebyshev, BasisKind::fourier}) {
    Basis1D b(kind, 12, 0, 1);
    std::vector<double> c(12), u(12), v(12), cf(12);
    for (int k = 0; k < 12; ++k) c[k] = 1.0 / (1 + k);
    b.to_physical(c.data(), u.data());
    const double alpha = 36, kmax = kind == BasisKind::chebyshev ? 11 : 6;
    b.exp_filter(u.data(), v.data(), alpha, 4);
    b.to_spectral(v.data(), cf.data());
    for (int k = 0; k < 12; ++k)
      EXPECT_NEAR(cf[k], c[k] * std::exp(-alpha * std::pow(b.mode(k) / kmax, 8)), 1e-14) << k;
    EXPECT_NEAR(cf[11], c[11] * std::exp(-alpha), 1e-16);  // the highest mode is damped by exp(-alpha)
  }
}

TEST(SpectralBases, TooFewPointsIsAUsageErrorNamingTheKey) {
  try {
    Basis1D b(BasisKind::chebyshev, 1, -1, 1, "extents");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("extents"), std::string::npos);
  }
  EXPECT_THROW(parse_basis_kind("legendre", "bases"), UsageError);
}

}  // namespace
}  // namespace loom::spectral
