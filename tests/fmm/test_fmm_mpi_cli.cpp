// `mpiexec -n N loom fmm` (src/loom/fmm/parallel/ranks_run.*): the results gathered in input order agree with the
// one-rank run's within the FMM's error (and both with a direct sum, in the run's own check), the JSON records
// the ranks, the bodies per rank after partitioning and the LET sizes per rank, and periodic runs are refused
// with exit 2 naming the key.
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

TEST(FmmMpiCli, PeriodicIsRefusedOnRanks) {
  const RunResult r = run_loom_on_ranks(2, "fmm --n 100 --periodic true");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("periodic = true"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace loom::test
