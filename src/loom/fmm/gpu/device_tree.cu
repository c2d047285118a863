// The level-by-level multisection build of device_tree.hpp: thrust algorithms on the backend's execution policy
// (thrust_policy.hpp's device policy or thrust::host) and core::parallel_for loops, one code for both; the
// rounds' sorts by CUB's radix sort over the key's used bits on the device, thrust's stable sort on the host.
#include "loom/fmm/gpu/device_tree.hpp"

#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "loom/core/cuda_api.hpp"
#include "loom/core/cuda_check.cuh"
#include "loom/core/device_pool.hpp"
#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/fmm/gpu/cell_split.hpp"
#include "loom/fmm/gpu/radix_sort.hpp"
#include "loom/fmm/gpu/segments.hpp"
#include "loom/fmm/gpu/thrust_policy.hpp"

namespace loom::fmm::gpu {

Index exclusive_scan_on(core::Backend b, core::Array<Index>& a, Index count) {
  Index* p = a.read_write(side(b));
  core::parallel_for(b, 1, [=] LOOM_HOST_DEVICE(Index) { p[count] = 0; });
  Index total = 0;
  if (b == core::Backend::cpu) {
    thrust::exclusive_scan(thrust::host, p, p + count + 1, p);
    total = p[count];
  } else {
    thrust::exclusive_scan(device_policy(), p, p + count + 1, p);
    cuda::copy_device_to_host(&total, p + count, sizeof(Index));
  }
  return total;
}

namespace {

using core::Array;
using core::Backend;

// A part of a cell being split: bodies [begin, begin + count) of cell `cell` (its index within the level).
struct Part {
  Index begin, count;
  int cell;
};

constexpr int coordinate_bits = sort_coordinate_bits;  // of the sort key; the part's run id takes the other 24

template <class Iterator>
using ValueOf = std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<Iterator>())>>;

// A struct with public members: nvcc's extended lambdas may not sit in private member functions.
template <class Policy>
struct Builder {
  Builder(Policy policy, Backend b, Index n, int ncrit, int root_rounds = 3)
      : policy_(policy), b_(b), w_(side(b)), n_(n), ncrit_(ncrit), root_rounds_(root_rounds) {}

  // Splits the level's cells of more than ncrit bodies; returns their children (cells of the next level, with
  // geometry) and sets the parents' child_begin (counted from `next_first`) and child_count.
  // On the device, a level whose cells all fit a block is split one block per cell (cell_split.hpp), except a
  // root cut in fewer rounds (the blocks cut three).
  Array<Cell> split_level(Array<Cell>& level, int next_first, int level_index, Array<Vec3d>& pos, Array<Index>& order) {
    const int rounds = level_index == 0 ? root_rounds_ : 3;
    if (b_ == Backend::cuda && rounds == 3) {
      const Index largest = largest_cell(level);
      if (largest <= block_split_capacity) return split_in_blocks(level, next_first, level_index, pos, order, largest);
    }
    Array<Part> parts = parts_of_large_cells(level);
    for (int round = 0; round < rounds && !parts.empty(); ++round) {
      if (!bisect_round(parts, pos, order)) break;
    }
    return children(level, parts, next_first, level_index, pos);
  }

  Index largest_cell(const Array<Cell>& level) const {
    const Cell* c = level.read(w_);
    return static_cast<Index>(core::parallel_max(b_, static_cast<Index>(level.size()),
                                                 [=] LOOM_HOST_DEVICE(Index k) { return double(c[k].count); }));
  }

