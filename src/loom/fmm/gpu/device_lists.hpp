// The interaction lists of tree/traversal.hpp built where the tree is (device_tree.hpp), by the same code on the
// host and the device: the dual traversal breadth first, every pair of a round visited at once under its rules
// (pair_visit.hpp: the MAC |dX| theta > R_A + R_B with the far-field guard gives an M2L pair, two leaves a P2P
// pair, a cell with itself all pairs of its children, and otherwise the larger cell is split), so every target
// gets exactly the dual traversal's pairs (in another order within a target). The lists come out grouped by
// target cell, as the CUDA passes read them.
#pragma once

#include <cstdint>

#include "loom/core/array.hpp"
#include "loom/fmm/gpu/device_tree.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::gpu {

struct BackendLists {
  core::Array<Index> m2l_offset, p2p_offset;  // by target cell, cell_count + 1
  core::Array<int> m2l_source, p2p_source;
  core::Array<std::uint8_t> m2l_shift, p2p_shift;
  Index m2l_count = 0, p2p_count = 0;
};

// options.source_sigma, when set, points to the cells' largest core radii on the tree's side (cell_max_sigma).
BackendLists traverse_tree(const BackendTree& tree, const TraversalOptions& options);

// The largest core radius of each cell's bodies; sigma per body in the caller's order (tree_order: in the tree's),
// on the tree's side.
core::Array<double> cell_max_sigma(const BackendTree& tree, const double* sigma, bool tree_order = false);

// The target cells of one list (those with pairs: offset[c + 1] > offset[c], cell_count + 1 offsets), ascending,
// made where the lists are (a stream compaction); count: how many (the first count entries of cells are valid).
struct PairTargets {
  core::Array<int> cells;
  int count = 0;
};
PairTargets pair_targets(core::Backend backend, const core::Array<Index>& offset, int cell_count);

// As tree/traversal.hpp's p2p_interactions (the near field's body pairs), summed where the lists are
// (integer-valued terms: exact below 2^53).
double p2p_interactions(const BackendTree& tree, const BackendLists& lists);

// Per cell, counted where the lists are and read back: the M2L pairs into it (m2l) and the sources each of its
// bodies meets by P2P (sources: the P2P source cells' body counts summed), as fmm/parallel/body_cost.hpp's
// local_work counts them from host lists.
void cell_work(const BackendTree& tree, const BackendLists& lists, std::vector<double>& m2l,
               std::vector<double>& sources);

InteractionLists to_host_lists(const BackendLists& lists);

}  // namespace loom::fmm::gpu
