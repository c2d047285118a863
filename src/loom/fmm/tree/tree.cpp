// Tree construction: level by level, every cell of a level split in parallel tasks; each split is up to three
// levels of bisection by std::nth_element (linear time, no sort) along the longest side, large halves again in
// parallel tasks, and ranges of more than a million bodies selected with all threads (parallel_select.hpp).
#include "loom/fmm/tree/tree.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "loom/core/error.hpp"
#include "loom/fmm/tree/parallel_select.hpp"

namespace loom::fmm {
namespace {

struct Item {
  Vec3d x;
  Index index;
};

struct Box {
  Vec3d lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  // Grows to hold the box [low, high] (a point: low = high).
  void extend(const Vec3d& low, const Vec3d& high) {
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], low[d]);
      hi[d] = std::max(hi[d], high[d]);
    }
  }
};

Box bounding_box(const Item* items, Index n) {
  Box b;
  for (Index i = 0; i < n; ++i) b.extend(items[i].x, items[i].x);
  return b;
}

// bounding_box of a large range with all threads (taskloop over fixed chunks; min and max do not depend on the
// order).
Box bounding_box_parallel(const Item* items, Index n) {
  constexpr Index chunk = 1 << 16;
  const Index chunks = (n + chunk - 1) / chunk;
  std::vector<Box> boxes(static_cast<std::size_t>(chunks));
#pragma omp taskloop grainsize(1) shared(boxes)
  for (Index c = 0; c < chunks; ++c)
    boxes[static_cast<std::size_t>(c)] = bounding_box(items + c * chunk, std::min(chunk, n - c * chunk));
  Box b;
  for (const Box& p : boxes) b.extend(p.lo, p.hi);
  return b;
}

struct Range {
  Index begin, count;
};

// Bisects r along the longest side of its bounding box; returns the count of the lower part. The split is at
// the median, unless that lies outside the middle half of the side (a clustered distribution): then at the
// nearer quarter point, so that cells also shrink geometrically and stay compact instead of all reaching out
// to the outliers. Either way one nth_element does the split (with all threads for ranges of at least
// parallel_select_threshold bodies, `scratch` being as long as `items`).
Index bisect(Item* items, Range r, Item* scratch) {
  const bool large = r.count >= parallel_select_threshold;
  const Box b = large ? bounding_box_parallel(items + r.begin, r.count) : bounding_box(items + r.begin, r.count);
  int axis = 0;
  for (int d = 1; d < 3; ++d)
    if (b.hi[d] - b.lo[d] > b.hi[axis] - b.lo[axis]) axis = d;
  Item* first = items + r.begin;
  auto less = [axis](const Item& a, const Item& c) { return a.x[axis] < c.x[axis]; };
  auto select = [&](Index k) {
    if (large)
      parallel_nth_element(
          first, r.count, k, [axis](const Item& it) { return it.x[axis]; }, scratch + r.begin);
    else
      std::nth_element(first, first + k, first + r.count, less);
  };
  Index half = r.count / 2;
  select(half);
  const double lo = b.lo[axis], extent = b.hi[axis] - b.lo[axis], median = first[half].x[axis];
  const double bounded = std::clamp(median, lo + 0.25 * extent, lo + 0.75 * extent);
  if (extent > 0 && bounded != median) {
    half = std::count_if(first, first + r.count, [&](const Item& it) { return it.x[axis] < bounded; });
    select(half);
  }
  return half;
}

// Bisects r recursively while it holds more than ncrit bodies, at most three times deep; the parts land in
// slots[slot ..] in left-to-right order. Large ranges split their halves in parallel tasks.
void multisect_into(Item* items, Item* scratch, Range r, int ncrit, int depth, int slot, std::array<Range, 8>& slots,
                    std::array<char, 8>& used) {
  if (depth == 3 || r.count <= ncrit) {
    slots[static_cast<std::size_t>(slot)] = r;
    used[static_cast<std::size_t>(slot)] = 1;
    return;
  }
  const Index half = bisect(items, r, scratch);
  const int width = 1 << (2 - depth);
  const Range lower{r.begin, half}, upper{r.begin + half, r.count - half};
  if (r.count > 100000) {
#pragma omp task shared(slots, used)
    multisect_into(items, scratch, lower, ncrit, depth + 1, slot, slots, used);
#pragma omp task shared(slots, used)
    multisect_into(items, scratch, upper, ncrit, depth + 1, slot + width, slots, used);
#pragma omp taskwait
  } else {
    multisect_into(items, scratch, lower, ncrit, depth + 1, slot, slots, used);
    multisect_into(items, scratch, upper, ncrit, depth + 1, slot + width, slots, used);
  }
}

// Splits a cell's range into 2..8 ranges.
std::vector<Range> multisect(Item* items, Item* scratch, Range whole, int ncrit) {
  std::array<Range, 8> slots{};
  std::array<char, 8> used{};
  multisect_into(items, scratch, whole, ncrit, 0, 0, slots, used);
  std::vector<Range> parts;
  for (std::size_t k = 0; k < 8; ++k)
    if (used[k]) parts.push_back(slots[k]);
  return parts;
}

void set_geometry(Cell& c, const Item* items) {
  const Box b = bounding_box(items + c.begin, c.count);
  c.center = 0.5 * (b.lo + b.hi);
  double r2 = 0;
  for (Index i = c.begin; i < c.begin + c.count; ++i) r2 = std::max(r2, norm2(items[i].x - c.center));
  c.radius = std::sqrt(r2);
}

