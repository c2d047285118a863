// Slab decomposition bookkeeping (one process): every layer owned exactly once, balanced, neighbours right.
#include <gtest/gtest.h>

#include "loom/comm/slab.hpp"
#include "loom/core/error.hpp"

namespace loom::comm {
namespace {

TEST(Slab, LayersCoveredOnceAndBalanced) {
  for (int ranks = 1; ranks <= 7; ++ranks) {
    for (std::int64_t nz : {7, 10, 302}) {
      if (nz < ranks) continue;
      std::int64_t next = 0, smallest = nz, largest = 0;
      for (int r = 0; r < ranks; ++r) {
        const Slab s = slab_of(nz, ranks, r, false);
        EXPECT_EQ(s.begin, next);
        next = s.end;
        smallest = std::min(smallest, s.layers());
        largest = std::max(largest, s.layers());
        EXPECT_EQ(s.below, r == 0 ? -1 : r - 1);
        EXPECT_EQ(s.above, r == ranks - 1 ? -1 : r + 1);
      }
      EXPECT_EQ(next, nz);
      EXPECT_LE(largest - smallest, 1);
    }
  }
}

TEST(Slab, PeriodicNeighboursWrap) {
  const Slab first = slab_of(12, 4, 0, true), last = slab_of(12, 4, 3, true);
  EXPECT_EQ(first.below, 3);
  EXPECT_EQ(last.above, 0);
  EXPECT_EQ(slab_of(5, 1, 0, true).below, 0);
}

TEST(Slab, MoreRanksThanLayersIsAUsageError) { EXPECT_THROW(slab_of(3, 4, 0, false), UsageError); }

TEST(Slab, SingleRankPeriodicHaloWrapsAround) {
  const Slab s = slab_of(4, 1, 0, true);
  // layout: [halo][4 owned layers][halo], one double per layer
  std::vector<double> v{-1, 10, 11, 12, 13, -1};
  exchange_halos(Communicator::world(), s, v.data(), sizeof(double), 1);
  EXPECT_EQ(v.front(), 13);
  EXPECT_EQ(v.back(), 10);
}

}  // namespace
}  // namespace loom::comm
