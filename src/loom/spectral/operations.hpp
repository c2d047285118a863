// The spectral operations on whole tensors that a system calls (the paper's Deriv with Trans, and Filter), on
// any strategy: every component at once, the Jacobian through one DiffJac kernel.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/perf/work.hpp"
#include "loom/spectral/apply.hpp"
#include "loom/spectral/cluster_route.hpp"
#include "loom/spectral/fused_shell.hpp"
#include "loom/spectral/separable_gemm.hpp"
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
// On a shell (either angular method) the fused strategy runs the whole gradient, or the whole filter, of any
// number of tensors in two launches (FusedShell) instead of one launch per step and component group; with the
// separable method the batched strategy runs the gradient as the GEMM route (separable_gemm.hpp: five cuBLAS
// steps and the chain rule for all tensors at once), and the cluster strategy as one launch (cluster_route.hpp).
// Not thread-safe: a Differentiator keeps its fused plan and a scratch array between calls.
class Differentiator;

// One shell's part of a gradient of several shells (Differentiator::cartesian_gradients): its differentiator,
// inverse Jacobian, the contiguous fields, scratch (gradient_scratch) and output, as cartesian_gradient takes them.
struct ShellGradient {
  const Differentiator* differentiator = nullptr;
  const core::Array<double>* inverse_jacobian = nullptr;
  const core::Array<double>* in = nullptr;
  core::Array<double>* scratch = nullptr;
  core::Array<double>* out = nullptr;
};

class Differentiator {
 public:
  explicit Differentiator(const Topology& t, AngularMethod m = AngularMethod::dense);
  void logical_gradient(Strategy s, OperatorCache& cache, Index components, const double* in, double* out) const;
  void cartesian_gradient(Strategy s, OperatorCache& cache, const core::Array<double>& inverse_jacobian,
                          const Tensor& in, core::Array<double>& scratch, core::Array<double>& out) const;
  // One contiguous block of `components` fields (several tensors one after the other, as the GH state's 50
  // components T_aa, T_iaa, T_aa): out holds the three blocks [(i C + c) N + p]. scratch: gradient_scratch(C).
  void cartesian_gradient(Strategy s, OperatorCache& cache, const core::Array<double>& inverse_jacobian,
                          Index components, const core::Array<double>& in, core::Array<double>& scratch,
                          core::Array<double>& out) const;
  // Several tensors, each its own array, in one call: out[t] (3 N_e,t N values) gets tensor t's gradient. The
  // fused route treats all of them in its two launches; the other strategies one tensor after the other.
  // scratch: gradient_scratch(C), C all the tensors' components.
  void cartesian_gradient(Strategy s, OperatorCache& cache, const core::Array<double>& inverse_jacobian,
                          std::span<const Tensor* const> in, core::Array<double>& scratch,
                          std::span<core::Array<double>* const> out) const;
  // The same on several shells: with the cluster strategy on shells that share_launch, one launch per
  // cluster::max_shells shells (each shell its own fields, Jacobian and radial matrix; the launch's fixed cost
  // paid once and more blocks to spread over the SMs), else one cartesian_gradient per shell.
  static void cartesian_gradients(Strategy s, OperatorCache& cache, Index components,
                                  std::span<const ShellGradient> shells);
  // Whether this shell's cluster route and other's can run in one launch: the same extents and angular operators
  // (the radial matrices may differ: other radii).
  bool shares_launch(const Differentiator& other) const;
  // Values of scratch that every strategy's gradient of C components needs.
  Index gradient_scratch(Index components) const { return 3 * components * topology_.size(); }
  bool supports(Strategy s) const;
  perf::Work work(Index components) const;  // the three derivatives' matrices plus DiffJac
  // The strategy's own model where it has one (the cluster route's), else work(components).
  perf::Work work(Index components, Strategy s) const;
  // The fused route (none for a cube), e.g. for its CPU form cpu::shell_gradient.
  const FusedShell* fused() const { return fused_ ? &*fused_ : nullptr; }

 private:
  bool fused_shell(Strategy s) const { return s == Strategy::fused && fused_.has_value(); }
  // The batched strategy on a separable shell: the route of separable_gemm.hpp (none otherwise).
  const sweep::Separable* gemm_route(Strategy s, OperatorCache& cache) const;
  // The cluster strategy on a separable shell: its device plan for a call of `components` components in launches
  // of `shells` shells (none otherwise); built from the cache's matrices on first use and when the components per
  // cluster or the class of launch sizes (ClusterShell::shell_class) change.
  const cluster::Plan* cluster_route(Strategy s, OperatorCache& cache, Index components, int shells = 1) const;
  bool cluster_supported() const;

  const Topology& topology_;
  std::array<std::vector<AxisOperator>, 3> steps_;
  std::optional<FusedShell> fused_;
  mutable core::Array<double> scratch_;  // logical_gradient's on the fused route, kept between calls
  SeparableGemm gemm_;                   // the GEMM route's buffers and lists, kept between calls
  bool cluster_fits_ = false;            // the cluster route's blocks fit in shared memory (from the shapes)
  mutable std::optional<ClusterShell> cluster_;
  mutable std::uint64_t cluster_cache_ = 0;  // OperatorCache::id() of cluster_'s matrices
  mutable int cluster_wanted_ = 0;           // the components per cluster asked for when it was built
  mutable int cluster_shells_ = 0;           // the class of launch sizes it was built for
  std::string launch_key_;  // what shares_launch compares: the extents and the angular operators' keys
};

class SpectralFilter {
 public:
  SpectralFilter(const Topology& t, const FilterSpec& spec, AngularMethod m = AngularMethod::dense);
  void apply(Strategy s, OperatorCache& cache, Tensor& field, core::Array<double>& scratch) const;
  // One contiguous block of `components` fields, in place; scratch: C N values.
  void apply(Strategy s, OperatorCache& cache, Index components, core::Array<double>& field,
             core::Array<double>& scratch) const;
  // Several tensors in one call, each in place: two launches on the fused route, otherwise one tensor after the
  // other. scratch: C N values, C all the tensors' components.
  void apply(Strategy s, OperatorCache& cache, std::span<Tensor* const> fields, core::Array<double>& scratch) const;
  bool supports(Strategy s) const;
  perf::Work work(Index components) const;
  const FusedShell* fused() const { return fused_ ? &*fused_ : nullptr; }

 private:
  std::vector<AxisOperator> steps_;
  std::optional<FusedShell> fused_;
  Index topology_size_;
};

// Models: the three derivative matrices plus DiffJac; the filter's matrices.
perf::Work gradient_work(const Topology& t, Index components, AngularMethod m = AngularMethod::dense);
perf::Work filter_work(const Topology& t, const FilterSpec& spec, Index components,
                       AngularMethod m = AngularMethod::dense);

}  // namespace loom::spectral
