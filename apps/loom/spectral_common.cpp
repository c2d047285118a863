#include "spectral_common.hpp"

#include "loom/core/timer.hpp"

namespace loom::app::spectral_tools {

perf::TimingSummary time_workload(spectral::Workload& w, spectral::Strategy s, int warmup, int repeats, int calls) {
  core::Stopwatch watch(spectral::backend_of(s));
  return perf::time_repeated(warmup, repeats, [&] {
    watch.start();
    for (int k = 0; k < calls; ++k) w.run();
    return watch.stop() / calls;
  });
}

}  // namespace loom::app::spectral_tools
