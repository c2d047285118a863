// Work accounting, timing statistics, and a small run of the ceiling measurements on each backend present
// (sanity of what is measured and reported; speed itself is `loom bench ceilings`' business, not a test's).
#include <gtest/gtest.h>

#include <sstream>

#include "loom/core/backend.hpp"
#include "loom/perf/ceilings.hpp"
#include "loom/perf/timing.hpp"
#include "loom/perf/work.hpp"

namespace loom::perf {
namespace {

TEST(Work, AddsAndScales) {
  Work a{100, 50};
  const Work b = 3.0 * a + Work{1, 2};
  EXPECT_EQ(b.bytes, 301);
  EXPECT_EQ(b.flops, 152);
  EXPECT_DOUBLE_EQ(a.intensity(), 0.5);
  const Rates r = rates(a, 0.5);
  EXPECT_EQ(r.bytes_per_second, 200);
  EXPECT_EQ(r.flops_per_second, 100);
}

TEST(Timing, MedianIgnoresOutliers) {
  const auto s = summarize({1.0, 100.0, 2.0, 3.0, 2.5});
  EXPECT_EQ(s.median, 2.5);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 100.0);
  EXPECT_EQ(summarize({4.0, 1.0, 3.0, 2.0}).median, 2.5);
}

TEST(Timing, WarmupRunsAreNotTimed) {
  int calls = 0;
  const auto s = time_repeated(2, 5, [&] { return double(++calls); });
  EXPECT_EQ(calls, 7);
  EXPECT_EQ(s.repeats, 5);
  EXPECT_EQ(s.min, 3.0);  // the two warm-up results (1, 2) were dropped
}

TEST(Ceilings, QuickRunReportsEveryCeilingWithConsistentWork) {
  for (auto backend : core::available_backends()) {
    const auto ceilings = measure_ceilings(backend, quick_ceiling_options());
    for (const char* name : {"copy", "triad", "fma_fp64", "fma_fp32", "dgemm", "dgemm_batched"}) {
      const auto v = find_ceiling(ceilings, backend, name);
      ASSERT_TRUE(v.has_value()) << name;
      EXPECT_GT(*v, 0) << name;
    }
    for (const auto& c : ceilings) {
      const double amount = c.metric == Metric::bandwidth ? c.work.bytes : c.work.flops;
      EXPECT_DOUBLE_EQ(c.value, amount / c.time.median) << c.name;
    }
    const auto json = to_json(ceilings);
    EXPECT_EQ(json.size(), ceilings.size());
    EXPECT_EQ(json[0]["unit"], "bytes/s");
    std::ostringstream table;
    print_table(table, ceilings);
    EXPECT_NE(table.str().find("dgemm_batched"), std::string::npos);
  }
}

}  // namespace
}  // namespace loom::perf
