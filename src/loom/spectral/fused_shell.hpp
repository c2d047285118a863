// The fused route of a shell operation (shell_plan.hpp), built once from the operation's operator sequences:
// the gradient (radial derivative, the theta and phi sequences, the chain rule) or the filter (radial filter,
// one angular sequence), each two launches on the GPU for any number of tensors. The device plan and its launch
// configuration are kept between calls, per operator cache (a cache's matrices never move), so a call does no
// host work but the two launches.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/spectral/operator_cache.hpp"
#include "loom/spectral/shell_plan.hpp"
#include "loom/spectral/tensor.hpp"
#include "loom/spectral/topology.hpp"

namespace loom::spectral {

class FusedShell {
 public:
  // None when the topology is not a shell, the radial step is not a single matrix along the fastest axis, or the
  // angular buffers would not fit in shared memory.
  static std::optional<FusedShell> gradient(const Topology& t, const std::array<std::vector<AxisOperator>, 3>& steps);
  static std::optional<FusedShell> filter(const Topology& t, const std::vector<AxisOperator>& steps);

  // The plan with the matrices of `cache` on side w (host plans are built on each call: the CPU form is a check).
  const ShellGradientPlan& plan(OperatorCache& cache, core::Where w) const;
  // The launch configuration of the device plan (computed with it).
  const ShellLaunch& launch() const { return launch_; }
  Index points() const { return shapes_.n_r * shapes_.angular_points; }
  // Whether the plan is the separable route (phi DFT, per-q theta matrices, inverse DFT), from the shapes alone.
  bool separable() const { return sweep::separable_route(shapes_).has_value(); }
  // The separable route's extents whatever its shared memory (no matrices): what the cluster route is sized by.
  std::optional<sweep::Separable> separable_shapes() const { return sweep::separable_route(shapes_, Index{1} << 40); }

 private:
  FusedShell() = default;
  void fill(OperatorCache& cache, core::Where w, ShellGradientPlan& plan) const;

  ShellGradientPlan shapes_;  // no matrices
  AxisOperator radial_;
  std::vector<AxisOperator> first_, second_;
  mutable ShellGradientPlan device_plan_, host_plan_;
  mutable ShellLaunch launch_;
  mutable std::uint64_t device_cache_ = 0;  // OperatorCache::id() of device_plan_'s matrices
};

// Appends a tensor of `components` components (input in, output out) to the map, without allocating (it runs on
// every call); UsageError when the map holds ComponentMap::max_parts tensors already.
void add_part(sweep::ComponentMap& map, const double* in, double* out, Index components);
// The component map of tensors that are each one array: in[t] (components[t] of them) to outputs out[t].
sweep::ComponentMap component_map(std::span<const double* const> in, std::span<double* const> out,
                                  std::span<const Index> components);
// One contiguous block of `components` fields.
sweep::ComponentMap component_map(const double* in, double* out, Index components);

}  // namespace loom::spectral
