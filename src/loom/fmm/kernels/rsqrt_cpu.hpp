// 1/sqrt(x) for the CPU's double P2P loops without the divider: a bit-level first guess (good to 3.4%) and four
// Newton steps y (3/2 - x y^2 / 2), all multiplies and adds, so that `omp simd` loops vectorise at full width.
// Within 3 ulp of 1/std::sqrt(x) for every normal x > 0 (tests/fmm/test_rsqrt_cpu.cpp). Where sqrt and divide
// share one unit of low throughput, that unit bounds the P2P loop (docs/performance.md, "FMM: figures behind code
// comments").
#pragma once

#include <bit>
#include <cstdint>

namespace loom::fmm {

inline double rsqrt_newton(double x) {
  double y = std::bit_cast<double>(std::uint64_t{0x5FE6EB50C7B537A9} - (std::bit_cast<std::uint64_t>(x) >> 1));
  const double h = 0.5 * x;
  for (int step = 0; step < 4; ++step) y = y * (1.5 - h * y * y);
  return y;
}

}  // namespace loom::fmm
