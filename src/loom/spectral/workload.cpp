#include "loom/spectral/workload.hpp"

#include <algorithm>
#include <cmath>
#include <random>

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

bool Workload::supported(const Topology* t, Operation op, Strategy strategy, const FilterSpec& filter,
                         AngularMethod angular) {
  if (op == Operation::deriv) return supports_gradient(*t, strategy, angular);
  if (op == Operation::filter) return supports_filter(*t, strategy, filter, angular);
  if (op == Operation::filter_csr) return strategy != Strategy::fused;
  return true;
}

Workload::Workload(const Topology* t, Index points, TensorKind kind, Operation op, Strategy strategy,
                   const FilterSpec& filter, AngularMethod angular)
    : topology_(t), points_(t ? t->size() : points), shape_(shape_of(kind)), op_(op), strategy_(strategy),
      filter_(filter), angular_(angular) {
  const bool filtering = op == Operation::filter || op == Operation::filter_csr;
  const bool spectral_op = op == Operation::deriv || filtering;
  if (spectral_op && t == nullptr) throw UsageError("op = \"" + std::string(to_string(op)) + "\": needs a topology");
  if (op == Operation::filter_csr && dynamic_cast<const Shell*>(t) == nullptr)
    throw UsageError("op = \"filter_csr\": expected topology shell (the coupling acts on Y_lm)");
  const Index n = points_, ne = shape_.components();
  jacobian_ = t ? core::Array<double>::from(t->inverse_jacobian()) : random_array(9 * n, 1);
  if (spectral_op) {
    input_ = Tensor(shape_, n);
    const auto x = t->cartesian();
    double* h = input_.data.write(core::Where::host);
    for (int c = 0; c < ne; ++c)
      for (Index p = 0; p < n; ++p) h[c * n + p] = analytic_field(c, x[0][p], x[1][p], x[2][p]);
  } else {
    const Index size = (op == Operation::diffjac ? 3 : 1) * ne * n;
    input_ = Tensor(shape_, n);
    input_.data = random_array(size, 2);
  }
  const Index out_size = (filtering || op == Operation::coordjac ? 1 : 3) * ne * n;
  scratch_ = core::Array<double>(static_cast<std::size_t>(out_size));
  output_ = core::Array<double>(static_cast<std::size_t>(out_size));
  if (filtering) filtered_ = Tensor(shape_, n);
  if (filtering) t->filter(filter_);  // checks the filter's parameters now
  if (op == Operation::deriv) differentiator_ = std::make_unique<Differentiator>(*t, angular);
  if (op == Operation::filter) spectral_filter_ = std::make_unique<SpectralFilter>(*t, filter, angular);
  if (op == Operation::filter_csr)
    csr_filter_ = std::make_unique<CsrFilter>(dynamic_cast<const Shell&>(*t), filter, shape_.components());
}

void Workload::run() {
  const core::Backend b = backend_of(strategy_);
  switch (op_) {
    case Operation::deriv:
      return differentiator_->cartesian_gradient(strategy_, cache_, jacobian_, input_, scratch_, output_);
    case Operation::filter:
    case Operation::filter_csr: {
      // filter a fresh copy each run: the input stays the analytic field
      const core::Where w = core::where(b);
      const double* src = input_.data.read(w);
      double* dst = filtered_.data.write(w);
      if (w == core::Where::host)
        std::copy_n(src, filtered_.data.size(), dst);
      else
        core::device_pool().resource().copy_on_device(dst, src, filtered_.data.bytes());
      if (op_ == Operation::filter_csr)
        return csr_filter_->apply(strategy_, cache_, filtered_);
      return spectral_filter_->apply(strategy_, cache_, filtered_, scratch_);
    }
    case Operation::diffjac:
      return diff_jac(b, jacobian_, points_, shape_.components(), input_.data, output_);
    case Operation::coordjac: {
      Tensor out(shape_, points_);
      out.data = std::move(output_);
      spatial_coord_jac(b, jacobian_, input_, out);
      output_ = std::move(out.data);
      return;
    }
  }
}

double Workload::error() const {
  const Index n = points_, ne = shape_.components();
  if (op_ != Operation::diffjac && op_ != Operation::coordjac) {
    const auto x = topology_->cartesian();
    const double* r = op_ == Operation::deriv ? output_.read(core::Where::host) : filtered_.data.read(core::Where::host);
    double e = 0, scale = 0;
    const int blocks = op_ == Operation::deriv ? 3 : 1;
    for (int i = 0; i < blocks; ++i)
      for (int c = 0; c < ne; ++c)
        for (Index p = 0; p < n; ++p) {
          const double exact = op_ == Operation::deriv ? analytic_gradient(c, i, x[0][p], x[1][p], x[2][p])
                                                       : analytic_field(c, x[0][p], x[1][p], x[2][p]);
          e = std::max(e, std::abs(r[(i * ne + c) * n + p] - exact));
          scale = std::max(scale, std::abs(exact));
        }
    return e / scale;
  }
  core::Array<double> cpu(output_.size());
  if (op_ == Operation::diffjac) {
    diff_jac(core::Backend::cpu, jacobian_, n, static_cast<int>(ne), input_.data, cpu);
  } else {
    Tensor out(shape_, n);
    spatial_coord_jac(core::Backend::cpu, jacobian_, input_, out);
    cpu = std::move(out.data);
  }
  return max_abs_difference(cpu.read(core::Where::host), output_.read(core::Where::host), output_.size());
}

perf::Work Workload::work() const {
  const Index ne = shape_.components();
  switch (op_) {
    case Operation::deriv: return differentiator_->work(ne);
    case Operation::filter: return spectral_filter_->work(ne);
    case Operation::filter_csr: return filter_csr_work(dynamic_cast<const Shell&>(*topology_), filter_, ne);
    case Operation::diffjac: return diff_jac_work(points_, static_cast<int>(ne));
    case Operation::coordjac: return spatial_coord_jac_work(shape_, points_);
  }
  return {};
}

}  // namespace loom::spectral
