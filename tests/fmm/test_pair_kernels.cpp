// The Gaussian-cutoff Biot-Savart pair of pair_kernels.hpp in double and float against an independent long double
// evaluation (biot_savart_reference.hpp): the cutoff factors g/rho^3 and (3g - rho g')/rho^5 over rho = 1e-3..30
// in each of the three regions (series, closed form, singular) and at their switches, and the pair itself
// (velocity and stretching) over random geometry. The bounds sit at 1.5-2.5x the measured worst errors: a
// coefficient or term of the series off by more than its bound fails them (at the switch, where the terms are
// largest, that is every term up to k = 15 of 17 in double and up to k = 9 of 12 in float; the last ones are below
// rounding by design), and so does a wrong closed form or scaled erfc polynomial.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "biot_savart_reference.hpp"
#include "loom/fmm/pair_kernels.hpp"

namespace loom::fmm {
namespace {

using test::long_double_cutoff;

struct RegionBounds {
  double g, f;
};

// Measured worst relative errors (g, f) on this test's grid, with the series below series_below, the closed form up
// to singular_above, the singular kernel above: double 3.5e-16/1.7e-16, 6.8e-16/2.7e-15, 4.5e-16/7.6e-16; float
// 1.8e-7/2.4e-7, 3.0e-7/8.6e-7, 2.5e-7/4.5e-7. The pair's (velocity, stretching): double 1.1e-15/9.1e-16, float
// 5.5e-7/4.3e-7. The switch of HEAD~ at rho = 1/2 gave F errors of 7e-14 (double) and 5e-5 (float) above it.
template <class Real>
struct Bounds;
template <>
struct Bounds<double> {
  static constexpr RegionBounds series{6e-16, 4e-16}, closed{1.2e-15, 5e-15}, singular{8e-16, 1.5e-15};
  static constexpr double velocity = 2e-15, stretching = 2e-15;
};
template <>
struct Bounds<float> {
  static constexpr RegionBounds series{4e-7, 4e-7}, closed{6e-7, 1.5e-6}, singular{4e-7, 7e-7};
  static constexpr double velocity = 1e-6, stretching = 8e-7;
};

template <class Real>
class BiotSavartPair : public ::testing::Test {};
using Reals = ::testing::Types<float, double>;
TYPED_TEST_SUITE(BiotSavartPair, Reals);

TYPED_TEST(BiotSavartPair, CutoffFactorsMatchTheLongDoubleReference) {
  using Real = TypeParam;
  std::vector<Real> rhos;
  for (int i = 0; i <= 20000; ++i) rhos.push_back(Real(1e-3 * std::pow(3e4, i / 20000.0)));
  for (Real s : {series_below<Real>, singular_above<Real>}) {  // both sides of each switch
    Real below = s, above = s;
    for (int k = 0; k < 4; ++k) {
      below = std::nextafter(below, Real(0));
      rhos.push_back(below);
      rhos.push_back(above);
      above = std::nextafter(above, Real(100));
    }
  }
  const RegionBounds bounds[3] = {Bounds<Real>::series, Bounds<Real>::closed, Bounds<Real>::singular};
  RegionBounds worst[3] = {};
  for (Real rho : rhos) {
    const int region = rho < series_below<Real> ? 0 : (rho > singular_above<Real> ? 2 : 1);
    const auto ref = long_double_cutoff(rho);  // at the Real rho itself: only the arithmetic counts
    const CutoffFactors<Real> k = gaussian_cutoff(rho);
    const double eg = double(std::abs(k.g_over_rho3 / ref.g_over_rho3 - 1));
    const double ef = double(std::abs(k.f_over_rho5 / ref.f_over_rho5 - 1));
    EXPECT_LT(eg, bounds[region].g) << "rho " << rho;
    EXPECT_LT(ef, bounds[region].f) << "rho " << rho;
    worst[region].g = std::max(worst[region].g, eg);
    worst[region].f = std::max(worst[region].f, ef);
  }
  std::printf("worst relative errors (g/rho^3, F rho^5): series %.2e %.2e, closed form %.2e %.2e, singular %.2e %.2e\n",
              worst[0].g, worst[0].f, worst[1].g, worst[1].f, worst[2].g, worst[2].f);
}

// The reference's two forms agree where both are good, and have the known limits.
TEST(BiotSavartReference, SeriesAndClosedFormAgree) {
  for (long double rho = 1; rho <= 2.5L; rho += 0.01L) {
    const auto s = long_double_cutoff(rho, false), c = long_double_cutoff(rho, true);
    EXPECT_NEAR(double(s.g_over_rho3 / c.g_over_rho3), 1.0, 1e-16) << double(rho);
    EXPECT_NEAR(double(s.f_over_rho5 / c.f_over_rho5), 1.0, 1e-16) << double(rho);
  }
  const double c = std::sqrt(2 / 3.14159265358979323846);
  EXPECT_NEAR(double(long_double_cutoff(1e-9L).g_over_rho3), c / 3, 1e-16);
  EXPECT_NEAR(double(long_double_cutoff(1e-9L).f_over_rho5), c / 5, 1e-16);
  EXPECT_NEAR(double(long_double_cutoff(30.0L).g_over_rho3 * 27000), 1.0, 1e-16);
  EXPECT_NEAR(double(long_double_cutoff(30.0L).f_over_rho5 * 30 * 30 * 30 * 30 * 30), 3.0, 1e-15);
}

TYPED_TEST(BiotSavartPair, PairMatchesTheLongDoublePair) {
  using Real = TypeParam;
  const test::PairErrors e = test::worst_pair_errors<Real>(
      200000, 11,
      [](Vec3<Real> r, Vec3<Real> alpha_j, Real inv_sigma, Vec3<Real> alpha_i, Vec3<Real>& u, Vec3<Real>& s) {
        BiotSavartSums<Real> sums;
        biot_savart_pair_with_inverses(r, inverse_distance(norm2(r)), alpha_j, inv_sigma, alpha_i, sums);
        u = sums.velocity;
        s = sums.stretching(alpha_i);
      });
  std::printf("worst relative errors: velocity %.2e (rho %.3g), stretching %.2e (rho %.3g)\n", e.velocity,
              e.velocity_rho, e.stretching, e.stretching_rho);
  EXPECT_LT(e.velocity, Bounds<Real>::velocity);
  EXPECT_LT(e.stretching, Bounds<Real>::stretching);
}

TYPED_TEST(BiotSavartPair, CoincidentBodiesAddNothing) {
  using Real = TypeParam;
  Vec3<Real> u{}, s{};
  biot_savart_pair(Vec3<Real>{}, Vec3<Real>{1, 2, 3}, Real(0.1), Vec3<Real>{-1, 0, 2}, u, s);
  EXPECT_EQ(u.x, 0);
  EXPECT_EQ(u.y, 0);
  EXPECT_EQ(u.z, 0);
  EXPECT_EQ(s.x, 0);
  EXPECT_EQ(s.y, 0);
  EXPECT_EQ(s.z, 0);
}

}  // namespace
}  // namespace loom::fmm
