#include "loom/spectral/operations.hpp"

#include <algorithm>
#include <utility>

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

Differentiator::Differentiator(const Topology& t, AngularMethod m) : topology_(t) {
  for (int j = 0; j < 3; ++j) steps_[j] = t.derivative_steps(j, m);
}

void Differentiator::logical_gradient(Strategy s, OperatorCache& cache, Index components, const double* in,
                                      double* out) const {
  const Index block = components * topology_.size();
  for (int j = 0; j < 3; ++j) apply_steps(s, cache, steps_[j], components, in, out + j * block);
}

void Differentiator::cartesian_gradient(Strategy s, OperatorCache& cache, const core::Array<double>& inverse_jacobian,
                                        const Tensor& in, core::Array<double>& scratch,
                                        core::Array<double>& out) const {
  const core::Where w = core::where(backend_of(s));
  logical_gradient(s, cache, in.components(), in.data.read(w), scratch.write(w));
  diff_jac(backend_of(s), inverse_jacobian, topology_.size(), in.components(), scratch, out);
}

bool Differentiator::supports(Strategy s) const {
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
