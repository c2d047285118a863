// The pairs of the received tree's cells with the local cells that the received field evaluates
// (let_field.cpp's traversal), grouped by local (target) cell: the pairs of cell c are [offset[c],
// offset[c + 1]) of `source`, indices into Let::cells.
#pragma once

#include <vector>

#include "loom/fmm/real.hpp"

namespace loom::fmm::parallel {

struct LetPairs {
  std::vector<Index> offset;
  std::vector<int> source;
  Index size() const { return static_cast<Index>(source.size()); }
};

struct LetLists {
  LetPairs m2l, p2p;
};

}  // namespace loom::fmm::parallel