// set_geometry for one large cell, with all threads (max reductions: the same result for every thread count).
void set_geometry_parallel(Cell& c, const Item* items) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
#pragma omp parallel for schedule(static) reduction(min : lo[:3]) reduction(max : hi[:3])
  for (Index i = c.begin; i < c.begin + c.count; ++i)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], items[i].x[d]);
      hi[d] = std::max(hi[d], items[i].x[d]);
    }
  c.center = {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])};
  double r2 = 0;
  const Vec3d center = c.center;
#pragma omp parallel for schedule(static) reduction(max : r2)
  for (Index i = c.begin; i < c.begin + c.count; ++i) r2 = std::max(r2, norm2(items[i].x - center));
  c.radius = std::sqrt(r2);
}

}  // namespace

Tree::Tree(std::span<const Vec3d> points, int ncrit) : ncrit_(ncrit) {
  LOOM_REQUIRE(ncrit >= 1, "fmm::Tree: ncrit must be at least 1");
  const Index n = static_cast<Index>(points.size());
  std::vector<Item> items(points.size());
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) items[static_cast<std::size_t>(i)] = {points[static_cast<std::size_t>(i)], i};

  // Scratch for the parallel selections of the large ranges near the root.
  std::vector<Item> scratch(n >= parallel_select_threshold ? points.size() : 0);

  Cell root;
  root.begin = 0;
  root.count = n;
  if (n > 0) set_geometry_parallel(root, items.data());
  cells_.push_back(root);
  level_offsets_ = {0, 1};

  for (int level = 0;; ++level) {
    const int first = level_offsets_[static_cast<std::size_t>(level)];
    const int last = level_offsets_[static_cast<std::size_t>(level) + 1];
    std::vector<std::vector<Range>> parts(static_cast<std::size_t>(last - first));
    // Few large cells near the root, many small ones below: tasks balance both.
#pragma omp parallel
#pragma omp single
    for (int c = first; c < last; ++c) {
      const Cell& cell = cells_[static_cast<std::size_t>(c)];
      if (cell.count <= ncrit) continue;
#pragma omp task firstprivate(c) shared(parts, items, scratch)
      parts[static_cast<std::size_t>(c - first)] =
          multisect(items.data(), scratch.data(),
                    {cells_[static_cast<std::size_t>(c)].begin, cells_[static_cast<std::size_t>(c)].count}, ncrit);
    }
    int added = 0;
    for (int c = first; c < last; ++c) {
      auto& ranges = parts[static_cast<std::size_t>(c - first)];
      if (ranges.empty()) continue;
      Cell& parent = cells_[static_cast<std::size_t>(c)];
      parent.child_begin = static_cast<int>(cells_.size());
      parent.child_count = static_cast<int>(ranges.size());
      for (const Range& r : ranges) {
        Cell child;
        child.begin = r.begin;
        child.count = r.count;
        child.parent = c;
        child.level = level + 1;
        cells_.push_back(child);
        ++added;
      }
    }
    if (added == 0) break;
    const int new_first = last, new_last = static_cast<int>(cells_.size());
#pragma omp parallel for schedule(dynamic, 4)
    for (int c = new_first; c < new_last; ++c) set_geometry(cells_[static_cast<std::size_t>(c)], items.data());
    level_offsets_.push_back(new_last);
  }

  n_ = static_cast<Index>(points.size());
  order_.resize(points.size());
  positions_.resize(points.size());
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) {
    order_[static_cast<std::size_t>(i)] = items[static_cast<std::size_t>(i)].index;
    positions_[static_cast<std::size_t>(i)] = items[static_cast<std::size_t>(i)].x;
  }
  find_leaves();
}

Tree Tree::from_cells(std::vector<Cell> cells, std::vector<int> level_offsets, std::vector<Index> order,
                      std::vector<Vec3d> positions, int ncrit) {
  Tree t;
  t.cells_ = std::move(cells);
  t.level_offsets_ = std::move(level_offsets);
  t.order_ = std::move(order);
  t.positions_ = std::move(positions);
  t.n_ = static_cast<Index>(t.order_.size());
  t.ncrit_ = ncrit;
  t.find_leaves();
  return t;
}

Tree Tree::cells_only(std::vector<Cell> cells, std::vector<int> level_offsets, Index n, int ncrit) {
  Tree t;
  t.cells_ = std::move(cells);
  t.level_offsets_ = std::move(level_offsets);
  t.n_ = n;
  t.ncrit_ = ncrit;
  t.find_leaves();
  return t;
}

void Tree::find_leaves() {
  leaves_.clear();
  leaf_of_body_.assign(order_.size(), -1);
  for (int c = 0; c < static_cast<int>(cells_.size()); ++c)
    if (cells_[static_cast<std::size_t>(c)].leaf()) leaves_.push_back(c);
  if (!has_bodies()) return;  // cells_only
  const auto leaf_count = static_cast<std::int64_t>(leaves_.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < leaf_count; ++k) {
    const int c = leaves_[static_cast<std::size_t>(k)];
    const Cell& cell = cells_[static_cast<std::size_t>(c)];
    for (Index i = cell.begin; i < cell.begin + cell.count; ++i) leaf_of_body_[static_cast<std::size_t>(i)] = c;
  }
}

}  // namespace loom::fmm
