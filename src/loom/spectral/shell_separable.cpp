// The separable route of a fused shell plan (shell_separable.hpp): recognising it, choosing the q group that fits
// the shared-memory budget, and its CPU form (the spectral blocks one after the other, one lane, then the physical
// tasks), which the CPU tests run as the check of the GPU kernels' arithmetic.
#include <vector>

#include "loom/core/error.hpp"

#include "loom/spectral/shell_plan.hpp"

namespace loom::spectral::sweep {

namespace {

bool is_dft(const AngularStep& a, Index n_r, Index n_theta, Index n_phi) {
  const AxisShape& s = a.shape;
  return a.blocks == 1 && s.inner == n_r * n_theta && s.n_in == n_phi && s.n_out == n_phi && s.outer == 1;
}

bool is_per_q(const AngularStep& a, Index n_r, Index n_theta, Index n_phi) {
  const AxisShape& s = a.shape;
  return a.blocks == n_phi && s.inner == n_r && s.n_in == n_theta && s.n_out == n_theta && s.outer == n_phi;
}

// DFT, per-q theta matrices, inverse DFT, on n_theta x n_phi angular points.
bool is_separable(const AngularSequence& q, Index n_r, Index n_theta, Index n_phi) {
  return q.count == 3 && is_dft(q.steps[0], n_r, n_theta, n_phi) && is_per_q(q.steps[1], n_r, n_theta, n_phi) &&
         is_dft(q.steps[2], n_r, n_theta, n_phi);
}

}  // namespace

std::optional<Separable> separable_route(const ShellGradientPlan& plan, Index budget) {
  if (plan.theta.count != 3) return std::nullopt;
  Separable s;
  s.n_r = plan.n_r;
  s.n_theta = plan.theta.steps[1].shape.n_in;
  s.n_phi = plan.theta.steps[0].shape.n_in;
  if (s.n_theta * s.n_phi != plan.angular_points || !is_separable(plan.theta, s.n_r, s.n_theta, s.n_phi))
    return std::nullopt;
  s.filter = plan.phi.count == 0;
  if (!s.filter && !(plan.share_first && is_separable(plan.phi, s.n_r, s.n_theta, s.n_phi))) return std::nullopt;
  s.radial = plan.radial;
  s.forward = plan.theta.steps[0].matrix;
  const AngularSequence* sequences[2] = {&plan.theta, &plan.phi};
  for (int t = 0; t < s.sequences(); ++t) {
    s.per_q[t] = sequences[t]->steps[1].matrix;
    s.inverse[t] = sequences[t]->steps[2].matrix;
  }
  for (s.group = max_group; s.group > 1 && spectral_shared(s) * Index{sizeof(double)} > budget; s.group /= 2) {
  }
  if (spectral_shared(s) * Index{sizeof(double)} > budget) return std::nullopt;
  return s;
}

void check_tasks(const Separable& s, Index components) {
  LOOM_REQUIRE(physical_tasks(s, components) < (Index{1} << 31), "separable shell route: too many components");
}

void separable_cpu(const Separable& s, const ComponentMap& map, const double* jacobian, double* scratch) {
  check_tasks(s, map.components());
  std::vector<double> shared(static_cast<std::size_t>(spectral_shared(s)));
  const Index components = map.components();
  for (Index c = 0; c < components; ++c)
    for (Index g = 0; g < s.groups(); ++g) spectral_block(s, g, c, components, map, scratch, shared.data(), Lanes{});
  for (Index t = 0; t < physical_tasks(s, components); ++t) physical_task(s, components, jacobian, map, scratch, t);
}

}  // namespace loom::spectral::sweep