  // The level's cells split one block each; their children listed, and the parents linked, as children() does.
  Array<Cell> split_in_blocks(Array<Cell>& level, int next_first, int level_index, Array<Vec3d>& pos,
                              Array<Index>& order, Index largest) {
    const Index count = static_cast<Index>(level.size());
    Array<Cell> kids8(static_cast<std::size_t>(8 * count));
    Array<Index> slot(level.size() + 1);
    split_cells_in_blocks(level.read(w_), count, largest, ncrit_, pos.read_write(w_), order.read_write(w_),
                          kids8.write(w_), slot.write(w_));
    const Index total = exclusive_scan(slot, count);
    Array<Cell> kids(static_cast<std::size_t>(total));
    if (total == 0) return kids;
    const Cell* k8 = kids8.read(w_);
    const Index* at = slot.read(w_);
    Cell* parent = level.read_write(w_);
    Cell* c = kids.write(w_);
    const int first_of_level = next_first - static_cast<int>(level.size());
    core::parallel_for(b_, count, [=] LOOM_HOST_DEVICE(Index k) {
      const int children = static_cast<int>(at[k + 1] - at[k]);
      if (children == 0) return;
      parent[k].child_begin = next_first + static_cast<int>(at[k]);
      parent[k].child_count = children;
      for (int j = 0; j < children; ++j) {
        Cell child = k8[8 * k + j];
        child.parent = first_of_level + static_cast<int>(k);
        child.level = level_index + 1;
        c[at[k] + j] = child;
      }
    });
    return kids;
  }

  // Centre (of the bounding box) and radius (largest distance from it) of cells [0, count) whose bodies are
  // their ranges of pos.
  void set_geometry(Array<Cell>& cells, const Array<Vec3d>& pos) {
    const Index count = static_cast<Index>(cells.size());
    if (count == 0) return;
    const Array<std::int64_t> run = runs_of(ranges_of(cells));
    const Array<Box> boxes = part_boxes(count, run, pos);
    const Box* box = boxes.read(w_);
    Cell* c = cells.read_write(w_);
    core::parallel_for(b_, count, [=] LOOM_HOST_DEVICE(Index k) { c[k].center = box[k].center(); });
    const Array<double> r2 = part_max_distance2(count, run, pos, cells);
    const double* r = r2.read(w_);
    core::parallel_for(b_, count, [=] LOOM_HOST_DEVICE(Index k) { c[k].radius = sqrt(r[k]); });
  }

  Array<Range> ranges_of(const Array<Cell>& cells) const {
    Array<Range> r(cells.size());
    const Cell* c = cells.read(w_);
    Range* out = r.write(w_);
    core::parallel_for(b_, static_cast<Index>(cells.size()),
                       [=] LOOM_HOST_DEVICE(Index k) { out[k] = {c[k].begin, c[k].count}; });
    return r;
  }

  // The per-body run ids of `ranges` (sorted, disjoint): 2k + 1 inside range k, even between ranges.
  Array<std::int64_t> runs_of(const Array<Range>& ranges) const {
    Array<std::int64_t> run(static_cast<std::size_t>(n_));
    const Range* r = ranges.read(w_);
    const Index count = static_cast<Index>(ranges.size());
    std::int64_t* out = run.write(w_);
    core::parallel_for(b_, n_, [=] LOOM_HOST_DEVICE(Index i) { out[i] = run_of(r, count, i); });
    return run;
  }

  // The bounding boxes of `ranges` ranges, given the bodies' run ids among them (runs_of).
  Array<Box> part_boxes(Index ranges, const Array<std::int64_t>& run, const Array<Vec3d>& pos) const {
    Array<Box> boxes(static_cast<std::size_t>(ranges));
    const auto values = thrust::make_transform_iterator(thrust::counting_iterator<Index>(0), BoxOf{pos.read(w_)});
    reduce_runs(run, values, MergeBoxes{}, ranges, boxes.write(w_));
    return boxes;
  }

  Array<double> part_max_distance2(Index ranges, const Array<std::int64_t>& run, const Array<Vec3d>& pos,
                                   const Array<Cell>& cells) const {
    Array<double> d(static_cast<std::size_t>(ranges));
    const auto values = thrust::make_transform_iterator(
        thrust::counting_iterator<Index>(0), Distance2{pos.read(w_), run.read(w_), cells.read(w_)});
    reduce_runs(run, values, thrust::maximum<double>(), ranges, d.write(w_));
    return d;
  }

