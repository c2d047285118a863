// The accuracy check the Laplace tests share: the relative l2 error of an FMM's gradient against the direct sum
// (fmm/direct.hpp) at `samples` targets sampled from the bodies.
#pragma once

#include <span>
#include <vector>

#include "loom/fmm/direct.hpp"

namespace loom::fmm::test {

inline double sampled_gradient_error(const std::vector<Vec3d>& x, const std::vector<double>& q,
                                     std::span<const Vec3d> gradient, Index samples) {
  const auto targets = sample_targets(static_cast<Index>(x.size()), samples);
  std::vector<double> phi;
  std::vector<Vec3d> exact, mine;
  direct_laplace(x, q, targets, phi, exact);
  for (Index t : targets) mine.push_back(gradient[static_cast<std::size_t>(t)]);
  return relative_l2_error(mine, exact);
}

}  // namespace loom::fmm::test
