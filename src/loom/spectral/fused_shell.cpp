#include "loom/spectral/fused_shell.hpp"

#include <iterator>

#include "loom/core/error.hpp"
#include "loom/spectral/gpu_apply.hpp"

namespace loom::spectral {

namespace {

// The shapes of one angular sequence; none when a step does not act on whole radii (inner a multiple of n_r).
std::optional<sweep::AngularSequence> angular_shapes(const std::vector<AxisOperator>& steps, Index n_r) {
  sweep::AngularSequence q;
  if (steps.size() > std::size(q.steps)) return std::nullopt;
  for (const auto& op : steps) {
    if (op.shape.inner % n_r != 0) return std::nullopt;
    q.steps[q.count++] = {nullptr, op.shape, op.blocks};
  }
  return q;
}

bool radial_along_fastest(const Topology& t, const AxisOperator& radial) {
  return dynamic_cast<const Shell*>(&t) != nullptr && radial.shape.inner == 1 && radial.blocks == 1 &&
         radial.shape.n_in == radial.shape.n_out;
}

// The separable route's passes need less shared memory than the generic kernel's four buffers (BBH k = 16,
// 20 x 39 x 78: 30 KB against 97 KB), so either one fitting is enough.
bool fits(const ShellGradientPlan& shapes) { return shell_sweep_fits(shapes) || sweep::separable_route(shapes); }

}  // namespace

std::optional<FusedShell> FusedShell::gradient(const Topology& t,
                                               const std::array<std::vector<AxisOperator>, 3>& steps) {
  if (steps[0].size() != 1 || !radial_along_fastest(t, steps[0][0])) return std::nullopt;
  FusedShell f;
  f.radial_ = steps[0][0];
  f.first_ = steps[1];
  f.second_ = steps[2];
  f.shapes_.n_r = f.radial_.shape.n_in;
  f.shapes_.angular_points = f.radial_.shape.outer;
  const auto theta = angular_shapes(f.first_, f.shapes_.n_r), phi = angular_shapes(f.second_, f.shapes_.n_r);
  if (!theta || !phi) return std::nullopt;
  f.shapes_.theta = *theta;
  f.shapes_.phi = *phi;
  f.shapes_.share_first = f.first_.size() > 1 && f.second_.size() > 1 && f.first_[0].key == f.second_[0].key;
  if (!fits(f.shapes_)) return std::nullopt;
  return f;
}

std::optional<FusedShell> FusedShell::filter(const Topology& t, const std::vector<AxisOperator>& steps) {
  if (steps.size() < 2 || !radial_along_fastest(t, steps[0])) return std::nullopt;
  FusedShell f;
  f.radial_ = steps[0];
  f.first_.assign(steps.begin() + 1, steps.end());
  f.shapes_.n_r = f.radial_.shape.n_in;
  f.shapes_.angular_points = f.radial_.shape.outer;
  const auto angular = angular_shapes(f.first_, f.shapes_.n_r);
  if (!angular) return std::nullopt;
  f.shapes_.theta = *angular;
  if (!fits(f.shapes_)) return std::nullopt;
  return f;
}

void FusedShell::fill(OperatorCache& cache, core::Where w, ShellGradientPlan& plan) const {
  plan = shapes_;
  plan.radial = cache.matrix(radial_).read(w);
  for (int k = 0; k < plan.theta.count; ++k) plan.theta.steps[k].matrix = cache.transposed(first_[k]).read(w);
  for (int k = 0; k < plan.phi.count; ++k) plan.phi.steps[k].matrix = cache.transposed(second_[k]).read(w);
}

const ShellGradientPlan& FusedShell::plan(OperatorCache& cache, core::Where w) const {
  if (w == core::Where::host) {
    fill(cache, w, host_plan_);
    return host_plan_;
  }
  if (device_cache_ != cache.id()) {
    fill(cache, w, device_plan_);
    launch_ = gpu::shell_launch(device_plan_);
    device_cache_ = cache.id();
  }
  return device_plan_;
}

void add_part(sweep::ComponentMap& map, const double* in, double* out, Index components) {
  if (map.parts == sweep::ComponentMap::max_parts)
    throw UsageError("tensor: at most " + std::to_string(sweep::ComponentMap::max_parts) + " tensors in one call");
  map.in[map.parts] = in;
  map.out[map.parts] = out;
  map.first[map.parts + 1] = map.first[map.parts] + components;
  ++map.parts;
}

sweep::ComponentMap component_map(std::span<const double* const> in, std::span<double* const> out,
                                  std::span<const Index> components) {
  LOOM_REQUIRE(out.size() == in.size() && components.size() == in.size(), "component_map: lists of unequal length");
  sweep::ComponentMap map;
  for (std::size_t t = 0; t < in.size(); ++t) add_part(map, in[t], out[t], components[t]);
  return map;
}

sweep::ComponentMap component_map(const double* in, double* out, Index components) {
  return component_map(std::span<const double* const>(&in, 1), std::span<double* const>(&out, 1),
                       std::span<const Index>(&components, 1));
}

}  // namespace loom::spectral
