// `loom bench vortex`: a small CPU run writes its table and JSON (the particle count rounded to a lattice n^3, the
// step split into tree, lists, FMM and update, none negative, summing to the step); a size that cannot fit is
// refused with exit 2 naming `particles` before anything is allocated or timed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "apps/run_loom.hpp"

namespace loom::test {
namespace {

TEST(BenchVortex, SmallRunWritesTheSplitOfAStep) {
  TempDir dir;
  const auto json = dir / "bench.json";
  const RunResult r = run_loom("bench vortex --backend cpu --particles 520 --box free --steps 1 --warmup 1 "
                               "--reinit.every 0 --json " + json.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("step_s"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(j["steps"].size(), 1u);
  const auto& row = j["steps"][0];
  EXPECT_EQ(row["lattice_n"].get<int>(), 8);
  EXPECT_EQ(row["particles"].get<int>(), 512);
  double parts = 0;
  for (const char* key : {"tree_s", "lists_s", "fmm_s", "update_s"}) {
    EXPECT_GE(row[key].get<double>(), 0.0) << key;
    parts += row[key].get<double>();
  }
  EXPECT_GT(row["fmm_s"].get<double>(), 0.0);
  EXPECT_NEAR(row["step_s"].get<double>(), parts, 1e-12);
  EXPECT_GT(row["memory_bytes"].get<double>(), 512 * 8 * 7.0);  // at least the particles themselves
}

TEST(BenchVortex, TooManyParticlesAreRefusedBeforeAnyWork) {
  TempDir dir;
  ::setenv("LOOM_AVAILABLE_HOST_GIB", "1", 1);  // the child inherits it: every machine has 1 GiB free
  const RunResult r = run_loom("bench vortex --backend cpu --particles 1000,1e8 --json " + (dir / "b.json").string());
  ::unsetenv("LOOM_AVAILABLE_HOST_GIB");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("error: particles = 99897344 (464^3 on cpu): needs ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find("timing"), std::string::npos) << r.err;  // not even the small size was timed
  EXPECT_FALSE(std::filesystem::exists(dir / "b.json"));
}

// Counts beyond 1024^3, up to 1e300 (whose cube root once overflowed the rounding to a negative lattice), are
// usage errors naming the key.
TEST(BenchVortex, CountsBeyondTheLargestLatticeAreUsageErrors) {
  for (const char* count : {"1.1e9", "1e30", "1e300", "inf"}) {
    const RunResult r = run_loom(std::string("bench vortex --backend cpu --particles ") + count);
    EXPECT_EQ(r.code, 2) << count << ": " << r.err;
    EXPECT_EQ(r.err.rfind("error: particles = ", 0), 0u) << r.err;
  }
}

}  // namespace
}  // namespace loom::test
