// The CPU form of the fused shell operations (shell_plan.hpp): the arithmetic of shell_sweep.hpp, one lane, one
// (radius, component) at a time, with host buffers in place of shared memory. It exists so that the CPU tests
// check the code the GPU kernels run (the plan, the component map, the sequences, the chain rule). The separable
// route runs its own passes (shell_separable.hpp); the dense angular matrix the generic sequence below.
#include <vector>

#include "loom/spectral/shell_plan.hpp"

namespace loom::spectral::cpu {

namespace {

void angular_blocks(const ShellGradientPlan& plan, const sweep::ComponentMap& map, double* scratch) {
  const Index buffer = shell_sweep_buffer(plan), components = map.components();
  std::vector<double> memory(static_cast<std::size_t>(4 * buffer));
  const sweep::Buffers b{memory.data(), memory.data() + buffer, memory.data() + 2 * buffer,
                         memory.data() + 3 * buffer, nullptr, 0};
  for (Index c = 0; c < components; ++c)
    for (Index r = 0; r < plan.n_r; ++r)
      sweep::angular_block(plan.theta, plan.phi, plan.share_first, plan.n_r, plan.angular_points, r, c, components,
                           map, scratch, b, sweep::Lanes{});
}

}  // namespace

void shell_gradient(const ShellGradientPlan& plan, const sweep::ComponentMap& map, const double* jacobian,
                    double* scratch) {
  if (const auto s = sweep::separable_route(plan)) return sweep::separable_cpu(*s, map, jacobian, scratch);
  angular_blocks(plan, map, scratch);
  const Index n = plan.n_r * plan.angular_points, components = map.components();
  for (Index t = 0; t < components * n; ++t)
    sweep::radial_gradient_point(plan.radial, plan.n_r, n, components, jacobian, map, scratch, t);
}

void shell_filter(const ShellGradientPlan& plan, const sweep::ComponentMap& map, double* scratch) {
  if (const auto s = sweep::separable_route(plan)) return sweep::separable_cpu(*s, map, nullptr, scratch);
  angular_blocks(plan, map, scratch);
  const Index n = plan.n_r * plan.angular_points, components = map.components();
  for (Index t = 0; t < components * n; ++t) sweep::radial_filter_point(plan.radial, plan.n_r, n, map, scratch, t);
}

}  // namespace loom::spectral::cpu
