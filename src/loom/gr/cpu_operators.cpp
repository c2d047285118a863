#include "loom/gr/cpu_operators.hpp"

#include <cblas.h>
#include <omp.h>

#include <algorithm>

#include "loom/spectral/operations.hpp"

namespace loom::gr {

namespace {

// BLAS on one thread for a scope, the previous count restored after.
class SerialBlas {
 public:
  SerialBlas() : previous_(openblas_get_num_threads()) { openblas_set_num_threads(1); }
  ~SerialBlas() { openblas_set_num_threads(previous_); }
  SerialBlas(const SerialBlas&) = delete;
  SerialBlas& operator=(const SerialBlas&) = delete;

 private:
  int previous_;
};

}  // namespace

CpuOperators::CpuOperators(std::vector<std::vector<spectral::AxisOperator>> sequences)
    : sequences_(std::move(sequences)) {
  const int threads = std::max(1, omp_get_max_threads());
  for (int t = 0; t < threads; ++t) {
    caches_.push_back(std::make_unique<spectral::OperatorCache>());
    for (const auto& sequence : sequences_)
      for (const auto& op : sequence) (void)caches_.back()->matrix(op);
  }
}

void CpuOperators::apply(int which, Index components, const double* in, double* out) {
  const auto& steps = sequences_[static_cast<std::size_t>(which)];
  const Index n_in = steps.front().shape.input_size(), n_out = steps.back().shape.output_size();
  const int chunks = static_cast<int>(std::min<Index>(threads(), components));
  if (chunks <= 1) return spectral::apply_steps(spectral::Strategy::blas, *caches_[0], steps, components, in, out);
  SerialBlas serial;
#pragma omp parallel for schedule(static) num_threads(chunks)
  for (int k = 0; k < chunks; ++k) {
    const Index first = components * k / chunks, last = components * (k + 1) / chunks;
    spectral::apply_steps(spectral::Strategy::blas, *caches_[static_cast<std::size_t>(omp_get_thread_num())], steps,
                          last - first, in + first * n_in, out + first * n_out);
  }
}

}  // namespace loom::gr