  // The per-body values reduced over each run of equal run ids, the odd runs' (the ranges') results to their
  // range's slot of `out`. On the device by CUB's reduce-by-key, whose count of runs stays on the device (the
  // scatter reads it there): no read-back, so no wait for the queue to drain.
  template <class Values, class Op>
  void reduce_runs(const Array<std::int64_t>& run, Values values, Op op, Index ranges, ValueOf<Values>* out) const {
    using T = ValueOf<Values>;
    const Index slots = 2 * ranges + 1;  // the most runs there are: the ranges and the gaps around them
    Array<std::int64_t> run_out(static_cast<std::size_t>(slots));
    Array<T> value_out(static_cast<std::size_t>(slots));
    Array<Index> found(1);
    if (b_ == Backend::cpu) {
      const auto end = thrust::reduce_by_key(thrust::host, run.read(w_), run.read(w_) + n_, values, run_out.write(w_),
                                             value_out.write(w_), thrust::equal_to<std::int64_t>(), op);
      *found.write(w_) = static_cast<Index>(end.first - run_out.read(w_));
    } else {
      std::size_t bytes = 0;
      LOOM_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(nullptr, bytes, run.read(w_), run_out.write(w_), values,
                                                     value_out.write(w_), found.write(w_), op, n_));
      void* temp = core::device_pool().allocate(bytes);
      LOOM_CUDA_CHECK(cub::DeviceReduce::ReduceByKey(temp, bytes, run.read(w_), run_out.write(w_), values,
                                                     value_out.write(w_), found.write(w_), op, n_));
      core::device_pool().deallocate(temp);  // reused only by work queued after it on the same stream
    }
    const std::int64_t* runs = run_out.read(w_);
    const T* v = value_out.read(w_);
    const Index* count = found.read(w_);
    core::parallel_for(b_, slots, [=] LOOM_HOST_DEVICE(Index k) {
      if (k < *count && runs[k] % 2 == 1) out[(runs[k] - 1) / 2] = v[k];
    });
  }

  Array<Part> parts_of_large_cells(const Array<Cell>& level) const {
    const Index count = static_cast<Index>(level.size());
    const int ncrit = ncrit_;
    const Cell* c = level.read(w_);
    Array<Index> slot(level.size() + 1);
    Index* s = slot.write(w_);
    core::parallel_for(b_, count, [=] LOOM_HOST_DEVICE(Index k) { s[k] = c[k].count > ncrit ? 1 : 0; });
    const Index total = exclusive_scan(slot, count);
    Array<Part> parts(static_cast<std::size_t>(total));
    Part* p = parts.write(w_);
    const Index* at = slot.read(w_);
    core::parallel_for(b_, count, [=] LOOM_HOST_DEVICE(Index k) {
      if (c[k].count > ncrit) p[at[k]] = {c[k].begin, c[k].count, static_cast<int>(k)};
    });
    return parts;
  }

  Index exclusive_scan(Array<Index>& a, Index count) const { return exclusive_scan_on(b_, a, count); }

  // One round: every part of more than ncrit bodies bisected (median of its longest side, clamped to the middle
  // half). False when no part was large enough.
  bool bisect_round(Array<Part>& parts, Array<Vec3d>& pos, Array<Index>& order) {
    const Index count = static_cast<Index>(parts.size());
    const int ncrit = ncrit_;
    Array<Index> slot(parts.size() + 1);
    {
      const Part* p = parts.read(w_);
      Index* s = slot.write(w_);
      core::parallel_for(b_, count, [=] LOOM_HOST_DEVICE(Index k) { s[k] = p[k].count > ncrit ? 1 : 0; });
    }
    const Index splitting = exclusive_scan(slot, count);
    if (splitting == 0) return false;
    Array<Range> ranges(static_cast<std::size_t>(splitting));
    {
      const Part* p = parts.read(w_);
      const Index* at = slot.read(w_);
      Range* r = ranges.write(w_);
      core::parallel_for(b_, count, [=] LOOM_HOST_DEVICE(Index k) {
        if (p[k].count > ncrit) r[at[k]] = {p[k].begin, p[k].count};
      });
    }
    const Array<std::int64_t> run = runs_of(ranges);
    const Array<Box> boxes = part_boxes(splitting, run, pos);
    sort_along_axes(ranges, run, boxes, pos, order);
    parts = halves(parts, slot, ranges, boxes, pos, splitting);
    return true;
  }

