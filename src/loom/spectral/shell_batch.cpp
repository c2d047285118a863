#include "loom/spectral/shell_batch.hpp"

#include <string>

#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"
#include "loom/spectral/workload.hpp"

namespace loom::spectral {

ShellBatch::ShellBatch(const Topology& t, const std::vector<TensorKind>& kinds, int shells, Strategy strategy,
                       AngularMethod angular)
    : topology_(t), strategy_(strategy) {
  if (shells < 1)
    throw UsageError(io::invalid_value_message("shells", std::to_string(shells), "an integer >= 1"));
  if (dynamic_cast<const Shell*>(&t) == nullptr)
    throw UsageError(io::invalid_value_message("shells", std::to_string(shells), "1 unless topology = \"shell\""));
  for (auto kind : kinds) components_ += shape_of(kind).components();
  const Index n = t.size();
  core::Array<double> fields(static_cast<std::size_t>(components_ * n));  // component c of the list at [c N + p]
  fill_analytic_field(t.cartesian(), 0, components_, fields.write(core::Where::host));
  const auto inverse_jacobian = t.inverse_jacobian();
  for (int k = 0; k < shells; ++k) {
    differentiators_.emplace_back(t, angular);
    jacobians_.push_back(core::Array<double>::from(inverse_jacobian));
    in_.push_back(fields.clone());
    scratch_.emplace_back(static_cast<std::size_t>(differentiators_.back().gradient_scratch(components_)));
    out_.emplace_back(static_cast<std::size_t>(3 * components_ * n));
  }
  for (int k = 0; k < shells; ++k)  // (after the vectors stop growing: the list points into them)
    gradients_.push_back({&differentiators_[k], &jacobians_[k], &in_[k], &scratch_[k], &out_[k]});
}

void ShellBatch::run() { Differentiator::cartesian_gradients(strategy_, cache_, components_, gradients_); }

double ShellBatch::error() const {
  const auto x = topology_.cartesian();
  double e = 0, scale = 0;
  for (const auto& out : out_) gradient_deviation(x, out.read(core::Where::host), 0, components_, e, scale);
  return e / scale;
}

perf::Work ShellBatch::work() const {
  return static_cast<double>(shells()) * differentiators_.front().work(components_, strategy_);
}

}  // namespace loom::spectral
