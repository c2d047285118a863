// Partitioning by measured cost over MPI ranks (fmm/parallel/body_cost.hpp, repartition.hpp): the costs the
// evaluation attributes to the bodies add up to the work its counts say (direct interactions and M2L pairs, at
// the given rates), and on clustered (Plummer) bodies a partition weighted by the last evaluation's costs lowers
// the ranks' cost imbalance below the count-balanced partition's (the adaptive tree keeps the work per body
// nearly even: the count-balanced imbalance is 1 to 2 per cent on 2 to 8 ranks at 20000 bodies);
// under the threshold nothing moves.
#include <gtest/gtest.h>

#include "backends.hpp"
#include "fmm/mpi_bodies.hpp"
#include "loom/comm/rank_device.hpp"
#include "loom/fmm/parallel/cubic_tree.hpp"
#include "loom/fmm/parallel/distributed.hpp"
#include "loom/fmm/parallel/rebalance.hpp"
#include "loom/fmm/parallel/repartition.hpp"

namespace loom::fmm::parallel {
namespace {

using namespace mpi_test;

// Evaluates this rank's bodies; returns their costs at `rates` (zero: measured, and set to what was used).
std::vector<double> evaluate_cost(const Bodies& mine, CostRates& rates, RankReport* report = nullptr) {
  BodyCost cost{rates, {}};
  if (mine.ncomp == 1)
    laplace(world(), Options{}, mine.x, mine.strength, report, &cost);
  else
    biot_savart(world(), Options{}, mine.x, vectors(mine.strength), mine.sigma, report, &cost);
  rates = cost.rates;
  return cost.seconds;
}

TEST(FmmRanksCost, CostsAddUpToTheCountedWork) {
  // rates of one unit each: the costs sum to the P2P interactions (local and received), the M2L pairs and the
  // bodies, all over the ranks; the local M2L pairs and interactions are the one-rank statistics' kind of count
  const auto c = world();
  const Bodies mine = distribute(make_bodies(Distribution::plummer, 6000, 1, 81));
  CostRates unit{1, 0, 0};
  RankReport report;
  const auto pairs = evaluate_cost(mine, unit, &report);
  double sum = 0;
  for (double v : pairs) sum += v;
  LaplaceResult alone;  // the local FMM on the tree the ranks' FMM builds
  if (!mine.x.empty()) {
    Evaluator e(Options{});
    e.set_tree(cubic_tree(mine.x, Options{}.ncrit));
    alone = e.laplace(mine.strength);
  }
  const double expected = alone.stats.p2p_interactions + report.remote_pairs.p2p_interactions;
  EXPECT_NEAR(sum, expected, 1e-9 * expected);
  CostRates per_body{0, 0, 1};
  const auto ones = evaluate_cost(mine, per_body);
  for (double v : ones) EXPECT_EQ(v, 1.0);
  CostRates per_m2l{0, 1, 0};
  double m2l = 0;
  for (double v : evaluate_cost(mine, per_m2l)) m2l += v;
  EXPECT_NEAR(m2l, double(alone.stats.m2l_pairs + report.remote_pairs.m2l), 1e-9 * m2l + 1e-9);
  (void)c;
}

// The GPU ranks count their local lists' work on the device (no host copy of the lists); at given rates every
// body's cost equals that of the same backend tree's code on the host (thrust's host system, host lists).
TEST(FmmRanksCost, GpuCostsEqualTheBackendTreeOnTheHost) {
  test::skip_unless_available(core::Backend::cuda);
  if (IsSkipped()) return;
  comm::select_rank_device(world());
  Options host;
  host.tree_on_backend = true;
  Options gpu = host;
  gpu.backend = core::Backend::cuda;
  gpu.precision = Precision::double_;
  for (int ncomp : {1, 3}) {
    const Bodies mine = distribute(make_bodies(Distribution::plummer, 6000, ncomp, 83));
    auto costs = [&](const Options& o) {
      BodyCost cost{CostRates{1.0, 2.0, 3.0}, {}};
      if (ncomp == 1)
        laplace(world(), o, mine.x, mine.strength, nullptr, &cost);
      else
        biot_savart(world(), o, mine.x, vectors(mine.strength), mine.sigma, nullptr, &cost);
      return cost.seconds;
    };
    const std::vector<double> a = costs(host), b = costs(gpu);
    ASSERT_EQ(a.size(), mine.x.size());
    ASSERT_EQ(b.size(), a.size());
    for (std::size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], b[i]) << "body " << i << ", ncomp " << ncomp;
  }
}

TEST(FmmRanksCost, WeightedPartitionLowersTheMeasuredImbalance) {
  const auto c = world();
  Bodies mine = distribute(make_bodies(Distribution::plummer, 20000, 1, 83));
  CostRates measured;
  evaluate_cost(mine, measured);
  EXPECT_GT(measured.pair, 0);
  EXPECT_GT(measured.m2l, 0);
  EXPECT_GT(measured.body, 0);
  // Fixed rates (a pair 1 ns, an M2L at p = 10 0.2 us: the CPU's order of magnitude), so that the imbalances
  // compared do not move with the timings of a loaded machine.
  CostRates rates{1e-9, 2e-7, 0};
  std::vector<double> cost = evaluate_cost(mine, rates);
  std::vector<double> rows = rows_of(mine, 0, static_cast<Index>(mine.x.size()));
  const int width = 5 + mine.ncomp;
  std::vector<double> moved_cost = cost;
  double counted = 0;
  EXPECT_FALSE(repartition(c, rows, width, moved_cost, 1e9, &counted));  // under the threshold: nothing moves
  EXPECT_EQ(moved_cost, cost);
  double before = 0;
  const bool moved = repartition(c, rows, width, moved_cost, 1.0, &before);
  EXPECT_EQ(before, counted);
  EXPECT_EQ(moved, before > 1.0);
  const Bodies weighted = from_rows(rows, mine.ncomp);
  const double after = cost_imbalance(c, evaluate_cost(weighted, rates));
  if (c.is_root()) std::printf("%d ranks, Plummer: cost imbalance %.3f by count, %.3f by cost\n", c.size(), before, after);
  if (c.size() == 1) {
    EXPECT_EQ(before, 1.0);
    EXPECT_EQ(after, 1.0);
  } else {
    EXPECT_GT(before, 1.005);  // the count-balanced partition is unbalanced in work
    // lowered by at least a quarter (what remains: the received work, which moves with the cuts)
    EXPECT_LT(after, before - 0.25 * (before - 1));
  }
}

TEST(FmmRanksCost, RepeatedStepsMoveClusteredBodiesOnce) {
  // the loop of `loom fmm --repeat` and the bench (rebalance.hpp) at the fixed rates above: the first step's
  // imbalance moves the bodies, the second step measures the lowered one; every body stays on one rank
  const auto c = world();
  const Bodies b = distribute(make_bodies(Distribution::plummer, 20000, 1, 83));
  RankBodies mine = RankBodies::from_rows(rows_of(b, 0, static_cast<Index>(b.x.size())), 1);
  RankFmm fmm(c);
  RankResults results;
  const Evaluate evaluate = [&](const RankBodies& bodies, RankReport& report, BodyCost* cost) {
    evaluate_bodies(fmm, Options{}, bodies, results, report, cost);
  };
  const CostRates rates{1e-9, 2e-7, 0};
  const Step first = rebalanced_step(c, mine, 1.002, rates, evaluate);
  EXPECT_EQ(c.sum(std::int64_t(mine.x.size())), 20000);
  const Step second = rebalanced_step(c, mine, 1e9, rates, evaluate);
  EXPECT_FALSE(second.repartitioned);
  if (c.is_root())
    std::printf("%d ranks, Plummer, repeated: cost imbalance %.3f, then %.3f\n", c.size(), first.imbalance,
                second.imbalance);
  if (c.size() == 1) {
    EXPECT_FALSE(first.repartitioned);
    return;
  }
  EXPECT_TRUE(first.repartitioned);
  EXPECT_LT(second.imbalance, first.imbalance - 0.25 * (first.imbalance - 1));
}

TEST(FmmRanksCost, StepsOnKeptResultsEqualFreshCalls) {
  // evaluate_bodies reads the Biot-Savart strengths in place and fills results kept from step to step: each
  // step's velocities and stretchings equal a fresh call's with the strengths copied into Vec3d (CPU: exactly);
  // on one rank a step measures no costs and moves nothing, on several it measures them
  const auto c = world();
  const Bodies b = distribute(make_bodies(Distribution::plummer, 6000, 3, 85));
  RankBodies mine = RankBodies::from_rows(rows_of(b, 0, static_cast<Index>(b.x.size())), 3);
  RankFmm fmm(c);
  RankResults kept;
  const Evaluate evaluate = [&](const RankBodies& bodies, RankReport& report, BodyCost* cost) {
    evaluate_bodies(fmm, Options{}, bodies, kept, report, cost);
  };
  for (int step = 0; step < 2; ++step) {
    const Step s = rebalanced_step(c, mine, 1e9, {}, evaluate);
    const BiotSavartResult fresh = biot_savart(c, Options{}, mine.x, vectors(mine.strength), mine.sigma);
    ASSERT_EQ(kept.biot_savart.velocity.size(), mine.x.size());
    for (std::size_t i = 0; i < mine.x.size(); ++i)
      for (int d = 0; d < 3; ++d) {
        ASSERT_EQ(kept.biot_savart.velocity[i][d], fresh.velocity[i][d]) << "step " << step << ", body " << i;
        ASSERT_EQ(kept.biot_savart.stretching[i][d], fresh.stretching[i][d]) << "step " << step << ", body " << i;
      }
    EXPECT_FALSE(s.repartitioned);
    if (c.size() == 1) {
      EXPECT_EQ(s.report.cost, 0.0);
      EXPECT_EQ(s.imbalance, 1.0);
    } else {
      EXPECT_GT(s.report.cost, 0.0);  // the costs measured (their stopwatch ran)
    }
  }
}

}  // namespace
}  // namespace loom::fmm::parallel
