// S2: real Y_lm against their closed forms, orthonormality by the grid's quadrature, round trips, angular
// derivatives of band-limited functions, and the Heaviside filter's exact truncation.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "loom/spectral/sphere.hpp"

namespace loom::spectral {
namespace {

constexpr double pi = std::numbers::pi;

std::vector<double> harmonic_on_grid(const SphereBasis& s, int l, int m) {
  std::vector<double> c(s.spectral_size(), 0.0), u(s.physical_size());
  c[SphereBasis::index(l, m)] = 1;
  s.to_physical(c.data(), u.data());
  return u;
}

TEST(SpectralSphere, LowHarmonicsMatchTheirClosedForms) {
  SphereBasis s(6);
  struct Case {
    int l, m;
    double (*f)(double, double);
  };
  const Case cases[] = {
      {0, 0, [](double, double) { return 1 / std::sqrt(4 * pi); }},
      {1, 0, [](double t, double) { return std::sqrt(3 / (4 * pi)) * std::cos(t); }},
      {1, 1, [](double t, double p) { return std::sqrt(3 / (4 * pi)) * std::sin(t) * std::cos(p); }},
      {1, -1, [](double t, double p) { return std::sqrt(3 / (4 * pi)) * std::sin(t) * std::sin(p); }},
      {2, 0, [](double t, double) { return std::sqrt(5 / (16 * pi)) * (3 * std::cos(t) * std::cos(t) - 1); }},
      {2, 2, [](double t, double p) { return std::sqrt(15 / (16 * pi)) * std::pow(std::sin(t), 2) * std::cos(2 * p); }},
      {2, -1, [](double t, double p) { return std::sqrt(15 / (4 * pi)) * std::sin(t) * std::cos(t) * std::sin(p); }},
  };
  for (const auto& c : cases) {
    const auto u = harmonic_on_grid(s, c.l, c.m);
    for (int ip = 0; ip < s.n_phi(); ++ip)
      for (int it = 0; it < s.n_theta(); ++it)
        EXPECT_NEAR(u[it + s.n_theta() * ip], c.f(s.theta()[it], s.phi(ip)), 1e-14) << c.l << " " << c.m;
  }
}

TEST(SpectralSphere, HarmonicsAreOrthonormalUnderTheQuadrature) {
  SphereBasis s(12);
  std::vector<std::vector<double>> y;
  for (int l = 0; l <= s.l_max(); ++l)
    for (int m = -l; m <= l; ++m) y.push_back(harmonic_on_grid(s, l, m));
  double worst = 0;
  for (std::size_t a = 0; a < y.size(); ++a)
    for (std::size_t b = a; b < y.size(); ++b) {
      double sum = 0;
      for (int ip = 0; ip < s.n_phi(); ++ip)
        for (int it = 0; it < s.n_theta(); ++it) {
          const int p = it + s.n_theta() * ip;
          sum += s.weight(it, ip) * y[a][p] * y[b][p];
        }
      worst = std::max(worst, std::abs(sum - (a == b ? 1.0 : 0.0)));
    }
  EXPECT_LT(worst, 1e-13);
}

TEST(SpectralSphere, RoundTripsToRounding) {
  SphereBasis s(19);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uni(-1, 1);
  std::vector<double> c(s.spectral_size()), u(s.physical_size()), c2(s.spectral_size()), u2(s.physical_size());
  for (auto& v : c) v = uni(rng);
  s.to_physical(c.data(), u.data());
  s.to_spectral(u.data(), c2.data());
  for (int k = 0; k < s.spectral_size(); ++k) EXPECT_NEAR(c2[k], c[k], 1e-13) << k;
  s.to_physical(c2.data(), u2.data());  // u is band-limited: PhysToSpec then SpecToPhys returns it
  for (int p = 0; p < s.physical_size(); ++p) EXPECT_NEAR(u2[p], u[p], 1e-13) << p;
  EXPECT_NEAR(s.evaluate(c.data(), s.theta()[4], s.phi(7)), u[4 + s.n_theta() * 7], 1e-13);
}

// f = x y z + x^2 on the unit sphere (l <= 3): exact theta and phi derivatives.
TEST(SpectralSphere, AngularDerivativesOfABandLimitedFunction) {
  SphereBasis s(8);
  auto at = [&](auto g) {
    std::vector<double> u(s.physical_size());
    for (int ip = 0; ip < s.n_phi(); ++ip)
      for (int it = 0; it < s.n_theta(); ++it) u[it + s.n_theta() * ip] = g(s.theta()[it], s.phi(ip));
    return u;
  };
  auto f = at([](double t, double p) {
    const double x = std::sin(t) * std::cos(p), y = std::sin(t) * std::sin(p), z = std::cos(t);
    return x * y * z + x * x;
  });
  // x y z = sin^2 t cos t sin p cos p; x^2 = sin^2 t cos^2 p
  auto ft = at([](double t, double p) {
    return (2 * std::sin(t) * std::cos(t) * std::cos(t) - std::pow(std::sin(t), 3)) * std::sin(p) * std::cos(p) +
           2 * std::sin(t) * std::cos(t) * std::cos(p) * std::cos(p);
  });
  auto fp = at([](double t, double p) {
    return std::sin(t) * std::sin(t) * std::cos(t) * std::cos(2 * p) - std::sin(t) * std::sin(t) * std::sin(2 * p);
  });
  std::vector<double> dt(s.physical_size()), dp(s.physical_size());
  s.d_theta(f.data(), dt.data());
  s.d_phi(f.data(), dp.data());
  for (int p = 0; p < s.physical_size(); ++p) {
    EXPECT_NEAR(dt[p], ft[p], 1e-13) << p;
    EXPECT_NEAR(dp[p], fp[p], 1e-13) << p;
  }
}

TEST(SpectralSphere, HeavisideFilterRemovesExactlyTheModesAboveLKeep) {
  SphereBasis s(10);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> uni(-1, 1);
  std::vector<double> c(s.spectral_size()), u(s.physical_size()), v(s.physical_size()), cf(s.spectral_size());
  for (auto& x : c) x = uni(rng);
  s.to_physical(c.data(), u.data());
  const int l_keep = 6;
  s.heaviside_filter(u.data(), v.data(), l_keep);
  s.to_spectral(v.data(), cf.data());
  for (int l = 0; l <= s.l_max(); ++l)
    for (int m = -l; m <= l; ++m) {
      const int k = SphereBasis::index(l, m);
      EXPECT_NEAR(cf[k], l <= l_keep ? c[k] : 0.0, 1e-13) << l << " " << m;
    }
}

}  // namespace
}  // namespace loom::spectral
