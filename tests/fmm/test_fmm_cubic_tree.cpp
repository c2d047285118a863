// The ranks' tree with near-cubic cells (fmm/parallel/cubic_tree.hpp): the cuts an aspect ratio asks for; the
// merged tree is a valid tree (every body in one leaf of at most ncrit, children contiguous below their parent,
// radii covering the bodies); the FMM over it matches a direct sum; and on a 1 x 1 x 1/2 slab (two ranks'
// halves of a cube) it needs half the M2L pairs of the plain tree's flat cells, and no more direct
// interactions.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <cmath>
#include <vector>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/list_cache.hpp"
#include "loom/fmm/parallel/cubic_tree.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::parallel {
namespace {

std::vector<Vec3d> slab(Index n, double depth) {
  std::vector<Vec3d> x = make_positions(Distribution::cube, n, 5);  // the cube [-1, 1)^3
  for (Vec3d& v : x) v.z = -1 + depth * (v.z + 1);
  return x;
}

TEST(FmmCubicTree, CutsFollowTheAspectRatio) {
  auto cuts = [](Vec3d e) {
    const Cuts c = cubic_cuts(e);
    return std::vector<int>{c.axis[0], c.axis[1], c.axis[2]};
  };
  EXPECT_EQ(cuts({1, 1, 1}), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(cuts({1, 1, 0.5}), (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(cuts({0.5, 1, 0.5}), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(cuts({1.2, 1, 1}), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(cuts({4, 1, 2}), (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(cuts({64, 1, 1}), (std::vector<int>{3, 0, 0}));  // at most three bisections
  EXPECT_EQ(cuts({1, 1, 0}), (std::vector<int>{0, 0, 0}));   // flat: the plain tree
}

TEST(FmmCubicTree, AValidTreeWithTheRootCut) {
  const std::vector<Vec3d> x = slab(20000, 0.5);
  const int ncrit = 64;
  const Tree t = cubic_tree(x, ncrit);
  const auto& cells = t.cells();
  ASSERT_EQ(cells[0].child_count, 4);  // 1 x 1 x 1/2: two cuts
  ASSERT_EQ(t.size(), Index(x.size()));
  std::vector<int> seen(x.size(), 0);
  for (Index i = 0; i < t.size(); ++i) {
    const auto id = static_cast<std::size_t>(t.order()[static_cast<std::size_t>(i)]);
    ++seen[id];
    EXPECT_EQ(norm2(t.positions()[static_cast<std::size_t>(i)] - x[id]), 0.0);
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), Index(x.size()));
  Index in_leaves = 0;
  for (int c = 0; c < static_cast<int>(cells.size()); ++c) {
    const Cell& a = cells[static_cast<std::size_t>(c)];
    EXPECT_GE(c, t.level_begin(a.level));
    EXPECT_LT(c, t.level_begin(a.level + 1));
    for (Index i = a.begin; i < a.begin + a.count; ++i)
      EXPECT_LE(std::sqrt(norm2(t.positions()[static_cast<std::size_t>(i)] - a.center)), a.radius * (1 + 1e-12));
    if (a.leaf()) {
      EXPECT_LE(a.count, ncrit);
      in_leaves += a.count;
      continue;
    }
    Index below = 0, next = a.begin;
    for (int k = 0; k < a.child_count; ++k) {
      const Cell& child = cells[static_cast<std::size_t>(a.child_begin + k)];
      EXPECT_EQ(child.parent, c);
      EXPECT_EQ(child.level, a.level + 1);
      EXPECT_EQ(child.begin, next);  // children hold their parent's bodies in order
      next += child.count;
      below += child.count;
    }
    EXPECT_EQ(below, a.count);
  }
  EXPECT_EQ(in_leaves, Index(x.size()));
}

TEST(FmmCubicTree, MatchesTheDirectSum) {
  const Index n = 8000;
  const std::vector<Vec3d> x = slab(n, 0.5);
  const std::vector<double> q = make_uniform(n, -1, 1, 6);
  Options o;
  o.order = 8;
  Evaluator cubic(o);
  cubic.set_tree(cubic_tree(x, o.ncrit));
  const LaplaceResult a = cubic.laplace(q);
  const auto targets = sample_targets(n, 200);
  std::vector<double> phi, got;
  std::vector<Vec3d> grad;
  direct_laplace(x, q, targets, phi, grad);
  for (Index i : targets) got.push_back(a.potential[static_cast<std::size_t>(i)]);
  EXPECT_LT(relative_l2_error(got, phi), 1e-5);
}

// The pairs of the dual traversal (tree/traversal.hpp) on a tree: M2L pairs and direct interactions.
std::pair<double, double> work(const Tree& t, const Options& o) {
  const InteractionLists lists = traverse(t, t, detail::traversal_options(o, true, 0.0, nullptr));
  double interactions = 0;
  for (std::size_t c = 0; c < t.cells().size(); ++c)
    for (Index k = lists.p2p_offset[c]; k < lists.p2p_offset[c + 1]; ++k)
      interactions += double(t.cells()[c].count) *
                      double(t.cells()[static_cast<std::size_t>(lists.p2p_source[static_cast<std::size_t>(k)])].count);
  return {double(lists.m2l_source.size()), interactions};
}

TEST(FmmCubicTree, HalvesTheM2lPairsOfTheFlatCells) {
  // 3e4 bodies on a 1 x 1 x 1/2 slab: the plain tree's cells are 2 : 2 : 1 at every level, the cubic tree's
  // are cubes above the leaves: half the M2L pairs (0.48x; 0.49x at 2e5, docs/performance.md), the same
  // direct interactions (the leaves' last bisection is the same). Not at every size: at 1.2e4 the plain
  // tree's leaves are cubes too and the cubic tree needs 16% more pairs.
  const std::vector<Vec3d> x = slab(30000, 0.5);
  const Options o;
  const auto [cubic_m2l, cubic_p2p] = work(cubic_tree(x, o.ncrit), o);
  const auto [flat_m2l, flat_p2p] = work(Tree(x, o.ncrit), o);
  std::printf("slab 1 x 1 x 1/2, 30000 bodies: cubic cells %.0f M2L pairs, %.3g interactions; flat cells %.0f, "
              "%.3g\n", cubic_m2l, cubic_p2p, flat_m2l, flat_p2p);
  EXPECT_LT(cubic_m2l, 0.6 * flat_m2l);
  EXPECT_LT(cubic_p2p, 1.02 * flat_p2p);
}

}  // namespace
}  // namespace loom::fmm::parallel
