// A rank's tree with near-cubic cells. The tree (tree/tree.hpp) bisects every cell three times along its
// longest side, so a domain of sides 1 x 1 x 1/2 (two ranks' halves of a cube) gets cells of sides 2 : 2 : 1 at
// every level, whose larger radii (for their volume) fail the MAC more often: the plain tree of 2e5 bodies on
// such a half needs twice the M2L pairs of the tree below (2.28e6 against 1.12e6; docs/performance.md). Here
// the domain is first cut into up to eight near-cubic pieces at medians (the bisections an aspect ratio asks
// for), each piece gets the usual tree, and the pieces' trees hang below one root. (The leaves' shape is set
// by how many bisections the last level needs, as on one process. The M2L count of a dual traversal is not
// monotone in the cells' shapes: at 1.2e4 bodies on a half, where the plain tree's leaves come out cubes,
// this tree needs 16% more pairs; at 3e4 and 2e5, 0.48x and 0.49x.)
#pragma once

#include <span>

#include "loom/fmm/tree/tree.hpp"

namespace loom::fmm::parallel {

// How many times to bisect along each axis for near-cubic pieces of a box of these extents: round(log2(side /
// shortest side)), at most three bisections in all (a cell has at most eight children).
struct Cuts {
  int axis[3] = {0, 0, 0};
  int total() const { return axis[0] + axis[1] + axis[2]; }
};
Cuts cubic_cuts(Vec3d extent);

// The rounds of bisection that cut the root of the backend's tree (gpu::build_tree's root_rounds) into such
// pieces: cubic_cuts(extent of the points).total(), or the usual 3 where no cut is asked for (each round cuts
// every piece along its longest side, which for these aspect ratios are the axes cubic_cuts names).
int cubic_root_rounds(std::span<const Vec3d> points);

// The tree over `points` (leaves of at most ncrit bodies) with the root's children the near-cubic pieces; the
// plain Tree where no cut is asked for or the points fit one leaf.
Tree cubic_tree(std::span<const Vec3d> points, int ncrit);

}  // namespace loom::fmm::parallel
