#include "loom/spectral/operations.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "loom/core/error.hpp"
#include "loom/spectral/jacobian.hpp"

namespace loom::spectral {

void apply_steps(Strategy s, OperatorCache& cache, const std::vector<AxisOperator>& steps, Index components,
                 const double* in, double* out) {
  if (steps.size() == 1) return apply(s, cache, steps[0], components, in, out);
  const core::Where w = core::where(backend_of(s));
  Index largest = 0;
  for (const auto& op : steps) largest = std::max(largest, op.shape.output_size() * components);
  core::Array<double> ping(static_cast<std::size_t>(largest)), pong(static_cast<std::size_t>(largest));
  const double* from = in;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    double* to = k + 1 == steps.size() ? out : (k % 2 == 0 ? ping : pong).write(w);
    apply(s, cache, steps[k], components, from, to);
    from = to;
  }
}

namespace {

// The shapes of one angular sequence; none when a step does not act on whole radii (inner a multiple of n_r).
std::optional<gpu::AngularSequence> angular_sequence(const std::vector<AxisOperator>& steps, Index n_r) {
  gpu::AngularSequence q;
  if (steps.size() > std::size(q.steps)) return std::nullopt;
  for (const auto& op : steps) {
    if (op.shape.inner % n_r != 0) return std::nullopt;
    q.steps[q.count++] = {nullptr, op.shape, op.blocks};
  }
  return q;
}

// The two-launch gradient's plan for a shell whose radial derivative runs along the fastest axis and whose
// angular sequences fit in shared memory; none otherwise (a cube, the dense angular matrix).
std::optional<gpu::ShellGradientPlan> plan_shell(const Topology& t,
                                                 const std::array<std::vector<AxisOperator>, 3>& steps) {
  if (!dynamic_cast<const Shell*>(&t) || steps[0].size() != 1) return std::nullopt;
  const AxisShape& radial = steps[0][0].shape;
  if (radial.inner != 1 || steps[0][0].blocks != 1) return std::nullopt;
  gpu::ShellGradientPlan plan;
  plan.n_r = radial.n_in;
  plan.angular_points = radial.outer;
  const auto theta = angular_sequence(steps[1], plan.n_r), phi = angular_sequence(steps[2], plan.n_r);
  if (!theta || !phi) return std::nullopt;
  plan.theta = *theta;
  plan.phi = *phi;
  plan.share_first = steps[1].size() > 1 && steps[2].size() > 1 && steps[1][0].key == steps[2][0].key;
  if (!gpu::shell_gradient_fits(plan)) return std::nullopt;
  return plan;
}

void fill_matrices(OperatorCache& cache, const std::vector<AxisOperator>& steps, gpu::AngularSequence& q) {
  for (int k = 0; k < q.count; ++k) q.steps[k].matrix = cache.transposed(steps[k]).read(core::Where::device);
}

}  // namespace

Differentiator::Differentiator(const Topology& t, AngularMethod m) : topology_(t) {
  for (int j = 0; j < 3; ++j) steps_[j] = t.derivative_steps(j, m);
  shell_plan_ = plan_shell(t, steps_);
}

const gpu::ShellGradientPlan& Differentiator::shell_plan(OperatorCache& cache) const {
  if (ready_cache_ == cache.id()) return ready_plan_;
  ready_plan_ = *shell_plan_;
  ready_plan_.radial = cache.matrix(steps_[0][0]).read(core::Where::device);
  fill_matrices(cache, steps_[1], ready_plan_.theta);
  fill_matrices(cache, steps_[2], ready_plan_.phi);
  ready_cache_ = cache.id();
  return ready_plan_;
}

void Differentiator::logical_gradient(Strategy s, OperatorCache& cache, Index components, const double* in,
                                      double* out) const {
  if (fused_shell(s)) {
    core::Array<double> scratch(static_cast<std::size_t>(2 * components * topology_.size()));
    return gpu::shell_gradient(shell_plan(cache), components, nullptr, in, scratch.write(core::Where::device), out);
  }
  const Index block = components * topology_.size();
  for (int j = 0; j < 3; ++j) apply_steps(s, cache, steps_[j], components, in, out + j * block);
}

