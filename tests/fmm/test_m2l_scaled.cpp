// The normalised M2L of the GPU kernels (src/loom/fmm/m2l_scaled.hpp), run on the CPU: in double it equals the
// plain M2L of operators.hpp to rounding; in float (harmonics computed in double, sums in float), thanks to the
// normalisation and the high-to-low summation, it stays within about 3e-7 of it for every order up to 16 and
// for cells from tiny to huge (where the factorials and powers of the unnormalised form overflow float).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fmm/coefficient_difference.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/expansions/operators.hpp"
#include "loom/fmm/gpu/m2l_scaled.hpp"

namespace loom::fmm {
namespace {

using C = Complex<double>;

using test::relative_difference;

// A source cluster of radius rho about the origin, a target cell of radius rho at distance rho / ratio * 2.
void compare(int p, double rho, double ratio, std::uint64_t seed, double& err_double, double& err_float) {
  Random rng(seed);
  std::vector<C> M(static_cast<std::size_t>(term_count(p)));
  for (int j = 0; j < 40; ++j) {
    Vec3d y;
    do y = {rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
    while (norm2(y) > 1);
    const double q = rng.uniform(-1, 1);
    p2m(p, 1, rho * y, &q, M.data(), term_count(p));
  }
  const Vec3d dir{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
  const Vec3d D = (2 * rho / ratio / std::sqrt(norm2(dir))) * dir;
  std::vector<C> exact(M.size()), in_double(M.size()), in_float(M.size());
  m2l(p, 1, D, M.data(), exact.data(), term_count(p));
  scaled_m2l<double>(p, D, rho, M.data(), in_double.data());
  scaled_m2l<float>(p, D, rho, M.data(), in_float.data());
  err_double = relative_difference(in_double, exact);
  err_float = relative_difference(in_float, exact);
}

TEST(ScaledM2L, DoubleEqualsThePlainM2L) {
  for (int p : {1, 4, 10, 16})
    for (double rho : {1e-4, 1.0, 1e3}) {
      double ed = 0, ef = 0;
      compare(p, rho, 0.4, 61 + p, ed, ef);
      EXPECT_LT(ed, 1e-13) << "p " << p << " rho " << rho;
    }
}

TEST(ScaledM2L, FloatKeepsSinglePrecisionAtEveryOrderAndScale) {
  double worst = 0;
  for (int p : {4, 8, 12, 16})
    for (double rho : {1e-5, 1e-2, 1.0, 1e2, 1e4})
      for (double ratio : {0.3, 0.5, 0.7}) {
        double ed = 0, ef = 0;
        compare(p, rho, ratio, 71 + p, ed, ef);
        // measured worst 2.7e-7 with the harmonics in double (9.4e-7 when they were computed in float)
        EXPECT_LT(ef, 6e-7) << "p " << p << " rho " << rho << " ratio " << ratio;
        worst = std::max(worst, ef);
      }
  std::printf("worst relative difference of the float M2L: %.2e\n", worst);
}

// The GPU kernel's runs of B orders per thread (scaled_m2l_run_sums, mapped by m2l_run_of_thread) cover every
// coefficient (n, m) once and give scaled_m2l_sum's sums for each of three multipole tables, in float and double.
template <class Real, int B>
void check_run_sums(int p, std::uint64_t seed) {
  Random rng(seed);
  const int q = 2 * p - 1;
  std::vector<Complex<Real>> in(static_cast<std::size_t>(m2l_harmonic_stride(p, B)));
  const Vec3d d{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
  const double r = std::sqrt(norm2(d));
  const HarmonicRecurrence h = make_harmonic_recurrence();
  for (int mm = 0; mm < q; ++mm) scaled_irregular_column(q, mm, Vec3d{d.x / r, d.y / r, d.z / r}, h, in.data());
  for (int j = 0; j < B; ++j) in[std::size_t(q * q + j)] = {Real(1e30), Real(1e30)};  // padding: never in a sum
  std::vector<Complex<Real>> mhat(std::size_t(3 * p * p));
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < p; ++k)
      for (int l = 0; l <= k; ++l)
        store_scaled_multipole(k, l, Complex<Real>{Real(rng.uniform(-1, 1)), Real(rng.uniform(-1, 1))},
                               mhat.data() + c * p * p);
  std::vector<Real> b_power(static_cast<std::size_t>(p));
  for (int k = 0; k < p; ++k) b_power[std::size_t(k)] = Real(std::pow(0.7, k));
  std::vector<int> seen(static_cast<std::size_t>(term_count(p)), 0);
  for (int t = 0; t < m2l_threads_per_source(p, B); ++t) {
    const M2lRun run = m2l_run_of_thread(B, t);
    ASSERT_LT(run.n, p);
    ASSERT_EQ(run.m0 % B, 0);
    ASSERT_LE(run.m0, run.n);
    std::vector<Real> binom(static_cast<std::size_t>(p));
    for (int k = 0; k < p; ++k) {
      double b = 1;
      for (int j = 1; j <= k; ++j) b = b * (run.n + j) / j;
      binom[std::size_t(k)] = Real(b);
    }
    Real re[3][B], im[3][B];
    scaled_m2l_run_sums<Real, 3, B>(p, run.n, run.m0, mhat.data(), in.data(), binom.data(), b_power.data(), re, im);
    for (int j = 0; j < B && run.m0 + j <= run.n; ++j) {
      ++seen[std::size_t(term(run.n, run.m0 + j))];
      for (int c = 0; c < 3; ++c) {
        const Complex<Real> want =
            scaled_m2l_sum(p, run.n, run.m0 + j, mhat.data() + c * p * p, in.data(), binom.data(), b_power.data());
        const double scale = std::abs(double(want.re)) + std::abs(double(want.im)) + 1;
        const double tol = sizeof(Real) == 4 ? 1e-5 : 1e-13;
        EXPECT_NEAR(double(re[c][j]), double(want.re), tol * scale) << p << " " << run.n << " " << run.m0 + j;
        EXPECT_NEAR(double(im[c][j]), double(want.im), tol * scale) << p << " " << run.n << " " << run.m0 + j;
      }
    }
  }
  for (int t = 0; t < term_count(p); ++t) EXPECT_EQ(seen[std::size_t(t)], 1) << "p " << p << " term " << t;
}

TEST(ScaledM2L, RunsOfOrdersPerThreadEqualTheSingleSums) {
  for (int p : {1, 2, 3, 7, 10, 16}) {
    check_run_sums<float, 1>(p, 101 + p);
    check_run_sums<float, 2>(p, 102 + p);
    check_run_sums<float, 4>(p, 103 + p);
    check_run_sums<double, 2>(p, 104 + p);
    check_run_sums<double, 4>(p, 105 + p);
  }
}

TEST(ScaledM2L, UnnormalisedFloatWouldOverflow) {
  // the reason for the normalisation: I_N^M(D) itself leaves float's range for small cells at high order
  const int q = 31;
  std::vector<Complex<float>> I(static_cast<std::size_t>(term_count(q)));
  irregular_harmonics(q, Vec3<float>{1e-2f, 2e-2f, 1.5e-2f}, I.data());
  bool finite = true;
  for (const auto& v : I) finite = finite && std::isfinite(v.re) && std::isfinite(v.im);
  EXPECT_FALSE(finite);
}

}  // namespace
}  // namespace loom::fmm
