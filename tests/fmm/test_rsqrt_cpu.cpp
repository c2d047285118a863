// The CPU P2P's reciprocal square root (src/loom/fmm/kernels/rsqrt_cpu.hpp) against 1/std::sqrt over the whole range of
// normal doubles: within 3 ulp (the division it replaces rounds to 0.5 ulp; the FMM's own errors are 1e-7 and up).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/kernels/rsqrt_cpu.hpp"

namespace loom::fmm {
namespace {

std::int64_t ulps_apart(double a, double b) {
  const auto d = std::bit_cast<std::int64_t>(a) - std::bit_cast<std::int64_t>(b);
  return d < 0 ? -d : d;
}

TEST(RsqrtCpu, WithinThreeUlpOfTheLibrary) {
  Random rng(21);
  std::int64_t worst = 0;
  for (int k = 0; k < 1000000; ++k) {
    const double x = std::exp(rng.uniform(-700, 700));
    worst = std::max(worst, ulps_apart(rsqrt_newton(x), 1 / std::sqrt(x)));
  }
  std::printf("worst: %lld ulp\n", static_cast<long long>(worst));
  EXPECT_LE(worst, 3);
  for (double x : {1.0, 4.0, 0.25, 1024.0, 0x1p-60, 0x1p+60})
    EXPECT_LE(ulps_apart(rsqrt_newton(x), 1 / std::sqrt(x)), 1);
}

}  // namespace
}  // namespace loom::fmm
