// fft.callbacks = on: the per-element functions cuFFT's callbacks run inside its transforms (stage_modes.hpp's
// load_element, store_kept, store_update, with the offsets cuFFT hands them), run element by element on the CPU
// around FFTW's transforms, against the solver's own kernels: the same modes to rounding after steps of every
// scheme and dealiasing. The load's curl against i k x u written out here, and a dropped mode read not at all.
#include <gtest/gtest.h>

#include <limits>

#include "hit/hit_fields.hpp"
#include "loom/hit/stage_modes.hpp"

namespace loom::test {
namespace {

TEST(HitCallbacks, HostCallbacksStepAsTheKernels) {
  for (auto scheme : {hit::Scheme::rk4, hit::Scheme::rk2})
    for (auto d : {hit::Dealiasing::two_thirds, hit::Dealiasing::phase_shift}) {
      hit::SolverOptions o{0.005, scheme, d};
      o.pruning = hit::Pruning::off;  // the callbacks' plain transforms on both sides (equal steps to the bit)
      hit::Solver plain = random_solver(core::Backend::cpu, 16, o);
      o.callbacks = true;
      hit::Solver fused = random_solver(core::Backend::cpu, 16, o);
      ASSERT_TRUE(fused.transforms().fuses());
      ASSERT_FALSE(plain.transforms().fuses());
      for (int i = 0; i < 3; ++i) {
        const double h_plain = plain.step({0, 0.5}), h_fused = fused.step({0, 0.5});
        ASSERT_EQ(h_fused, h_plain) << i;
      }
      EXPECT_LE(max_difference(plain.modes(), fused.modes()), 1e-14 * max_abs(plain.modes())) << int(scheme) << int(d);
    }
}

TEST(HitCallbacks, LoadGivesVelocityAndVorticityOfAKeptMode) {
  const hit::SpectralGrid g{16};
  const hit::SlabLayout L = hit::SlabLayout::whole(g);
  const Index M = g.modes(), m = 2 + g.half() * (3 + g.n * (g.n - 1));  // k = (2, 3, -1)
  std::vector<hit::Complex> u(3 * std::size_t(M));
  const hit::Complex ux{1, 2}, uy{-3, 0.5}, uz{0.25, -1};
  u[std::size_t(m)] = ux, u[std::size_t(M + m)] = uy, u[std::size_t(2 * M + m)] = uz;
  const hit::ModeLoad load{u.data(), L, hit::Dealiasing::two_thirds, 0};
  const double kx = 2, ky = 3, kz = -1;
  // omega = i k x u, component by component.
  const hit::Complex expected[6] = {
      ux, uy, uz, core::times_i(ky * uz - kz * uy), core::times_i(kz * ux - kx * uz), core::times_i(kx * uy - ky * ux)};
  for (int c = 0; c < 6; ++c) {
    const hit::Complex v = hit::load_element(load, c * M + m);
    EXPECT_EQ(v.re, expected[c].re) << c;
    EXPECT_EQ(v.im, expected[c].im) << c;
  }
}

TEST(HitCallbacks, DroppedModesAreNotRead) {
  const hit::SpectralGrid g{16};
  const Index M = g.modes(), m = 7 + g.half() * 1;  // k = (7, 1, 0): 3 * 7 >= 16, dropped by the 2/3 rule
  std::vector<hit::Complex> u(3 * std::size_t(M));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (Index c = 0; c < 3; ++c) u[std::size_t(c * M + m)] = {nan, nan};
  const hit::ModeLoad load{u.data(), hit::SlabLayout::whole(g), hit::Dealiasing::two_thirds, 0};
  for (int c = 0; c < 6; ++c) {
    const hit::Complex v = hit::load_element(load, c * M + m);
    EXPECT_EQ(v.re, 0.0) << c;
    EXPECT_EQ(v.im, 0.0) << c;
  }
}

}  // namespace
}  // namespace loom::test
