#include "loom/vortex/neutral.hpp"

#include "loom/core/parallel_for.hpp"

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

void subtract_mean_on(core::Backend b, Index n, const fmm::Vec3d* alpha, fmm::Vec3d* out) {
  fmm::Vec3d mean{};
  for (int c = 0; c < 3; ++c)
    mean[c] = core::parallel_sum(b, n, [=] LOOM_HOST_DEVICE(Index i) { return alpha[i][c]; }) / static_cast<double>(n);
  core::parallel_for(b, n, [=] LOOM_HOST_DEVICE(Index i) { out[i] = alpha[i] - mean; });
}

}  // namespace loom::vortex
