// The arithmetic of the GPU's P2P and M2L kernels (the CPU always runs in double). The paper runs its GPU
// kernels in single precision with compensating tricks; loom offers that as the default and two variants.
#pragma once

#include <string_view>

namespace loom::fmm {

enum class Precision {
  single,       // float kernels with split positions, refined rsqrt and summation in runs (p2p_float.hpp), the
                // M2L normalised (m2l_scaled.hpp): error floor ~1e-7 relative
  single_fast,  // float P2P with one float per coordinate and the bare rsqrtf (~1.7x fewer instructions per
                // pair): error floor ~1e-5 on clustered or shell-shaped bodies, ~4e-6 uniform
  double_,      // double kernels: the CPU's results to rounding
};

Precision parse_precision(std::string_view text);  // "single", "single-fast", "double"; UsageError otherwise
std::string_view to_string(Precision p);

}  // namespace loom::fmm
