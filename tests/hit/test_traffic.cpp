// The non-FFT traffic model of a step (traffic.hpp) against a count by hand of what solver.cpp's kernels read and
// write, in whole components of modes (16 bytes each) and of grid points (8 bytes).
#include <gtest/gtest.h>

#include "loom/hit/traffic.hpp"

namespace loom::test {
namespace {

struct Count {
  hit::Scheme scheme;
  hit::Dealiasing dealiasing;
  double a, b, c;  // components moved per step by kernels A (modes), B (points), C (modes)
};

TEST(HitTraffic, MatchesACountByHand) {
  // RK4, 2/3: 4 evaluations of A (3 read + 6 written) and B (6 + 3); C reads N and u, stages 2 and 3 read acc,
  // stages 1-3 write acc, every stage writes the next input: 12 + 15 + 15 + 12.
  // RK2: C 12 (N, u read; acc, next written) + 12 (N, u, acc read; u written).
  // RK4 phase shift: 8 evaluations; the first shift of each stage reads N and writes the partial (6), the second
  // reads N, the partial and u, then as 2/3: 15 + 18 + 18 + 15.
  const Count counts[] = {{hit::Scheme::rk4, hit::Dealiasing::two_thirds, 36, 36, 54},
                          {hit::Scheme::rk2, hit::Dealiasing::two_thirds, 18, 18, 24},
                          {hit::Scheme::rk4, hit::Dealiasing::phase_shift, 72, 72, 4 * 6 + 66}};
  const hit::SpectralGrid g{32};
  const double mode = 16.0 * 17 * 32 * 32, point = 8.0 * 32 * 32 * 32;
  for (const Count& c : counts) {
    const hit::StepTraffic t = hit::step_traffic(g, {0.01, c.scheme, c.dealiasing});
    EXPECT_EQ(t.to_physical, c.a * mode) << int(c.scheme) << int(c.dealiasing);
    EXPECT_EQ(t.cross_product, c.b * point) << int(c.scheme) << int(c.dealiasing);
    EXPECT_EQ(t.finish_stage, c.c * mode) << int(c.scheme) << int(c.dealiasing);
  }
}

}  // namespace
}  // namespace loom::test
