// The tree as the passes read it: the host Tree and its arrays on the backend's side (core::Array, moved to
// the device once per set of positions on the GPU), plus the coordinates split for the CPU's vector loops.
#pragma once

#include <vector>

#include "loom/core/array.hpp"
#include "loom/fmm/real.hpp"
#include "loom/fmm/tree/tree.hpp"

namespace loom::fmm::detail {

using C = Complex<double>;

struct TreeData {
  Tree tree;
  core::Array<Cell> cells;
  core::Array<int> leaves, leaf_of_body;
  core::Array<Vec3d> pos;          // tree order
  core::Array<Index> order;        // tree.order(): body i of the tree is order[i] of the caller's
  std::vector<double> px, py, pz;  // tree order, filled only for an engine that asks (the CPU's P2P)
  Index n() const { return tree.size(); }
};

}  // namespace loom::fmm::detail
