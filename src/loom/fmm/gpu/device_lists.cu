// device_lists.hpp's traversal, breadth first over pairs: each round visits every pair of the frontier at once
// (pair_visit.hpp), one scan gives each pair its places among the round's M2L pairs, P2P pairs and next frontier,
// and a second pass writes them; the rounds' M2L and P2P pairs are then grouped by target cell by a stable radix
// sort of their target (radix_sort.hpp). One pair per thread keeps the GPU busy where the earlier per-target walks
// (one thread per target cell, a source stack each: 11 ms at 1e6 bodies) left most of it idle. thrust scans and
// core::parallel_for loops, one code for both backends; the rounds come in the same order on both, so the lists
// are the same, in the same order within each target.
#include "loom/fmm/gpu/device_lists.hpp"

#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>

#include <algorithm>
#include <bit>
#include <span>
#include <vector>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/fmm/gpu/pair_visit.hpp"
#include "loom/fmm/gpu/radix_sort.hpp"
#include "loom/fmm/gpu/thrust_policy.hpp"

namespace loom::fmm::gpu {
namespace {

using core::Array;
using core::Backend;

// A pair's (or, scanned, its first) places among a round's M2L pairs, P2P pairs and next frontier.
struct Counts {
  Index m2l = 0, p2p = 0, next = 0;
};
struct AddCounts {
  LOOM_HOST_DEVICE Counts operator()(const Counts& a, const Counts& b) const {
    return {a.m2l + b.m2l, a.p2p + b.p2p, a.next + b.next};
  }
};

// a[0 .. count) -> exclusive prefix sums, a[count] = the total (returned, read on the host).
Counts scan_counts(Backend b, Array<Counts>& a, Index count) {
  Counts* p = a.read_write(side(b));
  core::parallel_for(b, 1, [=] LOOM_HOST_DEVICE(Index) { p[count] = Counts{}; });
  if (b == Backend::cpu) {
    thrust::exclusive_scan(thrust::host, p, p + count + 1, p, Counts{}, AddCounts{});
    return p[count];
  }
  thrust::exclusive_scan(device_policy(), p, p + count + 1, p, Counts{}, AddCounts{});
  Counts total;
  cuda::copy_device_to_host(&total, p + count, sizeof(Counts));
  return total;
}

// The pairs found so far, one array per round and kind.
struct Found {
  std::vector<Array<CellPair>> m2l, p2p;
  Index m2l_count = 0, p2p_count = 0;
};

// One round: the frontier's pairs visited; returns the next frontier.
Array<CellPair> round(Backend b, const VisitRules& rules, const Array<CellPair>& frontier, Found& found) {
  const core::Where w = side(b);
  const auto count = static_cast<Index>(frontier.size());
  Array<Counts> at(frontier.size() + 1);
  {
    const CellPair* f = frontier.read(w);
    Counts* c = at.write(w);
    core::parallel_for(b, count, [=] LOOM_HOST_DEVICE(Index k) {
      int children = 0;
      const Outcome o = visit(rules, f[k], children);
      c[k] = {o == Outcome::m2l ? 1 : 0, o == Outcome::p2p ? 1 : 0, children};
    });
  }
  const Counts total = scan_counts(b, at, count);
  Array<CellPair> next(static_cast<std::size_t>(total.next)), m2l(static_cast<std::size_t>(total.m2l)),
      p2p(static_cast<std::size_t>(total.p2p));
  const CellPair* f = frontier.read(w);
  const Counts* c = at.read(w);
  CellPair* nx = total.next > 0 ? next.write(w) : nullptr;
  CellPair* ms = total.m2l > 0 ? m2l.write(w) : nullptr;
  CellPair* ps = total.p2p > 0 ? p2p.write(w) : nullptr;
  core::parallel_for(b, count, [=] LOOM_HOST_DEVICE(Index k) {
    int children = 0;
    const Outcome o = visit(rules, f[k], children);
    if (o == Outcome::m2l) ms[c[k].m2l] = f[k];
    if (o == Outcome::p2p) ps[c[k].p2p] = f[k];
    for (int j = 0; j < children; ++j) nx[c[k].next + j] = child_pair(rules.cells, f[k], o, j);
  });
  if (total.m2l > 0) found.m2l.push_back(std::move(m2l));
  if (total.p2p > 0) found.p2p.push_back(std::move(p2p));
  found.m2l_count += total.m2l;
  found.p2p_count += total.p2p;
  return next;
}

// The first place of each target cell c in [0, cells] among `count` keys sorted by target.
LOOM_HOST_DEVICE inline Index first_of(const std::uint64_t* key, Index count, std::uint64_t c) {
  Index lo = 0, hi = count;
  while (lo < hi) {
    const Index mid = (lo + hi) / 2;
    if (key[mid] < c) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// The rounds' pairs of one kind into one list grouped by target cell (in round order within a target).
void group_by_target(Backend b, const std::vector<Array<CellPair>>& parts, Index total, int cells,
                     Array<Index>& offset, Array<int>& source, Array<std::uint8_t>& shift) {
  const core::Where w = side(b);
  Array<CellPair> all(static_cast<std::size_t>(total));
  Array<std::uint64_t> key(static_cast<std::size_t>(total));
  Array<Index> place(static_cast<std::size_t>(total));
  Index base = 0;
  for (const Array<CellPair>& part : parts) {
    const CellPair* in = part.read(w);
    CellPair* out = all.write(w);
    std::uint64_t* k = key.write(w);
    Index* pl = place.write(w);
    core::parallel_for(b, static_cast<Index>(part.size()), [=] LOOM_HOST_DEVICE(Index i) {
      out[base + i] = in[i];
      k[base + i] = static_cast<std::uint64_t>(in[i].target);
      pl[base + i] = base + i;
    });
    base += static_cast<Index>(part.size());
  }
  if (total > 0) stable_sort_pairs(b, key, place, total, std::bit_width(static_cast<std::uint64_t>(cells)) + 1);
  offset = Array<Index>(static_cast<std::size_t>(cells) + 1);
  source = Array<int>(static_cast<std::size_t>(total));
  shift = Array<std::uint8_t>(static_cast<std::size_t>(total));
  const std::uint64_t* k = total > 0 ? key.read(w) : nullptr;
  Index* off = offset.write(w);
  core::parallel_for(b, static_cast<Index>(cells) + 1, [=] LOOM_HOST_DEVICE(Index c) {
    off[c] = total > 0 ? first_of(k, total, static_cast<std::uint64_t>(c)) : 0;
  });
  if (total == 0) return;
  const CellPair* a = all.read(w);
  const Index* pl = place.read(w);
  int* src = source.write(w);
  std::uint8_t* sh = shift.write(w);
  core::parallel_for(b, total, [=] LOOM_HOST_DEVICE(Index i) {
    src[i] = a[pl[i]].source;
    sh[i] = a[pl[i]].shift;
  });
}

}  // namespace

BackendLists traverse_tree(const BackendTree& tree, const TraversalOptions& o) {
  LOOM_REQUIRE(!o.periodic || o.period > 0, "fmm::gpu::traverse_tree: a periodic traversal needs a period > 0");
  const Backend b = tree.backend;
  std::vector<CellPair> roots;
  if (o.periodic)
    for (int s = 0; s < 27; ++s) roots.push_back({0, 0, static_cast<std::uint8_t>(s)});
  else
    roots.push_back({0, 0, static_cast<std::uint8_t>(no_shift)});
  Array<CellPair> frontier = tree.cell_count() > 0 ? Array<CellPair>::from(std::span<const CellPair>(roots))
                                                   : Array<CellPair>();
  const VisitRules rules{tree.cells.read(side(b)), o.theta, o.guard, o.period, o.far_field, o.periodic,
                         o.source_sigma};
  Found found;
  while (!frontier.empty()) frontier = round(b, rules, frontier, found);
  BackendLists l;
  l.m2l_count = found.m2l_count;
  l.p2p_count = found.p2p_count;
  group_by_target(b, found.m2l, l.m2l_count, tree.cell_count(), l.m2l_offset, l.m2l_source, l.m2l_shift);
  group_by_target(b, found.p2p, l.p2p_count, tree.cell_count(), l.p2p_offset, l.p2p_source, l.p2p_shift);
  return l;
}

core::Array<double> cell_max_sigma(const BackendTree& tree, const double* sigma, bool tree_order) {
  const Backend b = tree.backend;
  const core::Where where = side(b);
  Array<double> out(static_cast<std::size_t>(tree.cell_count()));
  double* m = out.write(where);
  const Cell* c = tree.cells.read(where);
  const Index* order = tree_order ? nullptr : tree.order.read(where);
  // the levels from the bottom: a leaf from its bodies, another cell from its children (a level below, done)
  for (int L = tree.levels() - 1; L >= 0; --L) {
    const int first = tree.level_offsets[static_cast<std::size_t>(L)];
    const Index count = tree.level_offsets[static_cast<std::size_t>(L) + 1] - first;
    core::parallel_for(b, count, [=] LOOM_HOST_DEVICE(Index k) {
      const Cell& cell = c[first + k];
      double s = 0;
      if (cell.leaf())
        for (Index i = cell.begin; i < cell.begin + cell.count; ++i) {
          const double si = sigma[order ? order[i] : i];
          s = s > si ? s : si;
        }
      else
        for (int j = cell.child_begin; j < cell.child_begin + cell.child_count; ++j) s = s > m[j] ? s : m[j];
      m[first + k] = s;
    });
  }
  return out;
}

namespace {

struct HasPairs {
  const Index* offset;
  LOOM_HOST_DEVICE bool operator()(int c) const { return offset[c + 1] > offset[c]; }
};

template <class Policy>
PairTargets compact_targets(const Policy& policy, core::Where where, const Array<Index>& offset, int cell_count) {
  PairTargets t{Array<int>(static_cast<std::size_t>(cell_count)), 0};
  if (cell_count == 0) return t;
  int* out = t.cells.write(where);
  const int* end = thrust::copy_if(policy, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(cell_count),
                                   out, HasPairs{offset.read(where)});
  t.count = static_cast<int>(end - out);
  return t;
}

}  // namespace

PairTargets pair_targets(Backend backend, const Array<Index>& offset, int cell_count) {
  if (backend == Backend::cpu) return compact_targets(thrust::host, core::Where::host, offset, cell_count);
  return compact_targets(device_policy(), core::Where::device, offset, cell_count);
}

double p2p_interactions(const BackendTree& t, const BackendLists& l) {
  if (t.cell_count() == 0) return 0;
  const core::Where where = side(t.backend);
  const Cell* cells = t.cells.read(where);
  const Index* offset = l.p2p_offset.read(where);
  const int* source = l.p2p_source.read(where);
  return core::parallel_sum(t.backend, t.cell_count(), [=] LOOM_HOST_DEVICE(Index c) {
    double sources = 0;
    for (Index k = offset[c]; k < offset[c + 1]; ++k) sources += double(cells[source[k]].count);
    return sources * double(cells[c].count);
  });
}

void cell_work(const BackendTree& t, const BackendLists& l, std::vector<double>& m2l, std::vector<double>& sources) {
  const auto cells = static_cast<std::size_t>(t.cell_count());
  m2l.assign(cells, 0.0);
  sources.assign(cells, 0.0);
  if (cells == 0) return;
  const core::Where where = side(t.backend);
  Array<double> work(2 * cells);
  double* w = work.write(where);
  const Cell* c = t.cells.read(where);
  const Index *m2l_offset = l.m2l_offset.read(where), *p2p_offset = l.p2p_offset.read(where);
  const int* source = l.p2p_source.read(where);
  const auto n = static_cast<Index>(cells);
  core::parallel_for(t.backend, n, [=] LOOM_HOST_DEVICE(Index k) {
    double s = 0;
    for (Index j = p2p_offset[k]; j < p2p_offset[k + 1]; ++j) s += double(c[source[j]].count);
    w[k] = double(m2l_offset[k + 1] - m2l_offset[k]);
    w[n + k] = s;
  });
  const double* h = work.read(core::Where::host);
  std::copy_n(h, cells, m2l.data());
  std::copy_n(h + cells, cells, sources.data());
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
