#include "loom/spectral/operations.hpp"

#include <utility>

#include "loom/spectral/jacobian.hpp"

namespace loom::spectral {

void logical_gradient(const Topology& t, Strategy s, OperatorCache& cache, Index components, const double* in,
                      double* out) {
  const Index block = components * t.size();
  for (int j = 0; j < 3; ++j) apply(s, cache, t.derivative(j), components, in, out + j * block);
}

void cartesian_gradient(const Topology& t, Strategy s, OperatorCache& cache,
                        const core::Array<double>& inverse_jacobian, const Tensor& in, core::Array<double>& scratch,
                        core::Array<double>& out) {
  const core::Where w = core::where(backend_of(s));
  logical_gradient(t, s, cache, in.components(), in.data.read(w), scratch.write(w));
  diff_jac(backend_of(s), inverse_jacobian, t.size(), in.components(), scratch, out);
}

void filter(const Topology& t, Strategy s, OperatorCache& cache, const FilterSpec& spec, Tensor& field,
            core::Array<double>& scratch) {
  const core::Where w = core::where(backend_of(s));
  for (const auto& op : t.filter(spec)) {
    apply(s, cache, op, field.components(), field.data.read(w), scratch.write(w));
    std::swap(field.data, scratch);
  }
}

perf::Work gradient_work(const Topology& t, Index components) {
  perf::Work w = diff_jac_work(t.size(), static_cast<int>(components));
  for (int j = 0; j < 3; ++j) w += matrix_work(t.derivative(j).shape, components);
  return w;
}

perf::Work filter_work(const Topology& t, const FilterSpec& spec, Index components) {
  perf::Work w;
  for (const auto& op : t.filter(spec)) w += matrix_work(op.shape, components);
  return w;
}

}  // namespace loom::spectral
