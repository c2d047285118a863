// The multisection tree (tree/tree.hpp) built where the bodies are: on the GPU for a resident evaluation, or on the
// host by the same code (thrust's host system and core::parallel_for on Backend::cpu), which the CPU tests check
// against the host Tree. Level by level, for all cells of a level at once: up to three rounds of bisection, each
// cutting every part holding more than ncrit bodies at the median of the longest side of its bounding box (clamped
// to the middle half of that side, as the host tree does) -- bounding boxes by a segmented reduction, one stable
// radix sort per round of keys (part, coordinate along the part's axis) that keeps the bodies outside the parts in
// place, the split point read off the sorted part -- then the parts of each cell become its 2..8 children, and
// the children's centres and radii come from two more segmented reductions. On the device, a level whose cells all
// hold at most gpu::block_split_capacity bodies is split one CUDA block per cell instead (cell_split.hpp: the same
// rounds, keys and sorts within the cell; the same cells and body order). The cells satisfy the host tree's
// invariants (each body in one leaf, leaves of at most ncrit bodies, children contiguous and in order, every box
// holding its bodies, the radius the largest distance from the centre); for bodies without equal coordinates the
// cells are the host tree's, body sets included. Compiled only with CUDA (it needs thrust).
#pragma once

#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/fmm/tree/tree.hpp"

namespace loom::fmm::gpu {

// Tree's arrays on the backend's side (core::Array, valid there); level_offsets on the host.
struct BackendTree {
  core::Backend backend = core::Backend::cpu;
  int ncrit = 0;
  Index n = 0;
  core::Array<Cell> cells;
  core::Array<Index> order;  // tree position -> the caller's index
  core::Array<Vec3d> pos;    // tree order
  core::Array<int> leaves, leaf_of_body;
  std::vector<int> level_offsets;
  int cell_count() const { return static_cast<int>(cells.size()); }
  int levels() const { return static_cast<int>(level_offsets.size()) - 1; }
};

inline core::Where side(core::Backend b) { return b == core::Backend::cpu ? core::Where::host : core::Where::device; }

// `positions`: n bodies on the backend's side. root_rounds (1, 2 or 3): the rounds of bisection that cut the
// root (3 everywhere else): fewer give the root 2 or 4 children, e.g. the near-cubic pieces of an elongated
// domain (a rank's: fmm/parallel/cubic_tree.hpp counts the cuts), each cut along the longest side of its part.
BackendTree build_tree(core::Backend backend, const Vec3d* positions, Index n, int ncrit, int root_rounds = 3);

// Re-fits the tree to moved bodies (`positions`: the caller's order, on the tree's side, as many as before): the
// same cells and body order, every centre and radius computed afresh, so the tree stays valid (each radius holds
// its bodies) and the FMM over it stays as accurate (the MAC reads the fitted radii); only the work grows as the
// cells spread. Returns the largest ratio of a cell's new radius to its old one: the caller rebuilds when it
// passes its limit (a cell that grew by a factor g pairs through the MAC with cells g times farther, its P2P and
// M2L lists growing about as g^3). period > 0: the periodic box's, into which the caller wraps its bodies; the
// tree's copy keeps each body at its image nearest its leaf's last centre, so a body that crossed a face stays
// beside its leaf instead of spreading it over the box. The periodic sums of a neutral box do not depend on the
// image a body is held at (the tinfoil term follows the dipole); those of a box with a net strength do (the
// rotation of vortex/neutral.hpp), as do the image levels' truncation, relative (L / image cube)^2.
double refit(BackendTree& tree, const Vec3d* positions, double period = 0);

// a[0 .. count) (count + 1 elements on the backend's side) -> its exclusive prefix sums, a[count] = the total,
// which is returned (read on the host).
Index exclusive_scan_on(core::Backend backend, core::Array<Index>& a, Index count);

// The host Tree holding the same cells, order and positions (for the host passes, and the tests).
Tree to_host_tree(const BackendTree& tree);

}  // namespace loom::fmm::gpu
