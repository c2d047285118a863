// One level of the backend tree's multisection (device_tree.hpp) for cells small enough that one CUDA block holds
// a cell: the block does the cell's up to three rounds of bisection in shared memory -- bounding boxes by block
// reductions, a stable block radix sort per round of the same keys as the level-wide path (segments.hpp's
// sort_key over the parts of the cell), the split points by segments.hpp's lower_count -- then the children's
// centres and radii, and writes the cell's bodies back in their new order. One launch per level in place of the
// level-wide path's ~80 (three rounds of scans, reductions and device-wide radix sorts over all n bodies, and a
// count read back per round); the cells, the children and the body order are the level-wide path's exactly (the
// GPU test checks them against the host form). CUDA builds only.
#pragma once

#include "loom/fmm/real.hpp"
#include "loom/fmm/tree/tree.hpp"

namespace loom::fmm::gpu {

// The largest cell one block splits.
constexpr Index block_split_capacity = 4096;

// Splits each of the `count` cells of `level` (device pointers; every cell's count <= largest <= capacity) whose
// count exceeds ncrit: its bodies' positions and caller indices (pos, order: the whole tree-order arrays) rewritten
// in the split order, its children's begin, count, centre and radius in kids8[8 k ..] and their number in
// kid_count[k] (0 for a cell of at most ncrit bodies). The children's parent and level are the caller's to set.
void split_cells_in_blocks(const Cell* level, Index count, Index largest, int ncrit, Vec3d* pos, Index* order,
                           Cell* kids8, Index* kid_count);

}  // namespace loom::fmm::gpu
