// The memory budget's parts against what the kernel reports: MemAvailable read as /proc/meminfo says, the peak
// RSS rising by what a touched allocation adds, and a need above what is free refused with one line.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "loom/core/error.hpp"
#include "loom/core/memory_budget.hpp"

namespace loom::core {
namespace {

TEST(MemoryBudget, AvailableHostMemoryIsMemAvailable) {
  unsetenv("LOOM_AVAILABLE_HOST_GIB");
  std::ifstream in("/proc/meminfo");
  std::string name, unit;
  double kib = 0, total = 0;
  while (in >> name >> kib >> unit)
    if (name == "MemTotal:") total = kib * 1024;
  const double available = available_host_bytes();
  EXPECT_GT(available, 0);
  EXPECT_LE(available, total);
}

TEST(MemoryBudget, PeakRssGrowsByATouchedAllocation) {
  const double before = peak_rss_bytes();
  std::vector<char> block(std::size_t(300) << 20);
  for (std::size_t i = 0; i < block.size(); i += 4096) block[i] = 1;
  const double after = peak_rss_bytes();
  EXPECT_GT(after - before, 0.9 * double(block.size()));
  EXPECT_LT(after - before, 1.1 * double(block.size()));
}

TEST(MemoryBudget, NeedAboveAvailableIsRefusedWithOneLine) {
  setenv("LOOM_AVAILABLE_HOST_GIB", "2", 1);
  EXPECT_NO_THROW(check_memory({1.5 * 1073741824.0, 1e30}, false, "n = 5"));  // device not asked for
  try {
    check_memory({3 * 1073741824.0, 0}, false, "n = 6e8");
    ADD_FAILURE() << "3 GiB fit in 2";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "n = 6e8: needs 3 GiB of host memory, has 2 GiB (MemAvailable)");
  }
  unsetenv("LOOM_AVAILABLE_HOST_GIB");
}

}  // namespace
}  // namespace loom::core
