// The multisection tree (src/loom/fmm/tree/tree.*) and the dual tree traversal (tree/traversal.*): leaves of at most
// ncrit (and more than ncrit/2) bodies, children partitioning their parent, radii enclosing the bodies, and an
// interaction list in which every (target body, source body) pair is covered exactly once, by a P2P pair or an
// M2L pair that satisfies the acceptance criterion; periodic lists cover each pair once per image.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/tree/traversal.hpp"
#include "loom/fmm/tree/tree.hpp"

namespace loom::fmm {
namespace {

// balanced: most leaves come from median splits and hold more than ncrit/2 bodies (smooth distributions)
void check_tree(const std::vector<Vec3d>& x, int ncrit, bool balanced) {
  const Tree tree(x, ncrit);
  const auto& cells = tree.cells();
  ASSERT_EQ(tree.size(), static_cast<Index>(x.size()));
  // the order is a permutation, and positions follow it
  std::vector<Index> sorted = tree.order();
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], static_cast<Index>(i));
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Vec3d a = tree.positions()[i], b = x[static_cast<std::size_t>(tree.order()[i])];
    ASSERT_EQ(a.x, b.x);
    ASSERT_EQ(a.z, b.z);
  }
  Index leaf_bodies = 0;
  std::size_t half_full = 0;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const Cell& cell = cells[c];
    for (Index i = cell.begin; i < cell.begin + cell.count; ++i)
      ASSERT_LE(std::sqrt(norm2(tree.positions()[static_cast<std::size_t>(i)] - cell.center)),
                cell.radius * (1 + 1e-12));
    if (cell.leaf()) {
      EXPECT_LE(cell.count, ncrit);
      if (c != 0) {
        EXPECT_GE(cell.count, 1);
      }
      half_full += 2 * cell.count > ncrit;
      leaf_bodies += cell.count;
      continue;
    }
    EXPECT_GE(cell.child_count, 2);
    EXPECT_LE(cell.child_count, 8);
    Index next = cell.begin;
    for (int ch = cell.child_begin; ch < cell.child_begin + cell.child_count; ++ch) {
      const Cell& child = cells[static_cast<std::size_t>(ch)];
      EXPECT_EQ(child.begin, next);  // children are contiguous and cover the parent
      EXPECT_EQ(child.parent, static_cast<int>(c));
      EXPECT_EQ(child.level, cell.level + 1);
      EXPECT_GE(ch, tree.level_begin(child.level));
      EXPECT_LT(ch, tree.level_begin(child.level + 1));
      next += child.count;
    }
    EXPECT_EQ(next, cell.begin + cell.count);
  }
  EXPECT_EQ(leaf_bodies, static_cast<Index>(x.size()));
  if (balanced) {
    EXPECT_GT(double(half_full), 0.9 * double(tree.leaves().size()));
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Cell& leaf = cells[static_cast<std::size_t>(tree.leaf_of_body()[i])];
    EXPECT_TRUE(leaf.leaf());
    EXPECT_GE(static_cast<Index>(i), leaf.begin);
    EXPECT_LT(static_cast<Index>(i), leaf.begin + leaf.count);
  }
}

TEST(Tree, StructureOnEachDistribution) {
  for (auto d : {Distribution::cube, Distribution::sphere, Distribution::plummer}) {
    SCOPED_TRACE(std::string(to_string(d)));
    check_tree(make_positions(d, 5000, 11), 32, d == Distribution::cube);
    check_tree(make_positions(d, 777, 12), 5, d == Distribution::cube);
  }
}

// The cells alone (fmm::Evaluator's host form when the bodies stay on the device): the same cells, levels and
// leaves, the body count kept, no body arrays; a traversal of it gives the full tree's lists.
TEST(Tree, CellsOnlyKeepsTheCellsAndTheCount) {
  const auto x = make_positions(Distribution::plummer, 5000, 31);
  const Tree full(x, 16);
  std::vector<int> offsets;
  for (int l = 0; l <= full.levels(); ++l) offsets.push_back(full.level_begin(l));
  const Tree cells = Tree::cells_only(full.cells(), offsets, full.size(), full.ncrit());
  EXPECT_TRUE(full.has_bodies());
  EXPECT_FALSE(cells.has_bodies());
  EXPECT_EQ(cells.size(), full.size());
  EXPECT_EQ(cells.levels(), full.levels());
  EXPECT_EQ(cells.leaves(), full.leaves());
  EXPECT_TRUE(cells.order().empty() && cells.positions().empty() && cells.leaf_of_body().empty());
  TraversalOptions t;
  t.theta = 0.5;
  const InteractionLists a = traverse(full, full, t), b = traverse(cells, cells, t);
  EXPECT_EQ(a.m2l_source, b.m2l_source);
  EXPECT_EQ(a.p2p_source, b.p2p_source);
}

