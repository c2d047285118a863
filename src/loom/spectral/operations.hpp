// The spectral operations on whole tensors that a system calls (the paper's Deriv with Trans, and Filter), on
// any strategy: every component at once, the Jacobian through one DiffJac kernel.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/perf/work.hpp"
#include "loom/spectral/apply.hpp"
#include "loom/spectral/gpu_apply.hpp"
#include "loom/spectral/tensor.hpp"
#include "loom/spectral/topology.hpp"

namespace loom::spectral {

// d/d xi^j of every component: out holds the 3 blocks [(j N_e + c) N + x]; pointers on backend_of(s)'s side.
void logical_gradient(const Topology& t, Strategy s, OperatorCache& cache, Index components, const double* in,
                      double* out, AngularMethod m = AngularMethod::dense);

// Applies a sequence of operators (through temporaries on the same side) to `components` fields.
void apply_steps(Strategy s, OperatorCache& cache, const std::vector<AxisOperator>& steps, Index components,
                 const double* in, double* out);

// The Cartesian gradient: the logical gradient into `scratch`, then DiffJac with the topology's inverse
// Jacobian (`inverse_jacobian`, 9 N values) into `out` (3 N_e N values).
void cartesian_gradient(const Topology& t, Strategy s, OperatorCache& cache,
                        const core::Array<double>& inverse_jacobian, const Tensor& in, core::Array<double>& scratch,
                        core::Array<double>& out, AngularMethod m = AngularMethod::dense);

// The topology's filter applied to every component of `field` in place (`scratch` of the same size).
void filter(const Topology& t, Strategy s, OperatorCache& cache, const FilterSpec& spec, Tensor& field,
            core::Array<double>& scratch, AngularMethod m = AngularMethod::dense);

// Whether strategy s can apply every operator of the gradient (or of the filter).
bool supports_gradient(const Topology& t, Strategy s, AngularMethod m);
bool supports_filter(const Topology& t, Strategy s, const FilterSpec& spec, AngularMethod m);

// The same operations with their operator sequences built once (keys formatted, line maps bound), for a system
// that applies them every step: only the cache lookup and the application remain per call (the paper's
// differentiator keeps its matrices as members for the same reason). They refer to the topology.
// On a shell's separable route the fused strategy runs the whole gradient in two launches (gpu::shell_gradient)
// instead of one launch per step.
class Differentiator {
 public:
  explicit Differentiator(const Topology& t, AngularMethod m = AngularMethod::dense);
  void logical_gradient(Strategy s, OperatorCache& cache, Index components, const double* in, double* out) const;
  void cartesian_gradient(Strategy s, OperatorCache& cache, const core::Array<double>& inverse_jacobian,
                          const Tensor& in, core::Array<double>& scratch, core::Array<double>& out) const;
  bool supports(Strategy s) const;
  perf::Work work(Index components) const;  // the three derivatives' matrices plus DiffJac

 private:
  bool fused_shell(Strategy s) const { return s == Strategy::fused && shell_plan_.has_value(); }
  const gpu::ShellGradientPlan& shell_plan(OperatorCache& cache) const;

  const Topology& topology_;
  std::array<std::vector<AxisOperator>, 3> steps_;
  std::optional<gpu::ShellGradientPlan> shell_plan_;  // shapes only
  // The plan with the device matrices of one cache, kept between calls (a cache's matrices never move).
  mutable gpu::ShellGradientPlan ready_plan_;
  mutable std::uint64_t ready_cache_ = 0;  // OperatorCache::id() of ready_plan_'s matrices
};

class SpectralFilter {
 public:
  SpectralFilter(const Topology& t, const FilterSpec& spec, AngularMethod m = AngularMethod::dense);
  void apply(Strategy s, OperatorCache& cache, Tensor& field, core::Array<double>& scratch) const;
  bool supports(Strategy s) const;
  perf::Work work(Index components) const;

 private:
  std::vector<AxisOperator> steps_;
};

// Models: the three derivative matrices plus DiffJac; the filter's matrices.
perf::Work gradient_work(const Topology& t, Index components, AngularMethod m = AngularMethod::dense);
perf::Work filter_work(const Topology& t, const FilterSpec& spec, Index components,
                       AngularMethod m = AngularMethod::dense);

}  // namespace loom::spectral
