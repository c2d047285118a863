// Repeated timing: warm-up runs first (module loading, handle creation, first touch), then the median of the
// timed repeats, which ignores the rare slow outlier (the spectral-BH paper's Fig. 2 argument).
#pragma once

#include <algorithm>
#include <vector>

namespace loom::perf {

struct TimingSummary {
  double median = 0, min = 0, max = 0;  // seconds
  int repeats = 0;
};

TimingSummary summarize(std::vector<double> seconds);

// run() performs the operation once and returns the seconds it took (timed with the backend's Stopwatch).
template <class Run>
TimingSummary time_repeated(int warmup, int repeats, Run&& run) {
  for (int i = 0; i < warmup; ++i) run();
  std::vector<double> seconds;
  seconds.reserve(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) seconds.push_back(run());
  return summarize(std::move(seconds));
}

}  // namespace loom::perf
