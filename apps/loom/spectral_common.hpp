// What `loom spectral` and `loom bench spectral` share: timing one workload (the parameters and their typed
// configs are in loom/spectral/tool_config.hpp, the strategy chosen by measurement in strategy_choice.hpp).
#pragma once

#include "loom/perf/timing.hpp"
#include "loom/spectral/workload.hpp"

namespace loom::app::spectral_tools {

// Median time per call of `repeats` samples after `warmup` runs, each sample `calls` back-to-back calls timed
// together on the strategy's backend (calls = 1: each call alone, launch latency included).
perf::TimingSummary time_workload(spectral::Workload& w, spectral::Strategy s, int warmup, int repeats,
                                  int calls = 1);

}  // namespace loom::app::spectral_tools