  // Sorts the bodies of each range along the longest side of its box; the bodies outside the ranges stay.
  // `run`: the bodies' run ids among the ranges (runs_of).
  void sort_along_axes(const Array<Range>& ranges, const Array<std::int64_t>& run, const Array<Box>& boxes,
                       Array<Vec3d>& pos, Array<Index>& order) {
    LOOM_REQUIRE(2 * static_cast<std::int64_t>(ranges.size()) + 1 < (std::int64_t(1) << (64 - coordinate_bits)),
                 "fmm::gpu::build_tree: too many parts for the sort key");
    Array<std::uint64_t> key(static_cast<std::size_t>(n_));
    Array<std::uint32_t> perm(static_cast<std::size_t>(n_));  // 32 bits: build() refuses n >= 2^32
    {
      const std::int64_t* r = run.read(w_);
      const Box* box = boxes.read(w_);
      const Vec3d* x = pos.read(w_);
      std::uint64_t* k = key.write(w_);
      std::uint32_t* p = perm.write(w_);
      core::parallel_for(b_, n_, [=] LOOM_HOST_DEVICE(Index i) {
        k[i] = sort_key(r[i], box, x[i], coordinate_bits);
        p[i] = static_cast<std::uint32_t>(i);
      });
    }
    // the run ids are below 2 * ranges + 1: the key's bits above them are zero and need no radix pass
    const int bits = coordinate_bits + std::bit_width(2 * static_cast<std::uint64_t>(ranges.size()) + 1);
    stable_sort_pairs(b_, key, perm, n_, bits);
    const std::uint32_t* p = perm.read(w_);
    Array<Vec3d> pos2(static_cast<std::size_t>(n_));
    Array<Index> order2(static_cast<std::size_t>(n_));
    const Vec3d* x = pos.read(w_);
    const Index* o = order.read(w_);
    Vec3d* x2 = pos2.write(w_);
    Index* o2 = order2.write(w_);
    core::parallel_for(b_, n_, [=] LOOM_HOST_DEVICE(Index i) {
      x2[i] = x[p[i]];
      o2[i] = o[p[i]];
    });
    pos = std::move(pos2);
    order = std::move(order2);
  }

  // Each part that was split becomes its two halves, in order: the lower one of the count of tree.cpp's bisect on
  // the sorted range. `split_slot`: the exclusive scan of the splitting parts (a part's place among the ranges),
  // so part k's first place is k + split_slot[k]; `splitting` of them were split.
  Array<Part> halves(const Array<Part>& parts, const Array<Index>& split_slot, const Array<Range>& ranges,
                     const Array<Box>& boxes, const Array<Vec3d>& pos, Index splitting) const {
    const Index count = static_cast<Index>(parts.size());
    const int ncrit = ncrit_;
    Array<Part> out(static_cast<std::size_t>(count + splitting));
    Part* o = out.write(w_);
    const Part* p = parts.read(w_);
    const Index* ss = split_slot.read(w_);
    const Range* r = ranges.read(w_);
    const Box* box = boxes.read(w_);
    const Vec3d* x = pos.read(w_);
    core::parallel_for(b_, count, [=] LOOM_HOST_DEVICE(Index k) {
      const Part q = p[k];
      const Index at = k + ss[k];
      if (q.count > ncrit) {
        const Index h = lower_count(r[ss[k]], box[ss[k]], x);
        o[at] = {q.begin, h, q.cell};
        o[at + 1] = {q.begin + h, q.count - h, q.cell};
      } else {
        o[at] = q;
      }
    });
    return out;
  }

