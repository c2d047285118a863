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

void logical_gradient(const Topology& t, Strategy s, OperatorCache& cache, Index components, const double* in,
                      double* out, AngularMethod m) {
  const Index block = components * t.size();
  for (int j = 0; j < 3; ++j) apply_steps(s, cache, t.derivative_steps(j, m), components, in, out + j * block);
}

void cartesian_gradient(const Topology& t, Strategy s, OperatorCache& cache,
                        const core::Array<double>& inverse_jacobian, const Tensor& in, core::Array<double>& scratch,
                        core::Array<double>& out, AngularMethod m) {
  const core::Where w = core::where(backend_of(s));
  logical_gradient(t, s, cache, in.components(), in.data.read(w), scratch.write(w), m);
  diff_jac(backend_of(s), inverse_jacobian, t.size(), in.components(), scratch, out);
}

void filter(const Topology& t, Strategy s, OperatorCache& cache, const FilterSpec& spec, Tensor& field,
            core::Array<double>& scratch, AngularMethod m) {
  const core::Where w = core::where(backend_of(s));
  for (const auto& op : t.filter_steps(spec, m)) {
    apply(s, cache, op, field.components(), field.data.read(w), scratch.write(w));
    std::swap(field.data, scratch);
  }
}

bool supports_gradient(const Topology& t, Strategy s, AngularMethod m) {
  for (int j = 0; j < 3; ++j)
    for (const auto& op : t.derivative_steps(j, m))
      if (!supports(s, op)) return false;
  return true;
}

bool supports_filter(const Topology& t, Strategy s, const FilterSpec& spec, AngularMethod m) {
  for (const auto& op : t.filter_steps(spec, m))
    if (!supports(s, op)) return false;
  return true;
}

perf::Work gradient_work(const Topology& t, Index components, AngularMethod m) {
  perf::Work w = diff_jac_work(t.size(), static_cast<int>(components));
  for (int j = 0; j < 3; ++j)
    for (const auto& op : t.derivative_steps(j, m)) w += matrix_work(op, components);
  return w;
}

perf::Work filter_work(const Topology& t, const FilterSpec& spec, Index components, AngularMethod m) {
  perf::Work w;
  for (const auto& op : t.filter_steps(spec, m)) w += matrix_work(op, components);
  return w;
}

}  // namespace loom::spectral
