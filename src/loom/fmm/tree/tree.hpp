// The FMM's adaptive tree, built by recursive multisection with nth_element (the paper's section on
// partitioning): a cell holding more than ncrit bodies is bisected at its median along the longest side of
// its bodies' bounding box (bounded to the middle half of that side, so clustered bodies still get compact
// cells), up to three times in a row, giving 2 to 8 children of rectangular shape. No global (Morton) index exists, so
// a tree over one rank's bodies is a valid local tree.
#pragma once

#include <span>
#include <vector>

#include "loom/core/host_device.hpp"
#include "loom/fmm/real.hpp"

namespace loom::fmm {

struct Cell {
  Vec3d center;       // centre of the bodies' bounding box; expansions are taken about it
  double radius = 0;  // largest distance from the centre to a body of the cell (the MAC's R)
  Index begin = 0;    // bodies [begin, begin + count) in tree order
  Index count = 0;
  int child_begin = 0;  // children are contiguous cells; none for a leaf
  int child_count = 0;
  int parent = -1;
  int level = 0;
  LOOM_HOST_DEVICE bool leaf() const { return child_count == 0; }
};

class Tree {
 public:
  Tree() = default;
  // Builds the tree over `points`; leaves hold at most ncrit bodies (more than ncrit/2 where median splits).
  Tree(std::span<const Vec3d> points, int ncrit);
  // A tree whose cells were built elsewhere (gpu/device_tree.hpp builds the same multisection on the device), in
  // the layout described below; the leaves and the leaf of each body are derived here.
  static Tree from_cells(std::vector<Cell> cells, std::vector<int> level_offsets, std::vector<Index> order,
                         std::vector<Vec3d> positions, int ncrit);
  // The cells alone of a tree over n bodies whose order and positions live elsewhere (on the device: fmm::Evaluator
  // with its host form reduced to the cells); order(), positions() and leaf_of_body() are empty, has_bodies() false.
  static Tree cells_only(std::vector<Cell> cells, std::vector<int> level_offsets, Index n, int ncrit);

  // Cells level by level (breadth first): level l is cells [level_begin(l), level_begin(l + 1)); cell 0 is
  // the root.
  const std::vector<Cell>& cells() const { return cells_; }
  int levels() const { return static_cast<int>(level_offsets_.size()) - 1; }
  int level_begin(int level) const { return level_offsets_[static_cast<std::size_t>(level)]; }
  // Input index of the body at tree position i; positions in tree order.
  const std::vector<Index>& order() const { return order_; }
  const std::vector<Vec3d>& positions() const { return positions_; }
  // Leaf cells, in cell order, and the leaf holding each body (by tree position).
  const std::vector<int>& leaves() const { return leaves_; }
  const std::vector<int>& leaf_of_body() const { return leaf_of_body_; }
  Index size() const { return n_; }
  bool has_bodies() const { return static_cast<Index>(order_.size()) == n_; }
  int ncrit() const { return ncrit_; }

 private:
  void find_leaves();
  std::vector<Cell> cells_;
  std::vector<int> level_offsets_;
  std::vector<Index> order_;
  std::vector<Vec3d> positions_;
  std::vector<int> leaves_;
  std::vector<int> leaf_of_body_;
  Index n_ = 0;
  int ncrit_ = 0;
};

}  // namespace loom::fmm
