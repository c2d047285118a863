// The cursor the GPU P2P kernel uses to fill shared-memory tiles across source leaves
// (src/loom/fmm/gpu/source_cursor.hpp): simulating the kernel's threads on the host, every source body of every
// pair lands in exactly one slot of one tile, in order, and the tiles' fill counts add up; empty cells and
// tiles larger or smaller than the leaves included.
#include <gtest/gtest.h>

#include <vector>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/gpu/source_cursor.hpp"

namespace loom::fmm {
namespace {

void simulate(const std::vector<Index>& counts, Index first, Index last, int threads) {
  auto count = [&](Index k) { return counts[static_cast<std::size_t>(k)]; };
  std::vector<std::pair<Index, Index>> seen;  // (pair, offset) in tile order
  SourceCursor cursor{first, 0};
  int tiles = 0;
  while (cursor.pair < last) {
    std::vector<std::pair<Index, Index>> tile(static_cast<std::size_t>(threads), {-1, -1});
    for (int t = 0; t < threads; ++t) {  // each thread's slot
      SourceCursor mine = cursor;
      if (advance(mine, last, t, count)) {
        ASSERT_LT(mine.offset, count(mine.pair));
        tile[static_cast<std::size_t>(t)] = {mine.pair, mine.offset};
      }
    }
    const Index valid = advance_counting(cursor, last, threads, count);
    for (int t = 0; t < threads; ++t) {
      const bool filled = tile[static_cast<std::size_t>(t)].first >= 0;
      ASSERT_EQ(filled, t < valid) << "tile " << tiles << " slot " << t;
      if (filled) seen.push_back(tile[static_cast<std::size_t>(t)]);
    }
    ++tiles;
    ASSERT_LE(tiles, 2 + static_cast<int>(seen.size()) / threads) << "the cursor does not advance";
  }
  std::vector<std::pair<Index, Index>> expected;
  for (Index k = first; k < last; ++k)
    for (Index j = 0; j < count(k); ++j) expected.emplace_back(k, j);
  EXPECT_EQ(seen, expected);
}

TEST(SourceCursor, CoversEverySourceBodyOnceInOrder) {
  simulate({5, 3, 7}, 0, 3, 4);
  simulate({64, 64, 64}, 0, 3, 64);     // tiles exactly one leaf
  simulate({10, 0, 0, 3, 0}, 0, 5, 8);  // empty cells, and one at the end
  simulate({0, 0, 4}, 0, 3, 2);         // empty cells first
  simulate({200}, 0, 1, 64);            // a leaf larger than a tile
  simulate({3, 4}, 1, 2, 64);           // a sub-range of the pairs
  simulate({}, 0, 0, 64);               // no pairs
  Random rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Index> counts(1 + rng.next() % 40);
    for (auto& c : counts) c = static_cast<Index>(rng.next() % 130) * (rng.next() % 5 != 0);
    simulate(counts, 0, static_cast<Index>(counts.size()), trial % 2 ? 64 : 128);
  }
}

}  // namespace
}  // namespace loom::fmm
