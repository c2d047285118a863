// The device timing tools' stopwatch (cluster_timing_main.cpp, batch_timing_main.cpp): the median over
// `repeats` samples (after 3 warm-ups) of the time per call of `calls` back-to-back calls, on the CUDA stream's
// events (one call: the launch and the kernel; of 20: what a stream of calls costs each).
#pragma once

#include "loom/core/backend.hpp"
#include "loom/core/timer.hpp"
#include "loom/perf/timing.hpp"

namespace loom::spectral::timing {

template <class F>
double per_call(int repeats, int calls, const F& call) {
  core::Stopwatch watch(core::Backend::cuda);
  return perf::time_repeated(3, repeats,
                             [&] {
                               watch.start();
                               for (int i = 0; i < calls; ++i) call();
                               return watch.stop() / calls;
                             })
      .median;
}

}  // namespace loom::spectral::timing
