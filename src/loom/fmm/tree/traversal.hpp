// Dual tree traversal (the paper's Algorithms 1 and 2): a stack of (target cell, source cell) pairs, starting
// from the roots; a pair that satisfies the multipole acceptance criterion |dX| theta > R_A + R_B becomes an
// M2L, two leaves that do not become a P2P, and otherwise the larger cell is split. Pairs are collected, not
// evaluated, so that M2L and P2P run afterwards in batches grouped by target cell (CPU threads or GPU blocks).
// Periodic images: the source tree is also visited shifted by each of the 26 neighbouring periods.
#pragma once

#include <cstdint>
#include <vector>

#include "loom/fmm/real.hpp"
#include "loom/fmm/tree/tree.hpp"

namespace loom::fmm {

// The 27 image shifts (i, j, k) in {-1, 0, 1}^3, numbered 9(i+1) + 3(j+1) + (k+1); 13 is no shift.
constexpr int no_shift = 13;
LOOM_HOST_DEVICE inline Vec3d shift_vector(int shift, double period) {
  return {period * (shift / 9 - 1), period * (shift / 3 % 3 - 1), period * (shift % 3 - 1)};
}

struct TraversalOptions {
  double theta = 0.4;
  // false: no far field, only P2P pairs of cells closer than `cutoff` (a compactly decaying kernel such as the
  // Gaussian RBF sum); pairs farther than that are dropped.
  bool far_field = true;
  // Biot-Savart's far-field guard: M2L only when the cells are also guard * sigma_B apart (gap between the
  // spheres), with sigma_B the largest core radius in the source cell; also the cutoff of P2P-only traversals.
  double guard = 0;
  const double* source_sigma = nullptr;  // per source cell; null: sigma = 0
  bool periodic = false;
  double period = 0;  // cubic period when periodic
};

struct InteractionLists {
  // Grouped by target cell: the pairs of target cell c are [offset[c], offset[c + 1]).
  std::vector<Index> m2l_offset, p2p_offset;
  std::vector<int> m2l_source, p2p_source;
  std::vector<std::uint8_t> m2l_shift, p2p_shift;
  Index m2l_count() const { return static_cast<Index>(m2l_source.size()); }
  Index p2p_count() const { return static_cast<Index>(p2p_source.size()); }
};

// `targets` and `sources` may be the same tree (then a cell paired with itself is split into all pairs of its
// children, and a leaf with itself is a P2P).
InteractionLists traverse(const Tree& targets, const Tree& sources, const TraversalOptions& options);

// Body-body interactions the P2P pairs stand for: sum over pairs of count(A) * count(B).
double p2p_interactions(const Tree& targets, const Tree& sources, const InteractionLists& lists);

}  // namespace loom::fmm
