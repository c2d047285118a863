// The statistics of `loom hit` against values worked out by hand for Taylor-Green, and the seeded random field
// against its prescribed spectrum.
#include <gtest/gtest.h>

#include <cmath>

#include "backends.hpp"
#include "hit/hit_fields.hpp"
#include "io/temp_dir.hpp"
#include "loom/hit/observables.hpp"
#include "loom/hit/snapshot.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::test {
namespace {

class HitObservables : public ::testing::TestWithParam<core::Backend> {
 protected:
  void SetUp() override { skip_unless_available(GetParam()); }
};

// u = (sin x cos y cos z, -cos x sin y cos z, 0): <u^2> = <v^2> = 1/8, omega = (-cos x sin y sin z,
// -sin x cos y sin z, 2 sin x sin y cos z) so <|omega|^2> = 3/4; du/dx = -dv/dy = cos x cos y cos z (dw/dz = 0
// has no moments) gives skewness 0 and flatness <c^4>^3 / <c^2>^6 = (3/8)^3 / (1/2)^6 = 27/8; all the energy sits on |k| = sqrt(3).
TEST_P(HitObservables, TaylorGreenByHand) {
  const double nu = 0.01;
  hit::Solver s(GetParam(), {16}, {nu});
  s.set_velocity(hit::taylor_green({16}, 1.0));
  const hit::Statistics st = hit::measure(s);
  EXPECT_NEAR(st.energy, 0.125, 1e-15);
  EXPECT_NEAR(st.enstrophy, 0.375, 1e-14);
  EXPECT_NEAR(st.dissipation, 2 * nu * 0.375, 1e-15);
  const double u2 = 2 * 0.125 / 3;
  EXPECT_NEAR(st.u_rms, std::sqrt(u2), 1e-15);
  EXPECT_NEAR(st.taylor_microscale, std::sqrt(15 * nu * u2 / (2 * nu * 0.375)), 1e-13);
  EXPECT_NEAR(st.re_lambda, std::sqrt(u2) * std::sqrt(15 * u2 / 0.75) / nu, 1e-10);
  EXPECT_NEAR(st.kolmogorov_scale, std::pow(nu * nu * nu / (0.75 * nu), 0.25), 1e-15);
  EXPECT_NEAR(st.kmax_eta, 16.0 / 3 * st.kolmogorov_scale, 1e-14);
  EXPECT_NEAR(st.integral_scale, M_PI / (2 * u2) * 0.125 / std::sqrt(3.0), 1e-13);
  EXPECT_NEAR(st.skewness, 0, 1e-13);
  EXPECT_NEAR(st.flatness, 27.0 / 8, 1e-12);
  EXPECT_LT(st.divergence_max, 1e-14);
  ASSERT_GE(st.spectrum.size(), 3u);
  EXPECT_NEAR(st.spectrum[2], 0.125, 1e-15);  // |k| = 1.73 rounds to shell 2
  EXPECT_LT(st.spectrum[1], 1e-30);
}

// Inviscid: the Taylor microscale sqrt(15 u'^2 / (2 Omega)) does not depend on nu, Re_lambda is +infinity (it
// was 0/0, NaN, before), the dissipation and the Kolmogorov scale zero.
TEST_P(HitObservables, InviscidTaylorGreenHasAFiniteMicroscaleAndInfiniteReynoldsNumber) {
  hit::Solver s(GetParam(), {16}, {0.0});
  s.set_velocity(hit::taylor_green({16}, 1.0));
  const hit::Statistics st = hit::measure(s);
  const double u2 = 2 * 0.125 / 3;
  EXPECT_NEAR(st.taylor_microscale, std::sqrt(15 * u2 / 0.75), 1e-13);
  EXPECT_TRUE(std::isinf(st.re_lambda) && st.re_lambda > 0);
  EXPECT_EQ(st.dissipation, 0.0);
  EXPECT_EQ(st.kolmogorov_scale, 0.0);
}

// The snapshot's vorticity is the curl of Taylor-Green: (-cos x sin y sin z, -sin x cos y sin z, 2 sin x sin y cos z).
TEST_P(HitObservables, SnapshotHoldsVelocityAndVorticity) {
  const hit::SpectralGrid g{16};
  hit::Solver s(GetParam(), g, {0.01});
  s.set_velocity(hit::taylor_green(g, 1.0));
  TempDir dir;
  hit::write_field_snapshot(dir / "f.h5", s);
  const io::Hdf5Reader h5(dir / "f.h5");
  const auto u = h5.read_double("fields/velocity"), w = h5.read_double("fields/vorticity"),
             m = h5.read_double("fields/vorticity_magnitude");
  ASSERT_EQ(w.size(), 3 * std::size_t(g.points()));
  double err = 0;
  for (Index i = 0; i < g.points(); ++i) {
    const double x = g.spacing() * double(i % 16), y = g.spacing() * double((i / 16) % 16),
                 z = g.spacing() * double(i / 256);
    const double expected[3] = {-std::cos(x) * std::sin(y) * std::sin(z), -std::sin(x) * std::cos(y) * std::sin(z),
                                2 * std::sin(x) * std::sin(y) * std::cos(z)};
    for (int c = 0; c < 3; ++c) err = std::max(err, std::abs(w[std::size_t(3 * i + c)] - expected[c]));
    err = std::max(err, std::abs(u[std::size_t(3 * i)] - std::sin(x) * std::cos(y) * std::cos(z)));
    err = std::max(err, std::abs(m[std::size_t(i)] - std::hypot(expected[0], expected[1], expected[2])));
  }
  EXPECT_LT(err, 1e-14);
}

TEST(HitRandomField, FollowsItsSpectrumShellByShellAndItsSeed) {
  const hit::SpectralGrid g{32};
  const double energy = 0.7, k_peak = 4;
  for (auto shape : {hit::SpectrumShape::exponential, hit::SpectrumShape::von_karman}) {
    const auto modes = hit::random_solenoidal(g, hit::Dealiasing::two_thirds, shape, k_peak, energy, 11);
    const hit::SpectralSums sums = hit::spectral_sums(g, modes.read(core::Where::host));
    EXPECT_NEAR(sums.energy, energy, 1e-14);
    double norm = 0;
    // The 2/3 rule keeps the cube |k_i| <= 10, which reaches |k| = 10 sqrt(3) = 17.3: shells 1 to 17.
    for (int s = 1; s <= 17; ++s) norm += hit::spectrum_shape(shape, s, k_peak);
    EXPECT_EQ(sums.spectrum[18], 0);
    for (int s = 1; s <= 17; ++s)
      EXPECT_NEAR(sums.spectrum[std::size_t(s)], energy * hit::spectrum_shape(shape, s, k_peak) / norm, 1e-14) << s;
    // Solenoidal: k . u_hat = 0 mode by mode.
    const hit::Complex* u = modes.read(core::Where::host);
    const Index M = g.modes();
    double div = 0;
    for (Index m = 0; m < M; ++m) {
      const auto k = g.wavevector(m);
      div = std::max(div, core::abs(k.x * u[m] + k.y * u[M + m] + k.z * u[2 * M + m]));
    }
    EXPECT_LT(div, 1e-15);
  }
  const auto a = hit::random_solenoidal(g, hit::Dealiasing::two_thirds, hit::SpectrumShape::exponential, 4, 0.5, 3);
  const auto b = hit::random_solenoidal(g, hit::Dealiasing::two_thirds, hit::SpectrumShape::exponential, 4, 0.5, 3);
  const auto c = hit::random_solenoidal(g, hit::Dealiasing::two_thirds, hit::SpectrumShape::exponential, 4, 0.5, 4);
  EXPECT_EQ(max_difference(a, b), 0);
  EXPECT_GT(max_difference(a, c), 1e-3 * max_abs(a));
}

LOOM_INSTANTIATE_FOR_BACKENDS(HitObservables);

}  // namespace
}  // namespace loom::test
