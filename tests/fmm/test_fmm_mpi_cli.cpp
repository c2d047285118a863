// `mpiexec -n N loom fmm` (src/loom/fmm/parallel/ranks_run.*): the results gathered in input order agree with the
// one-rank run's within the FMM's error (and both with a direct sum, in the run's own check), the JSON records
// the ranks, the bodies per rank after partitioning and the LET sizes per rank, and periodic runs agree with the
// Ewald sum and the one-rank periodic run.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/run_loom.hpp"

namespace loom::test {
namespace {

std::vector<std::vector<double>> csv_columns(const std::filesystem::path& file) {
  std::istringstream in(slurp(file));
  std::string line;
  std::getline(in, line);  // header
  std::vector<std::vector<double>> columns;
  while (std::getline(in, line)) {
    std::istringstream cells(line);
    std::size_t c = 0;
    for (std::string cell; std::getline(cells, cell, ','); ++c) {
      if (columns.size() <= c) columns.resize(c + 1);
      columns[c].push_back(std::stod(cell));
    }
  }
  return columns;
}

// The largest relative L2 difference of a column (1 when the shapes differ).
double difference(const std::filesystem::path& a, const std::filesystem::path& b) {
  const auto ca = csv_columns(a), cb = csv_columns(b);
  if (ca.size() != cb.size() || ca.empty()) return 1;
  double worst = 0;
  for (std::size_t c = 0; c < ca.size(); ++c) {
    if (ca[c].size() != cb[c].size()) return 1;
    double d = 0, s = 0;
    for (std::size_t r = 0; r < ca[c].size(); ++r) {
      d += (ca[c][r] - cb[c][r]) * (ca[c][r] - cb[c][r]);
      s += cb[c][r] * cb[c][r];
    }
    worst = std::max(worst, std::sqrt(d / s));
  }
  return worst;
}

void check_kernel(const std::string& kernel, int n, double bound) {
  TempDir dir;
  const std::string args = "fmm --kernel " + kernel + " --n " + std::to_string(n) + " --dist plummer --samples 200";
  const RunResult one = run_loom(args + " --output " + (dir / "one.csv").string());
  ASSERT_EQ(one.code, 0) << one.err;
  const RunResult three = run_loom_on_ranks(3, args + " --output " + (dir / "three.csv").string() + " --json " +
                                                   (dir / "three.json").string());
  ASSERT_EQ(three.code, 0) << three.err;
  EXPECT_LT(difference(dir / "three.csv", dir / "one.csv"), bound);
  const auto j = nlohmann::json::parse(slurp(dir / "three.json"));
  EXPECT_EQ(j["ranks"], 3);
  ASSERT_EQ(j["bodies_per_rank"].size(), 3u);
  ASSERT_EQ(j["let_cells_received"].size(), 3u);
  ASSERT_EQ(j["let_bodies_received"].size(), 3u);
  int total = 0;
  for (const auto& b : j["bodies_per_rank"]) total += b.get<int>();
  EXPECT_EQ(total, n);
  for (const auto& b : j["bodies_per_rank"]) EXPECT_NEAR(b.get<double>(), n / 3.0, 2);
  for (const auto& c : j["let_cells_received"]) EXPECT_GT(c.get<int>(), 0);
  for (const auto& [key, value] : j["errors"].items()) {
    if (key != "targets") {
      EXPECT_LT(value.get<double>(), 10 * bound) << key;
    }
  }
  EXPECT_NE(three.out.find("let_bodies"), std::string::npos);  // the per-rank table
}

TEST(FmmMpiCli, LaplaceOnThreeRanksEqualsOneRank) { check_kernel("laplace", 4000, 1e-6); }
TEST(FmmMpiCli, BiotSavartOnThreeRanksEqualsOneRank) { check_kernel("biot-savart", 3000, 1e-6); }

TEST(FmmMpiCli, PeriodicOnTwoRanksAgreesWithEwald) {
  // the run's own check against the Ewald sum, and the results against the one-rank periodic run's
  TempDir dir;
  const std::string args = "fmm --n 1500 --periodic true --p 12 --samples 100 --image_levels 5";
  const RunResult one = run_loom(args + " --output " + (dir / "one.csv").string());
  ASSERT_EQ(one.code, 0) << one.err;
  const RunResult two =
      run_loom_on_ranks(2, args + " --output " + (dir / "two.csv").string() + " --json " + (dir / "two.json").string());
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_LT(difference(dir / "two.csv", dir / "one.csv"), 1e-6);
  const auto j = nlohmann::json::parse(slurp(dir / "two.json"));
  EXPECT_EQ(j["periodic"], true);
  EXPECT_LT(j["errors"]["potential"].get<double>(), 1e-6);
  EXPECT_LT(j["errors"]["gradient"].get<double>(), 1e-6);
}

TEST(FmmMpiCli, BenchOnTwoRanksReportsEveryRank) {
  // weak scaling's run: 3000 bodies per rank, generated on rank 0 and scattered; each rank's split in the JSON
  TempDir dir;
  const RunResult r = run_loom_on_ranks(
      2, "bench fmm --ranks_bodies 3000 --ranks_dist plummer --warmup 0 --repeats 2 --json " + (dir / "b.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(dir / "b.json"));
  EXPECT_EQ(j["ranks"], 2);
  ASSERT_EQ(j["bodies_per_rank"].size(), 2u);
  EXPECT_EQ(j["bodies_per_rank"][0].get<int>() + j["bodies_per_rank"][1].get<int>(), 6000);
  ASSERT_EQ(j["seconds_per_rank"].size(), 2u);
  for (const auto& s : j["seconds_per_rank"])
    for (const char* key : {"partition", "tree", "let_build", "communication", "local", "kernels", "remote", "cost"})
      EXPECT_GE(s[key].get<double>(), 0) << key;
  EXPECT_GT(j["seconds_per_rank"][0]["kernels"].get<double>(), 0);
  ASSERT_EQ(j["step_seconds"].size(), 2u);
  ASSERT_EQ(j["cost_imbalance"].size(), 2u);
  EXPECT_GE(j["cost_imbalance"][0].get<double>(), 1.0);
  EXPECT_NE(r.out.find("median step"), std::string::npos);
}

TEST(FmmMpiCli, RepeatPartitionsAgainByCost) {
  // clustered bodies: the first evaluation's cost imbalance exceeds the threshold, the bodies move, and the
  // last evaluation's results (gathered from the moved bodies) still pass the run's check
  TempDir dir;
  const RunResult r = run_loom_on_ranks(2, "fmm --n 4000 --dist plummer --samples 200 --repeat 2 "
                                           "--repartition_threshold 1.0 --json " + (dir / "r.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(dir / "r.json"));
  ASSERT_EQ(j["cost_imbalance"].size(), 2u);
  EXPECT_GT(j["cost_imbalance"][0].get<double>(), 1.0);
  EXPECT_EQ(j["repartitioned"][0], true);
  EXPECT_LT(j["errors"]["potential"].get<double>(), 1e-5);
  EXPECT_NE(r.out.find("cost imbalance"), std::string::npos);
}

TEST(FmmMpiCli, RepeatNeedsRanks) {
  const RunResult one = run_loom("fmm --n 100 --repeat 2");
  EXPECT_EQ(one.code, 2);
  EXPECT_NE(one.err.find("repeat"), std::string::npos) << one.err;
  const RunResult alone = run_loom("fmm --n 100 --repartition_threshold 1.5");
  EXPECT_EQ(alone.code, 2);
  EXPECT_NE(alone.err.find("repartition_threshold"), std::string::npos) << alone.err;
}

TEST(FmmMpiCli, BenchOnRanksNeedsBodiesPerRank) {
  const RunResult r = run_loom_on_ranks(2, "bench fmm --quick true");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("ranks_bodies"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace loom::test