TEST(Tree, CoincidentBodiesAndTinyInputs) {
  check_tree(std::vector<Vec3d>(100, Vec3d{0.5, 0.5, 0.5}), 8, true);  // all bodies at one point
  check_tree({Vec3d{0, 0, 0}}, 4, false);
  check_tree({}, 4, false);
}

TEST(Tree, ClusteredBodiesGetCompactCells) {
  // Plummer bodies reach out to r ~ 40 while half of them lie within r ~ 1.3: the leaves holding the core must
  // be small, not slivers reaching the outliers.
  const auto x = make_positions(Distribution::plummer, 20000, 13);
  const Tree tree(x, 32);
  int compact = 0, core = 0;
  for (int c : tree.leaves()) {
    const Cell& leaf = tree.cells()[static_cast<std::size_t>(c)];
    if (norm2(leaf.center) > 0.25) continue;
    ++core;
    compact += leaf.radius < 0.3;
  }
  EXPECT_GT(core, 10);
  EXPECT_EQ(compact, core);
}

TEST(Tree, RectangularCellsFollowTheLongestSide) {
  // bodies in a flat slab: the first splits are along x and y, never z
  Random rng(3);
  std::vector<Vec3d> x(4000);
  for (auto& p : x) p = {rng.uniform(0, 8), rng.uniform(0, 8), rng.uniform(0, 0.01)};
  const Tree tree(x, 16);
  for (int c = tree.level_begin(1); c < tree.level_begin(2); ++c) {
    const Cell& cell = tree.cells()[static_cast<std::size_t>(c)];
    EXPECT_LT(cell.radius, 0.8 * tree.cells()[0].radius);
    EXPECT_NEAR(cell.center.z, 0.005, 0.005);
  }
}

// Counts, for every target leaf and source body, how many list entries cover the pair (per image shift).
void check_coverage(const Tree& tree, const InteractionLists& lists, const TraversalOptions& o) {
  const auto& cells = tree.cells();
  const auto n = static_cast<std::size_t>(tree.size());
  const int images = o.periodic ? 27 : 1;
  std::vector<int> count(cells.size() * n * static_cast<std::size_t>(images), 0);
  auto leaves_under = [&](int c, auto&& self, std::vector<int>& out) -> void {
    const Cell& cell = cells[static_cast<std::size_t>(c)];
    if (cell.leaf()) out.push_back(c);
    for (int ch = cell.child_begin; ch < cell.child_begin + cell.child_count; ++ch) self(ch, self, out);
  };
  auto cover = [&](int target, int source, int shift) {
    std::vector<int> targets;
    leaves_under(target, leaves_under, targets);
    const Cell& b = cells[static_cast<std::size_t>(source)];
    const int image = o.periodic ? shift : 0;
    for (int a : targets)
      for (Index j = b.begin; j < b.begin + b.count; ++j)
        ++count[(static_cast<std::size_t>(a) * n + static_cast<std::size_t>(j)) * static_cast<std::size_t>(images) +
                static_cast<std::size_t>(image)];
  };
  for (std::size_t c = 0; c < cells.size(); ++c) {
    for (Index k = lists.m2l_offset[c]; k < lists.m2l_offset[c + 1]; ++k) {
      const int src = lists.m2l_source[static_cast<std::size_t>(k)];
      const int shift = lists.m2l_shift[static_cast<std::size_t>(k)];
      Vec3d center = cells[static_cast<std::size_t>(src)].center;
      if (o.periodic) center += shift_vector(shift, o.period);
      const double distance = std::sqrt(norm2(cells[c].center - center));
      EXPECT_GT(distance * o.theta, cells[c].radius + cells[static_cast<std::size_t>(src)].radius);  // the MAC
      cover(static_cast<int>(c), src, shift);
    }
    for (Index k = lists.p2p_offset[c]; k < lists.p2p_offset[c + 1]; ++k) {
      EXPECT_TRUE(cells[c].leaf());
      EXPECT_TRUE(cells[static_cast<std::size_t>(lists.p2p_source[static_cast<std::size_t>(k)])].leaf());
      cover(static_cast<int>(c), lists.p2p_source[static_cast<std::size_t>(k)],
            lists.p2p_shift[static_cast<std::size_t>(k)]);
    }
  }
  int wrong = 0;
  for (int a : tree.leaves())
    for (std::size_t j = 0; j < n; ++j)
      for (int image = 0; image < images; ++image)
        wrong += count[(static_cast<std::size_t>(a) * n + j) * static_cast<std::size_t>(images) +
                       static_cast<std::size_t>(image)] != 1;
  EXPECT_EQ(wrong, 0) << "target leaf / source body pairs not covered exactly once";
}

