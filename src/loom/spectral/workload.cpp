#include "loom/spectral/workload.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "loom/core/copy_values.hpp"
#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"
#include "loom/spectral/jacobian.hpp"
#include "loom/spectral/operations.hpp"
#include "loom/spectral/s2_filter.hpp"

namespace loom::spectral {

namespace {

constexpr std::pair<Operation, std::string_view> names[] = {
    {Operation::deriv, "deriv"},     {Operation::filter, "filter"},     {Operation::filter_csr, "filter_csr"},
    {Operation::diffjac, "diffjac"}, {Operation::coordjac, "coordjac"}};

double rate(int c) { return 0.2 + 0.075 * (c % 4); }

core::Array<double> random_array(Index n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uni(-1, 1);
  core::Array<double> a(static_cast<std::size_t>(n));
  double* h = a.write(core::Where::host);
  for (Index i = 0; i < n; ++i) h[i] = uni(rng);
  return a;
}

double max_abs_difference(const double* a, const double* b, Index n) {
  double e = 0;
  for (Index i = 0; i < n; ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}

}  // namespace

std::string_view to_string(Operation op) {
  for (const auto& [o, name] : names)
    if (o == op) return name;
  return "?";
}

Operation parse_operation(std::string_view text, std::string_view key) {
  for (const auto& [o, name] : names)
    if (name == text) return o;
  throw UsageError(io::invalid_value_message(key, std::string(text), "one of deriv, filter, filter_csr, diffjac, coordjac"));
}

double analytic_field(int c, double x, double y, double z) {
  return std::exp(rate(c) * x) * std::sin(y + 0.1 * c) * std::cos(0.5 * z);
}

double analytic_gradient(int c, int axis, double x, double y, double z) {
  const double e = std::exp(rate(c) * x), s = std::sin(y + 0.1 * c), co = std::cos(y + 0.1 * c);
  if (axis == 0) return rate(c) * e * s * std::cos(0.5 * z);
  if (axis == 1) return e * co * std::cos(0.5 * z);
  return -0.5 * e * s * std::sin(0.5 * z);
}

void fill_analytic_field(const Coordinates& x, Index first, Index count, double* out) {
  const auto n = static_cast<Index>(x[0].size());
  for (Index c = 0; c < count; ++c) {
    const int global = static_cast<int>(first + c);
    for (Index p = 0; p < n; ++p) out[c * n + p] = analytic_field(global, x[0][p], x[1][p], x[2][p]);
  }
}

void gradient_deviation(const Coordinates& x, const double* g, Index first, Index count, double& error,
                        double& scale) {
  const auto n = static_cast<Index>(x[0].size());
  for (int i = 0; i < 3; ++i)
    for (Index c = 0; c < count; ++c)
      for (Index p = 0; p < n; ++p) {
        const double exact = analytic_gradient(static_cast<int>(first + c), i, x[0][p], x[1][p], x[2][p]);
        error = std::max(error, std::abs(g[(i * count + c) * n + p] - exact));
        scale = std::max(scale, std::abs(exact));
      }
}

bool Workload::supported(const Topology* t, Operation op, Strategy strategy, const FilterSpec& filter,
                         AngularMethod angular) {
  if (op == Operation::deriv) return supports_gradient(*t, strategy, angular);
  if (op == Operation::filter) return supports_filter(*t, strategy, filter, angular);
  if (op == Operation::filter_csr) return strategy != Strategy::fused && strategy != Strategy::cluster;
  return true;
}

Workload::Workload(const Topology* t, Index points, TensorKind kind, Operation op, Strategy strategy,
                   const FilterSpec& filter, AngularMethod angular)
    : Workload(t, points, std::vector<TensorKind>{kind}, op, strategy, filter, angular) {}

Workload::Workload(const Topology* t, Index points, const std::vector<TensorKind>& kinds, Operation op,
                   Strategy strategy, const FilterSpec& filter, AngularMethod angular)
    : topology_(t), points_(t ? t->size() : points), op_(op), strategy_(strategy), filter_(filter),
      angular_(angular) {
  const bool filtering = op == Operation::filter || op == Operation::filter_csr;
  const bool spectral_op = op == Operation::deriv || filtering;
  if (kinds.empty()) throw UsageError("tensor: expected at least one tensor kind");
  if (kinds.size() > 1 && op != Operation::deriv && op != Operation::filter)
    throw UsageError("tensor: op = \"" + std::string(to_string(op)) + "\" takes one tensor kind");
  if (spectral_op && t == nullptr) throw UsageError("op = \"" + std::string(to_string(op)) + "\": needs a topology");
  if (op == Operation::filter_csr && dynamic_cast<const Shell*>(t) == nullptr)
    throw UsageError("op = \"filter_csr\": expected topology shell (the coupling acts on Y_lm)");
  const Index n = points_;
  for (auto kind : kinds) shapes_.push_back(shape_of(kind));
  jacobian_ = t ? core::Array<double>::from(t->inverse_jacobian()) : random_array(9 * n, 1);
  const Index blocks = op == Operation::deriv || op == Operation::diffjac ? 3 : 1;
  for (const auto& shape : shapes_) {
    Tensor input(shape, n);
    if (spectral_op) {
      fill_analytic_field(t->cartesian(), components_, shape.components(), input.data.write(core::Where::host));
    } else {
      input.data = random_array((op == Operation::diffjac ? 3 : 1) * shape.components() * n, 2);
    }
    components_ += shape.components();
    outputs_.emplace_back(static_cast<std::size_t>(blocks * shape.components() * n));
    if (filtering) filtered_.emplace_back(shape, n);
    inputs_.push_back(std::move(input));
  }
  scratch_ = core::Array<double>(static_cast<std::size_t>(blocks * components_ * n));
  for (std::size_t k = 0; k < inputs_.size(); ++k) {
    input_list_.push_back(&inputs_[k]);
    output_list_.push_back(&outputs_[k]);
    if (filtering) filtered_list_.push_back(&filtered_[k]);
  }
  if (filtering) t->filter(filter_);  // checks the filter's parameters now
  if (op == Operation::deriv) differentiator_ = std::make_unique<Differentiator>(*t, angular);
  if (op == Operation::filter) spectral_filter_ = std::make_unique<SpectralFilter>(*t, filter, angular);
  if (op == Operation::filter_csr)
    csr_filter_ = std::make_unique<CsrFilter>(dynamic_cast<const Shell&>(*t), filter, components_);
}

namespace {

// dst = src on side w (the filter works on a fresh copy each run: the input stays the analytic field).
void copy_on(core::Where w, const Tensor& src, Tensor& dst) {
  core::copy_values(w, src.data.read(w), dst.data.write(w), dst.data.size());
}

}  // namespace

void Workload::run() {
  const core::Backend b = backend_of(strategy_);
  switch (op_) {
    case Operation::deriv:
      return differentiator_->cartesian_gradient(strategy_, cache_, jacobian_, input_list_, scratch_, output_list_);
    case Operation::filter:
    case Operation::filter_csr: {
      for (std::size_t t = 0; t < inputs_.size(); ++t) copy_on(core::where(b), inputs_[t], filtered_[t]);
      if (op_ == Operation::filter_csr) return csr_filter_->apply(strategy_, cache_, filtered_[0]);
      return spectral_filter_->apply(strategy_, cache_, filtered_list_, scratch_);
    }
    case Operation::diffjac:
      return diff_jac(b, jacobian_, points_, shapes_[0].components(), inputs_[0].data, outputs_[0]);
    case Operation::coordjac: {
      Tensor out(shapes_[0], points_);
      out.data = std::move(outputs_[0]);
      spatial_coord_jac(b, jacobian_, inputs_[0], out);
      outputs_[0] = std::move(out.data);
      return;
    }
  }
}

double Workload::error() const {
  const Index n = points_;
  if (op_ != Operation::diffjac && op_ != Operation::coordjac) {
    const auto x = topology_->cartesian();
    double e = 0, scale = 0;
    Index first = 0;  // the first component of tensor t in the list
    for (std::size_t t = 0; t < inputs_.size(); ++t) {
      const Index ne = shapes_[t].components();
      if (op_ == Operation::deriv) {
        gradient_deviation(x, outputs_[t].read(core::Where::host), first, ne, e, scale);
      } else {
        const double* r = filtered_[t].data.read(core::Where::host);
        for (Index c = 0; c < ne; ++c)
          for (Index p = 0; p < n; ++p) {
            const double exact = analytic_field(static_cast<int>(first + c), x[0][p], x[1][p], x[2][p]);
            e = std::max(e, std::abs(r[c * n + p] - exact));
            scale = std::max(scale, std::abs(exact));
          }
      }
      first += ne;
    }
    return e / scale;
  }
  const core::Array<double>& output = outputs_[0];
  core::Array<double> cpu(output.size());
  if (op_ == Operation::diffjac) {
    diff_jac(core::Backend::cpu, jacobian_, n, shapes_[0].components(), inputs_[0].data, cpu);
  } else {
    Tensor out(shapes_[0], n);
    spatial_coord_jac(core::Backend::cpu, jacobian_, inputs_[0], out);
    cpu = std::move(out.data);
  }
  return max_abs_difference(cpu.read(core::Where::host), output.read(core::Where::host), output.size());
}

const core::Array<double>& Workload::result(std::size_t t) const {
  const bool filtering = op_ == Operation::filter || op_ == Operation::filter_csr;
  return filtering ? filtered_.at(t).data : outputs_.at(t);
}

perf::Work Workload::work() const {
  switch (op_) {
    case Operation::deriv: return differentiator_->work(components_, strategy_);
    case Operation::filter: return spectral_filter_->work(components_);
    case Operation::filter_csr: return filter_csr_work(dynamic_cast<const Shell&>(*topology_), filter_, components_);
    case Operation::diffjac: return diff_jac_work(points_, shapes_[0].components());
    case Operation::coordjac: return spatial_coord_jac_work(shapes_[0], points_);
  }
  return {};
}

}  // namespace loom::spectral
