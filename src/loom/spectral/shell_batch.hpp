// K shells' gradients in one call, as a spectral-BH domain of many shells of the same extents computes them
// (Differentiator::cartesian_gradients: with the cluster strategy one launch per cluster::max_shells shells, each
// shell its own fields, inverse Jacobian and radial matrix; any other strategy one shell after the other): what
// `loom spectral --shells K` runs and times. The shells are K copies of one topology's shell (its extents, radii and
// map), each with its own arrays, so a launch reads and writes exactly what K distinct shells of these extents
// would, and each copy is checked against the same analytic gradient (workload.hpp's field; several tensors as one
// contiguous block of components, as the GH state's 50).
#pragma once

#include <deque>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/perf/work.hpp"
#include "loom/spectral/operations.hpp"
#include "loom/spectral/tensor.hpp"
#include "loom/spectral/topology.hpp"

namespace loom::spectral {

class ShellBatch {
 public:
  // `shells` >= 1 copies of shell t (UsageError naming `shells` otherwise, or when t is not a shell).
  ShellBatch(const Topology& t, const std::vector<TensorKind>& kinds, int shells, Strategy strategy,
             AngularMethod angular);
  void run();
  // The largest over the shells of max |gradient - exact| / max |exact|.
  double error() const;
  // One call's work: the shells' (the strategy's model of one shell's gradient, times K).
  perf::Work work() const;
  const OperatorCache& cache() const { return cache_; }
  Index components() const { return components_; }
  int shells() const { return static_cast<int>(gradients_.size()); }
  // Shell k's gradient, [(i C + c) N + p] (axis i, component c of C, point p of N).
  const core::Array<double>& result(int k) const { return out_.at(static_cast<std::size_t>(k)); }

 private:
  const Topology& topology_;
  Strategy strategy_;
  Index components_ = 0;
  OperatorCache cache_;
  std::deque<Differentiator> differentiators_;  // (not movable)
  std::vector<core::Array<double>> jacobians_, in_, scratch_, out_;
  std::vector<ShellGradient> gradients_;
};

}  // namespace loom::spectral