  Array<Cell> children(Array<Cell>& level, const Array<Part>& parts, int next_first, int level_index,
                       const Array<Vec3d>& pos) {
    const Index count = static_cast<Index>(parts.size());
    Array<Cell> kids(parts.size());
    if (count == 0) return kids;
    const Part* p = parts.read(w_);
    Cell* parent = level.read_write(w_);
    Cell* c = kids.write(w_);
    const int first_of_level = next_first - static_cast<int>(level.size());
    core::parallel_for(b_, count, [=] LOOM_HOST_DEVICE(Index k) {
      Cell child;
      child.begin = p[k].begin;
      child.count = p[k].count;
      child.parent = first_of_level + p[k].cell;
      child.level = level_index + 1;
      c[k] = child;
      if (k == 0 || p[k - 1].cell != p[k].cell) parent[p[k].cell].child_begin = next_first + static_cast<int>(k);
      if (k == count - 1 || p[k + 1].cell != p[k].cell) {
        Index first = k;
        while (first > 0 && p[first - 1].cell == p[k].cell) --first;  // at most 7 steps back
        parent[p[k].cell].child_count = static_cast<int>(k - first + 1);
      }
    });
    set_geometry(kids, pos);
    return kids;
  }

  Policy policy_;
  Backend b_;
  core::Where w_;
  Index n_;
  int ncrit_;
  int root_rounds_;
};


// The leaves (cells without children, in cell order) and the leaf of each body.
void find_leaves(Backend b, BackendTree& t) {
  const core::Where w = side(b);
  const int count = t.cell_count();
  Array<Index> slot(static_cast<std::size_t>(count) + 1);
  const Cell* c = t.cells.read(w);
  Index* s = slot.write(w);
  core::parallel_for(b, count, [=] LOOM_HOST_DEVICE(Index k) { s[k] = c[k].leaf() ? 1 : 0; });
  const Index total = exclusive_scan_on(b, slot, count);
  t.leaves = Array<int>(static_cast<std::size_t>(total));
  t.leaf_of_body = Array<int>(static_cast<std::size_t>(t.n));
  int* leaves = t.leaves.write(w);
  int* leaf_of = t.leaf_of_body.write(w);
  const Index* at = slot.read(w);
  core::parallel_for(b, count, [=] LOOM_HOST_DEVICE(Index k) {
    if (!c[k].leaf()) return;
    leaves[at[k]] = static_cast<int>(k);
    for (Index i = c[k].begin; i < c[k].begin + c[k].count; ++i) leaf_of[i] = static_cast<int>(k);
  });
}

// The levels' cells in one array, level by level.
Array<Cell> concatenate(Backend b, std::vector<Array<Cell>>& levels, std::vector<int>& offsets) {
  offsets.assign(1, 0);
  for (const auto& l : levels) offsets.push_back(offsets.back() + static_cast<int>(l.size()));
  Array<Cell> all(static_cast<std::size_t>(offsets.back()));
  const core::Where w = side(b);
  Cell* out = all.write(w);
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const Cell* in = levels[l].read(w);
    const Index first = offsets[l];
    core::parallel_for(b, static_cast<Index>(levels[l].size()),
                       [=] LOOM_HOST_DEVICE(Index k) { out[first + k] = in[k]; });
  }
  return all;
}

template <class Policy>
BackendTree build(Policy policy, Backend b, const Vec3d* positions, Index n, int ncrit, int root_rounds) {
  LOOM_REQUIRE(ncrit >= 1, "fmm::gpu::build_tree: ncrit must be at least 1");
  LOOM_REQUIRE(root_rounds >= 1 && root_rounds <= 3, "fmm::gpu::build_tree: root_rounds must be 1, 2 or 3");
  LOOM_REQUIRE(n < (Index(1) << 32), "fmm::gpu::build_tree: at most 2^32 - 1 bodies (32-bit sort values)");
  const core::Where w = side(b);
  BackendTree t;
  t.backend = b;
  t.ncrit = ncrit;
  t.n = n;
  t.pos = Array<Vec3d>(static_cast<std::size_t>(n));
  t.order = Array<Index>(static_cast<std::size_t>(n));
  {
    Vec3d* x = t.pos.write(w);
    Index* o = t.order.write(w);
    core::parallel_for(b, n, [=] LOOM_HOST_DEVICE(Index i) {
      x[i] = positions[i];
      o[i] = i;
    });
  }
  Builder<Policy> builder(policy, b, n, ncrit, root_rounds);
  std::vector<Array<Cell>> levels;
  levels.emplace_back(1);
  {
    Cell* root = levels[0].write(w);
    core::parallel_for(b, 1, [=] LOOM_HOST_DEVICE(Index) {
      Cell c;
      c.count = n;
      *root = c;
    });
  }
  if (n > 0) builder.set_geometry(levels[0], t.pos);
  int next_first = 1;
  for (int level = 0;; ++level) {
    Array<Cell> kids = builder.split_level(levels.back(), next_first, level, t.pos, t.order);
    if (kids.empty()) break;
    next_first += static_cast<int>(kids.size());
    levels.push_back(std::move(kids));
  }
  t.cells = concatenate(b, levels, t.level_offsets);
  find_leaves(b, t);
  return t;
}

