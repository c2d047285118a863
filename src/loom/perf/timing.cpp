#include "loom/perf/timing.hpp"

#include "loom/core/error.hpp"

namespace loom::perf {

TimingSummary summarize(std::vector<double> seconds) {
  LOOM_REQUIRE(!seconds.empty(), "perf::summarize: no timings");
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  TimingSummary s;
  s.median = n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  s.min = seconds.front();
  s.max = seconds.back();
  s.repeats = static_cast<int>(n);
  return s;
}

}  // namespace loom::perf
