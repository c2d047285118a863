// Collectives and halo exchange across real MPI ranks; run by ctest under mpiexec -n 2, 3 and 4.
#include <gtest/gtest.h>

#include "loom/comm/communicator.hpp"
#include "loom/comm/halo_exchange.hpp"
#include "loom/comm/slab.hpp"

namespace loom::comm {
namespace {

TEST(Mpi, RunsOnSeveralRanks) {
  if (!mpi_built()) GTEST_SKIP() << "built without MPI";
  EXPECT_TRUE(mpi_active());
  EXPECT_GE(Communicator::world().size(), 2);
}

TEST(Mpi, ReductionsAgreeOnEveryRank) {
  const auto world = Communicator::world();
  const int n = world.size(), r = world.rank();
  EXPECT_EQ(world.sum(double(r + 1)), 0.5 * n * (n + 1));
  EXPECT_EQ(world.max(double(r)), n - 1);
  EXPECT_EQ(world.min(double(r)), 0);
  EXPECT_EQ(world.sum(std::int64_t{1} << 40), (std::int64_t{1} << 40) * n);
}

TEST(Mpi, GatherConcatenatesInRankOrder) {
  const auto world = Communicator::world();
  std::vector<double> mine(static_cast<std::size_t>(world.rank() + 1), double(world.rank()));
  const auto all = world.gather(mine, 0);
  if (world.is_root()) {
    std::vector<double> expected;
    for (int r = 0; r < world.size(); ++r) expected.insert(expected.end(), static_cast<std::size_t>(r + 1), double(r));
    EXPECT_EQ(all, expected);
  } else {
    EXPECT_TRUE(all.empty());
  }
  std::vector<double> b{world.is_root() ? 3.5 : 0.0};
  world.broadcast(b, 0);
  EXPECT_EQ(b[0], 3.5);
}

// Each layer holds `width` values equal to its global z index; after the exchange the halos hold the
// neighbours' layers (periodic wrap, and untouched -1 at a non-periodic boundary).
void check_halos(bool periodic, int width) {
  const auto world = Communicator::world();
  const std::int64_t nz = 3 * world.size() + 1;
  const Slab s = slab_of(nz, world.size(), world.rank(), periodic);
  const std::size_t per_layer = 5;
  std::vector<double> v(per_layer * static_cast<std::size_t>(s.layers() + 2 * width), -1.0);
  for (std::int64_t z = 0; z < s.layers(); ++z)
    for (std::size_t k = 0; k < per_layer; ++k) v[per_layer * static_cast<std::size_t>(z + width) + k] = double(s.begin + z);
  exchange_halos(world, s, v.data(), per_layer * sizeof(double), width);
  for (int h = 0; h < width; ++h) {
    const std::int64_t below_z = s.begin - width + h, above_z = s.end + h;
    const double expect_below = below_z >= 0 ? double(below_z) : (periodic ? double(below_z + nz) : -1.0);
    const double expect_above = above_z < nz ? double(above_z) : (periodic ? double(above_z - nz) : -1.0);
    for (std::size_t k = 0; k < per_layer; ++k) {
      EXPECT_EQ(v[per_layer * static_cast<std::size_t>(h) + k], expect_below) << "rank " << world.rank();
      EXPECT_EQ(v[per_layer * static_cast<std::size_t>(s.layers() + width + h) + k], expect_above) << "rank " << world.rank();
    }
  }
}

TEST(Mpi, HaloExchangeOpenBoundaries) { check_halos(false, 1); }
TEST(Mpi, HaloExchangePeriodicTwoLayers) { check_halos(true, 2); }

// Values whose sum depends on the order of addition: every rank gets the same bits, those of adding the ranks'
// values one after another in rank order.
TEST(Mpi, SumsInRankOrder) {
  const auto world = Communicator::world();
  const double mine[2] = {world.rank() == 0 ? 1.0 : 1e-16 * (world.rank() + 1), double(world.rank())};
  std::vector<double> v(mine, mine + 2);
  world.sum_in_rank_order(v);
  double expected = 0, count = 0;
  for (int r = 0; r < world.size(); ++r) {
    expected += r == 0 ? 1.0 : 1e-16 * (r + 1);
    count += r;
  }
  EXPECT_EQ(v[0], expected);
  EXPECT_EQ(v[1], count);
  EXPECT_EQ(world.max(v[0]), world.min(v[0]));
}

TEST(Mpi, GatherIntoConcatenatesInRankOrder) {
  const auto world = Communicator::world();
  std::vector<double> mine(static_cast<std::size_t>(2 * world.rank() + 1), double(world.rank()));
  std::size_t total = 0;
  for (int r = 0; r < world.size(); ++r) total += static_cast<std::size_t>(2 * r + 1);
  std::vector<double> all(world.is_root() ? total : 0, -1.0);
  world.gather_into(mine, all, 0);
  if (world.is_root()) {
    std::size_t at = 0;
    for (int r = 0; r < world.size(); ++r)
      for (int k = 0; k < 2 * r + 1; ++k) EXPECT_EQ(all[at++], double(r));
  }
}

TEST(Mpi, SplitMakesCommunicatorsOfTheirOwn) {
  const auto world = Communicator::world();
  const bool first_two = world.rank() < 2;
  const Communicator part = world.split(first_two ? 0 : 1);
  EXPECT_EQ(part.size(), first_two ? std::min(2, world.size()) : world.size() - 2);
  EXPECT_EQ(part.rank(), first_two ? world.rank() : world.rank() - 2);
  EXPECT_EQ(part.sum(1.0), double(part.size()));  // collectives stay inside the part
  EXPECT_GE(world.local_rank(), 0);
  EXPECT_LT(world.local_rank(), world.size());
  EXPECT_EQ(world.sum(std::int64_t{world.local_rank() == 0 ? 1 : 0}), 1);  // one node here
}

// The nonblocking exchange: halos arrive after wait(), from separate send and receive buffers.
TEST(Mpi, NonblockingHaloExchange) {
  const auto world = Communicator::world();
  const Slab s = slab_of(2 * world.size(), world.size(), world.rank(), false);
  std::vector<double> low(3, double(s.begin)), high(3, double(s.end - 1)), below(3, -1.0), above(3, -1.0);
  HaloExchange halo(world, s, 3 * sizeof(double));
  halo.start({low.data(), high.data(), below.data(), above.data()});
  EXPECT_TRUE(halo.in_flight());
  halo.wait();
  EXPECT_FALSE(halo.in_flight());
  EXPECT_EQ(below[1], s.below >= 0 ? double(s.begin - 1) : -1.0);
  EXPECT_EQ(above[2], s.above >= 0 ? double(s.end) : -1.0);
}

}  // namespace
}  // namespace loom::comm
