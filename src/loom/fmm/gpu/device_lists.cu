// device_lists.hpp's traversal, level by level: count, scan, write; then the levels' pairs into lists grouped by
// target cell. thrust scans (exclusive_scan_on) and core::parallel_for loops, one code for both backends.
#include "loom/fmm/gpu/device_lists.hpp"

#include <vector>

#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/fmm/gpu/target_walk.hpp"

namespace loom::fmm::gpu {
namespace {

using core::Array;
using core::Backend;

// One level's pairs: per cell of the level, its M2L and P2P sources and the sources handed down to its children.
struct LevelPairs {
  Array<Index> m2l_at, p2p_at, down_at;  // level-local exclusive offsets, count + 1
  Array<Source> m2l, p2p, down;
  Index m2l_total = 0, p2p_total = 0, down_total = 0;
};

// A level's walks: the inputs of cell first + k are its parent's handed-down sources (the root's: `root`).
struct LevelWalk {
  WalkRules rules;
  int first = 0;
  const Source* parent_down = nullptr;  // the previous level's
  const Index* parent_down_at = nullptr;
  int parent_first = 0;
  const Source* root = nullptr;  // the root level's inputs
  Index root_count = 0;
  bool root_level = true;
};

LOOM_HOST_DEVICE inline bool walk_level_cell(const LevelWalk& w, Index k, WalkOutput& out) {
  const int a = w.first + static_cast<int>(k);
  if (w.root_level) return walk_target(w.rules, a, w.root, w.root_count, out);
  const int p = w.rules.cells[a].parent - w.parent_first;
  const Index begin = w.parent_down_at[p], end = w.parent_down_at[p + 1];
  return walk_target(w.rules, a, w.parent_down + begin, end - begin, out);
}

LevelPairs walk_level(Backend b, const LevelWalk& w, Index count, Array<int>& failed) {
  const core::Where where = side(b);
  LevelPairs l;
  l.m2l_at = Array<Index>(static_cast<std::size_t>(count) + 1);
  l.p2p_at = Array<Index>(static_cast<std::size_t>(count) + 1);
  l.down_at = Array<Index>(static_cast<std::size_t>(count) + 1);
  {
    Index* m = l.m2l_at.write(where);
    Index* p = l.p2p_at.write(where);
    Index* d = l.down_at.write(where);
    int* bad = failed.read_write(where);
    core::parallel_for(b, count, [=] LOOM_HOST_DEVICE(Index k) {
      WalkOutput out;
      if (!walk_level_cell(w, k, out)) *bad = 1;
      m[k] = out.m2l;
      p[k] = out.p2p;
      d[k] = out.down;
    });
  }
  l.m2l_total = exclusive_scan_on(b, l.m2l_at, count);
  l.p2p_total = exclusive_scan_on(b, l.p2p_at, count);
  l.down_total = exclusive_scan_on(b, l.down_at, count);
  l.m2l = Array<Source>(static_cast<std::size_t>(l.m2l_total));
  l.p2p = Array<Source>(static_cast<std::size_t>(l.p2p_total));
  l.down = Array<Source>(static_cast<std::size_t>(l.down_total));
  const Index *m = l.m2l_at.read(where), *p = l.p2p_at.read(where), *d = l.down_at.read(where);
  Source *ms = l.m2l.write(where), *ps = l.p2p.write(where), *ds = l.down.write(where);
  core::parallel_for(b, count, [=] LOOM_HOST_DEVICE(Index k) {
    WalkOutput out;
    out.m2l_at = ms + m[k];
    out.p2p_at = ps + p[k];
    out.down_at = ds + d[k];
    walk_level_cell(w, k, out);
  });
  return l;
}

// The levels' pairs of one kind into one list grouped by target cell (the levels' cells are consecutive).
void gather_lists(Backend b, const std::vector<LevelPairs>& levels, const std::vector<int>& level_offsets, bool m2l,
                  Array<Index>& offset, Array<int>& source, Array<std::uint8_t>& shift, Index& total) {
  const core::Where where = side(b);
  const int cells = level_offsets.back();
  total = 0;
  for (const auto& l : levels) total += m2l ? l.m2l_total : l.p2p_total;
  offset = Array<Index>(static_cast<std::size_t>(cells) + 1);
  source = Array<int>(static_cast<std::size_t>(total));
  shift = Array<std::uint8_t>(static_cast<std::size_t>(total));
  Index* off = offset.write(where);
  int* src = source.write(where);
  std::uint8_t* sh = shift.write(where);
  Index base = 0;
  for (std::size_t L = 0; L < levels.size(); ++L) {
    const LevelPairs& l = levels[L];
    const Index* at = (m2l ? l.m2l_at : l.p2p_at).read(where);
    const Index level_total = m2l ? l.m2l_total : l.p2p_total;
    const Source* pairs = level_total > 0 ? (m2l ? l.m2l : l.p2p).read(where) : nullptr;
    const int first = level_offsets[L];
    const Index count = level_offsets[L + 1] - first;
    const bool last = L + 1 == levels.size();
    core::parallel_for(b, count + (last ? 1 : 0), [=] LOOM_HOST_DEVICE(Index k) { off[first + k] = base + at[k]; });
    core::parallel_for(b, level_total, [=] LOOM_HOST_DEVICE(Index k) {
      src[base + k] = pairs[k].cell;
      sh[base + k] = pairs[k].shift;
    });
    base += level_total;
  }
}

}  // namespace

BackendLists traverse_tree(const BackendTree& tree, const TraversalOptions& o) {
  LOOM_REQUIRE(!o.periodic || o.period > 0, "fmm::gpu::traverse_tree: a periodic traversal needs a period > 0");
  const Backend b = tree.backend;
  const core::Where where = side(b);
  std::vector<Source> roots;
  if (o.periodic)
    for (int s = 0; s < 27; ++s) roots.push_back({0, static_cast<std::uint8_t>(s)});
  else
    roots.push_back({0, static_cast<std::uint8_t>(no_shift)});
  const Array<Source> root = Array<Source>::from(std::span<const Source>(roots));
  Array<int> failed(1, 0);
  LevelWalk w;
  w.rules = {tree.cells.read(where), o.theta, o.guard, o.period, o.far_field, o.periodic, o.source_sigma};
  w.root = root.read(where);
  w.root_count = static_cast<Index>(roots.size());
  std::vector<LevelPairs> levels;
  for (int L = 0; L < tree.levels(); ++L) {
    w.first = tree.level_offsets[static_cast<std::size_t>(L)];
    if (L > 0) {
      const LevelPairs& up = levels.back();
      w.root_level = false;
      w.parent_down = up.down_total > 0 ? up.down.read(where) : nullptr;  // null: the walks have no input
      w.parent_down_at = up.down_at.read(where);
      w.parent_first = tree.level_offsets[static_cast<std::size_t>(L) - 1];
    }
    const Index count = tree.level_offsets[static_cast<std::size_t>(L) + 1] - w.first;
    levels.push_back(walk_level(b, w, count, failed));
  }
  LOOM_REQUIRE(failed.host()[0] == 0, "fmm::gpu::traverse_tree: a walk's stack overflowed");
  BackendLists l;
  gather_lists(b, levels, tree.level_offsets, true, l.m2l_offset, l.m2l_source, l.m2l_shift, l.m2l_count);
  gather_lists(b, levels, tree.level_offsets, false, l.p2p_offset, l.p2p_source, l.p2p_shift, l.p2p_count);
  return l;
}

core::Array<double> cell_max_sigma(const BackendTree& tree, const double* sigma) {
  const Backend b = tree.backend;
  const core::Where where = side(b);
  Array<double> out(static_cast<std::size_t>(tree.cell_count()));
  double* m = out.write(where);
  const Cell* c = tree.cells.read(where);
  const Index* order = tree.order.read(where);
  // the levels from the bottom: a leaf from its bodies, another cell from its children (a level below, done)
  for (int L = tree.levels() - 1; L >= 0; --L) {
    const int first = tree.level_offsets[static_cast<std::size_t>(L)];
    const Index count = tree.level_offsets[static_cast<std::size_t>(L) + 1] - first;
    core::parallel_for(b, count, [=] LOOM_HOST_DEVICE(Index k) {
      const Cell& cell = c[first + k];
      double s = 0;
      if (cell.leaf())
        for (Index i = cell.begin; i < cell.begin + cell.count; ++i) s = s > sigma[order[i]] ? s : sigma[order[i]];
      else
        for (int j = cell.child_begin; j < cell.child_begin + cell.child_count; ++j) s = s > m[j] ? s : m[j];
      m[first + k] = s;
    });
  }
  return out;
}

InteractionLists to_host_lists(const BackendLists& l) {
  InteractionLists h;
  auto copy = [](const auto& array, auto& vec) {
    const auto s = array.host();
    vec.assign(s.begin(), s.end());
  };
  copy(l.m2l_offset, h.m2l_offset);
  copy(l.p2p_offset, h.p2p_offset);
  if (l.m2l_count > 0) {
    copy(l.m2l_source, h.m2l_source);
    copy(l.m2l_shift, h.m2l_shift);
  }
  if (l.p2p_count > 0) {
    copy(l.p2p_source, h.p2p_source);
    copy(l.p2p_shift, h.p2p_shift);
  }
  return h;
}

}  // namespace loom::fmm::gpu