template <class Policy>
double refit_cells(Policy policy, BackendTree& t, const Vec3d* positions, double period) {
  const Backend b = t.backend;
  const core::Where w = side(b);
  {
    const Index* o = t.order.read(w);
    const Cell* cells = t.cells.read(w);
    const int* leaf = t.leaf_of_body.read(w);
    Vec3d* x = t.pos.write(w);
    core::parallel_for(b, t.n, [=] LOOM_HOST_DEVICE(Index i) {
      Vec3d v = positions[o[i]];
      if (period > 0) {
        const Vec3d c = cells[leaf[i]].center;
        for (int d = 0; d < 3; ++d) v[d] -= period * round((v[d] - c[d]) / period);
      }
      x[i] = v;
    });
  }
  Array<double> growth(static_cast<std::size_t>(t.cell_count()));
  Builder<Policy> builder(policy, b, t.n, t.ncrit);
  Cell* all = t.cells.read_write(w);
  double* g = growth.write(w);
  for (int L = 0; L < t.levels(); ++L) {  // a level's cells are disjoint ranges, as set_geometry wants
    const int first = t.level_offsets[static_cast<std::size_t>(L)];
    const Index count = t.level_offsets[static_cast<std::size_t>(L) + 1] - first;
    Array<Cell> level(static_cast<std::size_t>(count));
    Cell* c = level.write(w);
    core::parallel_for(b, count, [=] LOOM_HOST_DEVICE(Index k) { c[k] = all[first + k]; });
    if (t.n > 0) builder.set_geometry(level, t.pos);
    const Cell* fitted = level.read(w);
    core::parallel_for(b, count, [=] LOOM_HOST_DEVICE(Index k) {
      const double before = all[first + k].radius, after = fitted[k].radius;
      g[first + k] = before > 0 ? after / before : (after > 0 ? HUGE_VAL : 1.0);
      all[first + k] = fitted[k];
    });
  }
  if (t.cell_count() == 0) return 1.0;
  const double* gg = growth.read(w);
  return core::parallel_max(b, t.cell_count(), [=] LOOM_HOST_DEVICE(Index k) { return gg[k]; });
}

}  // namespace

double refit(BackendTree& tree, const Vec3d* positions, double period) {
  if (tree.backend == Backend::cpu) return refit_cells(thrust::host, tree, positions, period);
  return refit_cells(device_policy(), tree, positions, period);
}

BackendTree build_tree(Backend backend, const Vec3d* positions, Index n, int ncrit, int root_rounds) {
  if (backend == Backend::cpu) return build(thrust::host, backend, positions, n, ncrit, root_rounds);
  return build(device_policy(), backend, positions, n, ncrit, root_rounds);
}

Tree to_host_tree(const BackendTree& t) {
  const auto cells = t.cells.host();
  const auto order = t.order.host();
  const auto pos = t.pos.host();
  return Tree::from_cells({cells.begin(), cells.end()}, t.level_offsets, {order.begin(), order.end()},
                          {pos.begin(), pos.end()}, t.ncrit);
}

}  // namespace loom::fmm::gpu
