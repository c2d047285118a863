// What `loom spectral` and `loom bench spectral` share: timing one workload (the parameters and their typed
// configs are in loom/spectral/tool_config.hpp, the strategy chosen by measurement in strategy_choice.hpp).
#pragma once

#include "loom/core/timer.hpp"
#include "loom/perf/timing.hpp"
#include "loom/spectral/workload.hpp"

namespace loom::app::spectral_tools {

// Median time per call of `repeats` samples after `warmup` runs, each sample `calls` back-to-back calls timed
// together on the strategy's backend (calls = 1: each call alone, launch latency included). W: anything with
// run() (spectral::Workload, spectral::ShellBatch).
template <class W>
perf::TimingSummary time_workload(W& w, spectral::Strategy s, int warmup, int repeats, int calls = 1) {
  core::Stopwatch watch(spectral::backend_of(s));
  return perf::time_repeated(warmup, repeats, [&] {
    watch.start();
    for (int k = 0; k < calls; ++k) w.run();
    return watch.stop() / calls;
  });
}

}  // namespace loom::app::spectral_tools
