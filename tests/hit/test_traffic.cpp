// The non-FFT traffic model of a step (traffic.hpp) against a count by hand of what solver.cpp's kernels and the
// cuFFT callbacks read and write, in whole components of modes (16 bytes each) and of grid points (8 bytes), with
// the kept modes counted directly.
#include <gtest/gtest.h>

#include <cmath>

#include "loom/hit/traffic.hpp"

namespace loom::test {
namespace {

struct Count {
  hit::Scheme scheme;
  hit::Dealiasing dealiasing;
  int evaluations;
  double c;  // kept-mode components kernel C moves per step
};

// The kept stored modes of n = 32 by brute force: every (kx >= 0, ky, kz) tested against the masks' definitions.
double kept_by_count(hit::Dealiasing d) {
  const int n = 32;
  double kept = 0;
  for (int kz = -n / 2; kz < n / 2; ++kz)
    for (int ky = -n / 2; ky < n / 2; ++ky)
      for (int kx = 0; kx <= n / 2; ++kx) {
        const bool keep = d == hit::Dealiasing::two_thirds ? 3 * std::max({kx, std::abs(ky), std::abs(kz)}) < n
                                                           : 9 * (kx * kx + ky * ky + kz * kz) < 2 * n * n;
        kept += keep ? 1 : 0;
      }
  return kept / (17.0 * 32 * 32);
}

TEST(HitTraffic, KeptFractionsMatchACount) {
  // 2/3 rule: kx in [0, 10], ky and kz in [-10, 10].
  EXPECT_DOUBLE_EQ(hit::kept_fraction({32}, hit::Dealiasing::two_thirds), 11.0 * 21 * 21 / (17.0 * 32 * 32));
  EXPECT_DOUBLE_EQ(hit::kept_fraction({32}, hit::Dealiasing::phase_shift), kept_by_count(hit::Dealiasing::phase_shift));
  EXPECT_DOUBLE_EQ(hit::kept_fraction({32}, hit::Dealiasing::two_thirds), kept_by_count(hit::Dealiasing::two_thirds));
}

TEST(HitTraffic, MatchesACountByHand) {
  // Kernel A per evaluation: the input's kept modes read (3 kappa), u and omega written (6); inside the transforms
  // 9 kappa read for the transforms' own 6. B: 6 + 3 points. C on the kept modes: RK4, 2/3: N and u read, stages 2
  // and 3 read acc, stages 1-3 write acc, every stage writes the next input: 12 + 15 + 15 + 12. RK2: 12 + 12.
  // RK4 phase shift: the first shift of each stage reads N and writes the partial (6), the second reads N, the
  // partial and u, then as 2/3: 4 * 6 + 15 + 18 + 18 + 15. Inside the transforms, one more kept component per
  // evaluation (N_x and N_y stored and read back, N_z in hand) less the transforms' own 3 stores.
  const Count counts[] = {{hit::Scheme::rk4, hit::Dealiasing::two_thirds, 4, 54},
                          {hit::Scheme::rk2, hit::Dealiasing::two_thirds, 2, 24},
                          {hit::Scheme::rk4, hit::Dealiasing::phase_shift, 8, 4 * 6 + 66}};
  const hit::SpectralGrid g{32};
  const double mode = 16.0 * 17 * 32 * 32, point = 8.0 * 32 * 32 * 32;
  for (const Count& c : counts) {
    const double kappa = kept_by_count(c.dealiasing), e = c.evaluations;
    const hit::StepTraffic t = hit::step_traffic(g, {0.01, c.scheme, c.dealiasing});
    EXPECT_NEAR(t.to_physical, e * (3 * kappa + 6) * mode, 1e-9 * mode) << int(c.scheme) << int(c.dealiasing);
    EXPECT_EQ(t.cross_product, e * 9 * point) << int(c.scheme) << int(c.dealiasing);
    EXPECT_NEAR(t.finish_stage, kappa * c.c * mode, 1e-9 * mode) << int(c.scheme) << int(c.dealiasing);
    const hit::StepTraffic in = hit::step_traffic(g, {0.01, c.scheme, c.dealiasing}, hit::FieldPath::callbacks);
    EXPECT_NEAR(in.to_physical, e * (9 * kappa - 6) * mode, 1e-9 * mode) << int(c.scheme) << int(c.dealiasing);
    EXPECT_EQ(in.cross_product, t.cross_product);
    EXPECT_NEAR(in.finish_stage, (kappa * (c.c + e) - 3 * e) * mode, 1e-9 * mode) << int(c.scheme);
  }
}

TEST(HitTraffic, KeptFieldsPathMatchesACountByHand) {
  // Kernel A writes the kept modes only (3 kappa read, 6 kappa written); the transforms zero `z` of 6 components
  // per evaluation. Under the 2/3 rule (one grid) kernel A runs for the first stage only: the other stages' inputs
  // come from the update before, which writes 6 kept components in place of 3 (RK4: stages 1-3; RK2: stage 1).
  // Phase shift: kernel A every evaluation, the updates as without kept fields.
  const Count counts[] = {{hit::Scheme::rk4, hit::Dealiasing::two_thirds, 4, 54 + 3 * 3},
                          {hit::Scheme::rk2, hit::Dealiasing::two_thirds, 2, 24 + 3},
                          {hit::Scheme::rk4, hit::Dealiasing::phase_shift, 8, 4 * 6 + 66}};
  const hit::SpectralGrid g{32};
  const double mode = 16.0 * 17 * 32 * 32, point = 8.0 * 32 * 32 * 32, z = 0.25;
  for (const Count& c : counts) {
    const double kappa = kept_by_count(c.dealiasing), e = c.evaluations;
    const double a_runs = c.dealiasing == hit::Dealiasing::two_thirds ? 1 : e;
    const hit::StepTraffic t = hit::step_traffic(g, {0.01, c.scheme, c.dealiasing}, hit::FieldPath::kept, z);
    EXPECT_NEAR(t.to_physical, a_runs * 9 * kappa * mode, 1e-9 * mode) << int(c.scheme) << int(c.dealiasing);
    EXPECT_NEAR(t.zero_pass, e * 6 * z * mode, 1e-9 * mode) << int(c.scheme) << int(c.dealiasing);
    EXPECT_EQ(t.cross_product, e * 9 * point) << int(c.scheme) << int(c.dealiasing);
    EXPECT_NEAR(t.finish_stage, kappa * c.c * mode, 1e-9 * mode) << int(c.scheme) << int(c.dealiasing);
  }
}

}  // namespace
}  // namespace loom::test
