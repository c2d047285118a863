// One spectral operation on a whole tensor with known input, ready to run repeatedly and check: what
// `loom spectral` runs once and `loom bench spectral` times. deriv (Cartesian gradient, the paper's Deriv with
// Trans) and filter act on an analytic field and are checked against its exact gradient or itself; diffjac and
// coordjac act on random data and are checked against the CPU kernel.
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/perf/work.hpp"
#include <memory>

#include "loom/spectral/apply.hpp"
#include "loom/spectral/operations.hpp"
#include "loom/spectral/s2_filter.hpp"
#include "loom/spectral/tensor.hpp"
#include "loom/spectral/topology.hpp"

namespace loom::spectral {

enum class Operation { deriv, filter, filter_csr, diffjac, coordjac };
std::string_view to_string(Operation op);
// Parses deriv, filter, filter_csr (shell: the CSR coupling route), diffjac, coordjac; UsageError naming `key` otherwise.
Operation parse_operation(std::string_view text, std::string_view key = "op");

// The analytic test field, component c at (x, y, z): exp(a_c x) sin(y + c / 10) cos(z / 2), a_c = 0.2 + 0.075 (c % 4),
// and its gradient (axis 0..2).
double analytic_field(int c, double x, double y, double z);
double analytic_gradient(int c, int axis, double x, double y, double z);

// Points' Cartesian coordinates (Topology::cartesian()).
using Coordinates = std::array<std::vector<double>, 3>;
// out[c N + p] = analytic_field(first + c, x_p) for components c < count of the N points.
void fill_analytic_field(const Coordinates& x, Index first, Index count, double* out);
// The largest |g - exact| and |exact| over a gradient of components [first, first + count) laid out
// [(i count + c) N + p] (axis i), folded into error and scale.
void gradient_deviation(const Coordinates& x, const double* g, Index first, Index count, double& error,
                        double& scale);

class Workload {
 public:
  // On topology `t` (deriv, filter; diffjac and coordjac take t's points and inverse Jacobian), or on `points`
  // random points when t is null (diffjac and coordjac only).
  Workload(const Topology* t, Index points, TensorKind kind, Operation op, Strategy strategy,
           const FilterSpec& filter = {}, AngularMethod angular = AngularMethod::dense);
  // Several tensors (deriv and filter: all of them in one call, as the GH state's T_aa, T_iaa, T_aa; the other
  // operations take one). Component c of the list (counted across the tensors) holds analytic_field(c, ...).
  Workload(const Topology* t, Index points, const std::vector<TensorKind>& kinds, Operation op, Strategy strategy,
           const FilterSpec& filter = {}, AngularMethod angular = AngularMethod::dense);
  // Whether `strategy` can run `op` on t (fused: every matrix in shared memory).
  static bool supported(const Topology* t, Operation op, Strategy strategy, const FilterSpec& filter,
                        AngularMethod angular);
  void run();
  // deriv: max |gradient - exact| / max |exact|; filter: max |filtered - field| / max |field|; diffjac and
  // coordjac: max |result - CPU kernel's result|.
  double error() const;
  perf::Work work() const;
  const OperatorCache& cache() const { return cache_; }
  Index points() const { return points_; }
  Index components() const { return components_; }
  // The result for tensor t of the last run (the gradient, the filtered field, the Jacobian's output).
  const core::Array<double>& result(std::size_t t) const;

 private:
  const Topology* topology_;
  Index points_, components_ = 0;
  std::vector<TensorShape> shapes_;
  Operation op_;
  Strategy strategy_;
  FilterSpec filter_;
  AngularMethod angular_;
  OperatorCache cache_;
  std::unique_ptr<Differentiator> differentiator_;
  std::unique_ptr<SpectralFilter> spectral_filter_;
  std::unique_ptr<CsrFilter> csr_filter_;
  core::Array<double> jacobian_;
  std::vector<Tensor> inputs_, filtered_;
  std::vector<core::Array<double>> outputs_;
  // The lists handed to the operations, made once (run() is timed).
  std::vector<const Tensor*> input_list_;
  std::vector<Tensor*> filtered_list_;
  std::vector<core::Array<double>*> output_list_;
  core::Array<double> scratch_;
};

}  // namespace loom::spectral