TEST(Traversal, EveryPairCoveredExactlyOnce) {
  for (auto d : {Distribution::cube, Distribution::sphere, Distribution::plummer}) {
    SCOPED_TRACE(std::string(to_string(d)));
    const Tree tree(make_positions(d, 3000, 21), 16);
    for (double theta : {0.3, 0.5, 0.7}) {
      TraversalOptions o;
      o.theta = theta;
      const auto lists = traverse(tree, tree, o);
      EXPECT_GT(lists.m2l_count(), 0);
      check_coverage(tree, lists, o);
    }
  }
}

TEST(Traversal, PeriodicImagesCoveredOncePerShift) {
  auto x = make_positions(Distribution::cube, 1500, 22);  // in [-1, 1)^3: period 2
  const Tree tree(x, 16);
  TraversalOptions o;
  o.theta = 0.5;
  o.periodic = true;
  o.period = 2;
  const auto lists = traverse(tree, tree, o);
  check_coverage(tree, lists, o);
}

TEST(Traversal, GuardKeepsCloseCellsInTheNearField) {
  const Tree tree(make_positions(Distribution::cube, 4000, 23), 16);
  std::vector<double> sigma(tree.cells().size(), 0.15);
  TraversalOptions o;
  o.theta = 0.5;
  o.guard = 6;
  o.source_sigma = sigma.data();
  const auto guarded = traverse(tree, tree, o);
  check_coverage(tree, guarded, o);
  TraversalOptions plain = o;
  plain.guard = 0;
  const auto unguarded = traverse(tree, tree, plain);
  EXPECT_GT(p2p_interactions(tree, tree, guarded), p2p_interactions(tree, tree, unguarded));
  const auto& cells = tree.cells();
  for (std::size_t c = 0; c < cells.size(); ++c)
    for (Index k = guarded.m2l_offset[c]; k < guarded.m2l_offset[c + 1]; ++k) {
      const Cell& b = cells[static_cast<std::size_t>(guarded.m2l_source[static_cast<std::size_t>(k)])];
      EXPECT_GT(std::sqrt(norm2(cells[c].center - b.center)) - cells[c].radius - b.radius, 6 * 0.15);
    }
}

TEST(Traversal, CutoffModeKeepsOnlyNearPairs) {
  // P2P-only traversal (Gaussian sums): pairs of leaves closer than the cutoff, nothing farther, no M2L
  const auto x = make_positions(Distribution::cube, 3000, 24);
  const Tree tree(x, 16);
  std::vector<double> sigma(tree.cells().size(), 0.02);
  TraversalOptions o;
  o.far_field = false;
  o.guard = 5;
  o.source_sigma = sigma.data();
  const auto lists = traverse(tree, tree, o);
  EXPECT_EQ(lists.m2l_count(), 0);
  // every body pair within 5 sigma is in some P2P pair
  const auto& cells = tree.cells();
  std::vector<char> near(static_cast<std::size_t>(tree.size() * tree.size()), 0);
  for (std::size_t c = 0; c < cells.size(); ++c)
    for (Index k = lists.p2p_offset[c]; k < lists.p2p_offset[c + 1]; ++k) {
      const Cell& b = cells[static_cast<std::size_t>(lists.p2p_source[static_cast<std::size_t>(k)])];
      for (Index i = cells[c].begin; i < cells[c].begin + cells[c].count; ++i)
        for (Index j = b.begin; j < b.begin + b.count; ++j) near[static_cast<std::size_t>(i * tree.size() + j)] = 1;
    }
  int missing = 0;
  const auto& pos = tree.positions();
  for (Index i = 0; i < tree.size(); ++i)
    for (Index j = 0; j < tree.size(); ++j)
      if (norm2(pos[static_cast<std::size_t>(i)] - pos[static_cast<std::size_t>(j)]) < 0.1 * 0.1)
        missing += !near[static_cast<std::size_t>(i * tree.size() + j)];
  EXPECT_EQ(missing, 0);
  EXPECT_LT(p2p_interactions(tree, tree, lists), 0.5 * double(tree.size()) * double(tree.size()));
}

}  // namespace
}  // namespace loom::fmm
