// Reference sums and errors (checks.hpp).
#include "loom/fmm/run/checks.hpp"

#include <algorithm>

#include "loom/fmm/direct.hpp"
#include "loom/fmm/ewald.hpp"

namespace loom::fmm {

Index default_reference_pairs(Kernel kernel) { return kernel == Kernel::laplace ? 2000000000 : 200000000; }

std::vector<Index> reference_targets(Index n, Index samples, Index pairs) {
  return sample_targets(n, std::min<Index>(samples, std::max<Index>(10, pairs / std::max<Index>(n, 1))));
}

Reference laplace_reference(std::span<const Vec3d> positions, std::span<const double> charges,
                            std::vector<Index> targets, const Options& options) {
  Reference r;
  r.targets = std::move(targets);
  if (options.periodic)
    ewald_laplace(positions, charges, options.period, r.targets, r.potential, r.gradient);
  else
    direct_laplace(positions, charges, r.targets, r.potential, r.gradient);
  return r;
}

Reference biot_savart_reference(std::span<const Vec3d> positions, std::span<const Vec3d> alpha,
                                std::span<const double> sigma, std::vector<Index> targets) {
  Reference r;
  r.targets = std::move(targets);
  direct_biot_savart(positions, alpha, sigma, r.targets, r.velocity, r.stretching);
  return r;
}

namespace {

template <class T>
std::vector<T> at_targets(const std::vector<T>& values, const std::vector<Index>& targets) {
  std::vector<T> out;
  out.reserve(targets.size());
  for (Index i : targets) out.push_back(values[static_cast<std::size_t>(i)]);
  return out;
}

}  // namespace

LaplaceErrors errors(const LaplaceResult& result, const Reference& ref) {
  if (ref.targets.empty()) return {};
  return {relative_l2_error(at_targets(result.potential, ref.targets), ref.potential),
          relative_l2_error(at_targets(result.gradient, ref.targets), ref.gradient)};
}

BiotSavartErrors errors(const BiotSavartResult& result, const Reference& ref) {
  if (ref.targets.empty()) return {};
  return {relative_l2_error(at_targets(result.velocity, ref.targets), ref.velocity),
          relative_l2_error(at_targets(result.stretching, ref.targets), ref.stretching)};
}

}  // namespace loom::fmm