void Differentiator::cartesian_gradient(Strategy s, OperatorCache& cache, const core::Array<double>& inverse_jacobian,
                                        const Tensor& in, core::Array<double>& scratch,
                                        core::Array<double>& out) const {
  const core::Where w = core::where(backend_of(s));
  if (fused_shell(s)) {
    LOOM_REQUIRE(scratch.size() >= static_cast<std::size_t>(2 * in.components() * topology_.size()),
                 "cartesian_gradient: scratch too small");
    return gpu::shell_gradient(shell_plan(cache), in.components(), inverse_jacobian.read(w), in.data.read(w),
                               scratch.write(w), out.write(w));
  }
  logical_gradient(s, cache, in.components(), in.data.read(w), scratch.write(w));
  diff_jac(backend_of(s), inverse_jacobian, topology_.size(), in.components(), scratch, out);
}

bool Differentiator::supports(Strategy s) const {
  if (fused_shell(s)) return true;
  for (const auto& steps : steps_)
    for (const auto& op : steps)
      if (!spectral::supports(s, op)) return false;
  return true;
}

perf::Work Differentiator::work(Index components) const {
  perf::Work w = diff_jac_work(topology_.size(), static_cast<int>(components));
  for (const auto& steps : steps_)
    for (const auto& op : steps) w += matrix_work(op, components);
  return w;
}

SpectralFilter::SpectralFilter(const Topology& t, const FilterSpec& spec, AngularMethod m)
    : steps_(t.filter_steps(spec, m)) {}

void SpectralFilter::apply(Strategy s, OperatorCache& cache, Tensor& field, core::Array<double>& scratch) const {
  const core::Where w = core::where(backend_of(s));
  for (const auto& op : steps_) {
    spectral::apply(s, cache, op, field.components(), field.data.read(w), scratch.write(w));
    std::swap(field.data, scratch);
  }
}

bool SpectralFilter::supports(Strategy s) const {
  for (const auto& op : steps_)
    if (!spectral::supports(s, op)) return false;
  return true;
}

perf::Work SpectralFilter::work(Index components) const {
  perf::Work w;
  for (const auto& op : steps_) w += matrix_work(op, components);
  return w;
}

void logical_gradient(const Topology& t, Strategy s, OperatorCache& cache, Index components, const double* in,
                      double* out, AngularMethod m) {
  Differentiator(t, m).logical_gradient(s, cache, components, in, out);
}

void cartesian_gradient(const Topology& t, Strategy s, OperatorCache& cache,
                        const core::Array<double>& inverse_jacobian, const Tensor& in, core::Array<double>& scratch,
                        core::Array<double>& out, AngularMethod m) {
  Differentiator(t, m).cartesian_gradient(s, cache, inverse_jacobian, in, scratch, out);
}

void filter(const Topology& t, Strategy s, OperatorCache& cache, const FilterSpec& spec, Tensor& field,
            core::Array<double>& scratch, AngularMethod m) {
  SpectralFilter(t, spec, m).apply(s, cache, field, scratch);
}

bool supports_gradient(const Topology& t, Strategy s, AngularMethod m) { return Differentiator(t, m).supports(s); }

bool supports_filter(const Topology& t, Strategy s, const FilterSpec& spec, AngularMethod m) {
  return SpectralFilter(t, spec, m).supports(s);
}

perf::Work gradient_work(const Topology& t, Index components, AngularMethod m) {
  return Differentiator(t, m).work(components);
}

perf::Work filter_work(const Topology& t, const FilterSpec& spec, Index components, AngularMethod m) {
  return SpectralFilter(t, spec, m).work(components);
}

}  // namespace loom::spectral
