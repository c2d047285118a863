#include "loom/vortex/neutral.hpp"

namespace loom::vortex {

fmm::Vec3d mean_strength(std::span<const fmm::Vec3d> alpha) {
  fmm::Vec3d sum{};
  for (const fmm::Vec3d& a : alpha) sum += a;
  return alpha.empty() ? sum : (1.0 / static_cast<double>(alpha.size())) * sum;
}

void subtract_mean(std::span<const fmm::Vec3d> alpha, fmm::Vec3d mean, std::vector<fmm::Vec3d>& out) {
  out.resize(alpha.size());
  for (std::size_t i = 0; i < alpha.size(); ++i) out[i] = alpha[i] - mean;
}

}  // namespace loom::vortex
