// The shells' spectral operator sequences (derivatives, filter) on the CPU, split by components over the OpenMP
// threads, each thread with its own operator cache and single-threaded BLAS. OpenBLAS's own thread pool and the
// OpenMP pool of the pointwise loops otherwise both spin on the same cores: 16 threads of each made the 16-thread
// step slower than one thread (docs/performance.md). Components are independent under every operator here (each
// acts on one component-major field), so chunks of them need no synchronisation.
#pragma once

#include <memory>
#include <vector>

#include "loom/spectral/apply.hpp"
#include "loom/spectral/axis_operator.hpp"
#include "loom/spectral/operator_cache.hpp"

namespace loom::gr {

class CpuOperators {
 public:
  // The sequences this object applies, by index; every matrix is traced here for every thread (the operators'
  // line functions are not all thread-safe).
  explicit CpuOperators(std::vector<std::vector<spectral::AxisOperator>> sequences);

  // Sequence `which` on `components` component-major fields: in[c * n_in + i] to out[c * n_out + o].
  void apply(int which, Index components, const double* in, double* out);
  int threads() const { return static_cast<int>(caches_.size()); }

 private:
  std::vector<std::vector<spectral::AxisOperator>> sequences_;
  std::vector<std::unique_ptr<spectral::OperatorCache>> caches_;
};

}  // namespace loom::gr
