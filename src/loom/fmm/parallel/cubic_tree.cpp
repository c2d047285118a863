#include "loom/fmm/parallel/cubic_tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace loom::fmm::parallel {

Cuts cubic_cuts(Vec3d extent) {
  Cuts cuts;
  const double shortest = std::min({extent.x, extent.y, extent.z});
  if (!(shortest > 0)) return cuts;  // flat or empty: the plain tree
  for (int d = 0; d < 3; ++d) cuts.axis[d] = static_cast<int>(std::lround(std::log2(extent[d] / shortest)));
  while (cuts.total() > 3) {  // the longest side's cuts go last
    int* most = std::max_element(cuts.axis, cuts.axis + 3);
    --*most;
  }
  return cuts;
}

namespace {

struct Piece {
  std::size_t begin, end;  // into the index array
};

// The pieces as ranges of `index`, each cut at its median along the axes `cuts` asks for.
std::vector<Piece> cut(std::span<const Vec3d> x, const Cuts& cuts, std::vector<Index>& index) {
  std::vector<Piece> pieces{{0, index.size()}};
  for (int d = 0; d < 3; ++d)
    for (int k = 0; k < cuts.axis[d]; ++k) {
      std::vector<Piece> halves;
      for (const Piece& p : pieces) {
        const std::size_t mid = p.begin + (p.end - p.begin) / 2;
        std::nth_element(index.begin() + static_cast<std::ptrdiff_t>(p.begin),
                         index.begin() + static_cast<std::ptrdiff_t>(mid),
                         index.begin() + static_cast<std::ptrdiff_t>(p.end), [&](Index a, Index b) {
                           return x[static_cast<std::size_t>(a)][d] < x[static_cast<std::size_t>(b)][d];
                         });
        halves.push_back({p.begin, mid});
        halves.push_back({mid, p.end});
      }
      pieces = std::move(halves);
    }
  return pieces;
}

// The bounding box of x (not empty).
void bounds(std::span<const Vec3d> x, Vec3d& lo, Vec3d& hi) {
  lo = hi = x[0];
  for (const Vec3d& v : x)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], v[d]);
      hi[d] = std::max(hi[d], v[d]);
    }
}

// The root as the tree makes it: the centre of the bounding box, the largest distance to a body.
Cell root_cell(std::span<const Vec3d> x) {
  Vec3d lo, hi;
  bounds(x, lo, hi);
  Cell root;
  root.center = 0.5 * (lo + hi);
  double r2 = 0;
  for (const Vec3d& v : x) r2 = std::max(r2, norm2(v - root.center));
  root.radius = std::sqrt(r2);
  root.count = static_cast<Index>(x.size());
  return root;
}

// The pieces' trees below one root: level l + 1 of the whole is level l of every piece, in piece order.
Tree merge(std::span<const Vec3d> x, const std::vector<Tree>& trees, const std::vector<std::vector<Index>>& ids,
           int ncrit) {
  int levels = 0;
  for (const Tree& t : trees) levels = std::max(levels, t.levels());
  auto width = [](const Tree& t, int l) { return l < t.levels() ? t.level_begin(l + 1) - t.level_begin(l) : 0; };
  // first[s][l]: where piece s's level l starts in the whole
  std::vector<std::vector<int>> first(trees.size(), std::vector<int>(static_cast<std::size_t>(levels), 0));
  std::vector<int> offsets{0, 1};
  for (int l = 0; l < levels; ++l) {
    int at = offsets.back();
    for (std::size_t s = 0; s < trees.size(); ++s) {
      first[s][static_cast<std::size_t>(l)] = at;
      at += width(trees[s], l);
    }
    offsets.push_back(at);
  }
  std::vector<Cell> cells(static_cast<std::size_t>(offsets.back()));
  cells[0] = root_cell(x);
  cells[0].child_begin = 1;
  cells[0].child_count = static_cast<int>(trees.size());
  std::vector<Index> order;
  std::vector<Vec3d> positions;
  for (std::size_t s = 0; s < trees.size(); ++s) {
    const Tree& t = trees[s];
    const auto body0 = static_cast<Index>(order.size());
    auto moved = [&](int c) {  // a cell's index in the whole
      const int l = t.cells()[static_cast<std::size_t>(c)].level;
      return first[s][static_cast<std::size_t>(l)] + c - t.level_begin(l);
    };
    for (int c = 0; c < static_cast<int>(t.cells().size()); ++c) {
      Cell cell = t.cells()[static_cast<std::size_t>(c)];
      cell.begin += body0;
      if (cell.child_count > 0) cell.child_begin = moved(cell.child_begin);
      cell.parent = cell.parent < 0 ? 0 : moved(cell.parent);
      cells[static_cast<std::size_t>(moved(c))] = cell;
      cells[static_cast<std::size_t>(moved(c))].level = cell.level + 1;
    }
    for (Index i = 0; i < t.size(); ++i) order.push_back(ids[s][static_cast<std::size_t>(t.order()[static_cast<std::size_t>(i)])]);
    positions.insert(positions.end(), t.positions().begin(), t.positions().end());
  }
  return Tree::from_cells(std::move(cells), std::move(offsets), std::move(order), std::move(positions), ncrit);
}

}  // namespace

int cubic_root_rounds(std::span<const Vec3d> x) {
  if (x.empty()) return 3;
  double lo[3] = {x[0].x, x[0].y, x[0].z}, hi[3] = {x[0].x, x[0].y, x[0].z};
  const auto n = static_cast<std::int64_t>(x.size());
#pragma omp parallel for schedule(static) reduction(min : lo[:3]) reduction(max : hi[:3])
  for (std::int64_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], x[static_cast<std::size_t>(i)][d]);
      hi[d] = std::max(hi[d], x[static_cast<std::size_t>(i)][d]);
    }
  const int cuts = cubic_cuts({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}).total();
  return cuts == 0 ? 3 : cuts;
}

Tree cubic_tree(std::span<const Vec3d> x, int ncrit) {
  if (static_cast<Index>(x.size()) <= ncrit) return Tree(x, ncrit);
  Vec3d lo, hi;
  bounds(x, lo, hi);
  const Cuts cuts = cubic_cuts(hi - lo);
  if (cuts.total() == 0) return Tree(x, ncrit);
  std::vector<Index> index(x.size());
  std::iota(index.begin(), index.end(), Index(0));
  std::vector<Tree> trees;
  std::vector<std::vector<Index>> ids;
  for (const Piece& p : cut(x, cuts, index)) {
    ids.emplace_back(index.begin() + static_cast<std::ptrdiff_t>(p.begin), index.begin() + static_cast<std::ptrdiff_t>(p.end));
    std::vector<Vec3d> px;
    for (Index i : ids.back()) px.push_back(x[static_cast<std::size_t>(i)]);
    trees.emplace_back(px, ncrit);
  }
  return merge(x, trees, ids, ncrit);
}

}  // namespace loom::fmm::parallel
