// The received field's pairs on the CPU (let_pairs.hpp): the dual traversal and the M2L and P2P of its pairs.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include "loom/core/error.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/fmm/expansions/m2l_batch.hpp"
#include "loom/fmm/expansions/operators.hpp"
#include "loom/fmm/kernels/biot_savart.hpp"
#include "loom/fmm/kernels/laplace.hpp"
#include "loom/fmm/parallel/let_pairs.hpp"

namespace loom::fmm::parallel {
namespace {

struct Pair {
  int target, source;
};

// Where one frontier item's pairs lie: a thread's list, [begin, end).
struct ItemPairs {
  std::size_t thread = 0, begin = 0, end = 0;
};

// The pairs grouped by target by a counting sort, in frontier-item order within a target (so the same pairs
// come out in the same order whatever thread walked them): O(pairs), where sorting them cost more than the
// walk itself (measured: most of the received field's time on the GPU, docs/performance.md).
LetPairs group(const std::vector<std::vector<Pair>>& by_thread, const std::vector<ItemPairs>& items,
               std::size_t cells) {
  LetPairs g;
  g.offset.assign(cells + 1, 0);
  for (const auto& pairs : by_thread)
    for (const Pair& p : pairs) ++g.offset[static_cast<std::size_t>(p.target) + 1];
  for (std::size_t c = 0; c < cells; ++c) g.offset[c + 1] += g.offset[c];
  g.source.resize(static_cast<std::size_t>(g.offset.back()));
  std::vector<Index> next(g.offset.begin(), g.offset.end() - 1);
  for (const ItemPairs& item : items)
    for (std::size_t k = item.begin; k < item.end; ++k) {
      const Pair& p = by_thread[item.thread][k];
      g.source[static_cast<std::size_t>(next[static_cast<std::size_t>(p.target)]++)] = p.source;
    }
  return g;
}

// The dual traversal of the local tree (A) and the received one (B), from the pairs (a, b) of `frontier`: M2L
// where the MAC of tree/traversal.cpp accepts (with the guard on B's sigma); otherwise the larger cell is
// opened, B's only while it has children, A's down to the leaves, where a received leaf's bodies meet A's by
// P2P (a multipole-only cell is accepted by every local leaf, let.hpp).
struct Walk {
  const Options& o;
  const std::vector<Cell>& cells;
  const Let& let;
  std::vector<Pair> m2l, p2p;
  bool complete = true;

  void run(int a0, int b0) {
    std::vector<std::pair<int, int>> stack{{a0, b0}};
    while (!stack.empty()) {
      const auto [c, s] = stack.back();
      stack.pop_back();
      const Cell& a = cells[static_cast<std::size_t>(c)];
      const LetCell& b = let.cells[static_cast<std::size_t>(s)];
      if (a.count == 0) continue;
      const double distance = std::sqrt(norm2(a.center - b.center)), radii = a.radius + b.radius;
      if (distance * o.theta > radii && distance - radii > o.guard * b.sigma) {
        m2l.push_back({c, s});
      } else if (!b.leaf(s) && (a.leaf() || b.radius >= a.radius)) {
        for (int k = s + 1; k < b.end; k = let.cells[static_cast<std::size_t>(k)].end) stack.emplace_back(c, k);
      } else if (!a.leaf()) {
        for (int k = 0; k < a.child_count; ++k) stack.emplace_back(a.child_begin + k, s);
      } else {
        if (b.body_count == 0) complete = false;  // the sender broke let.hpp's criterion
        p2p.push_back({c, s});
      }
    }
  }
};

// The pairs to start from: the local cells two levels down (and the leaves above them) against the received
// roots, so that the threads share the walk; the M2L this forgoes into the top two levels is a few pairs per
// received root.
std::vector<std::pair<int, int>> frontier(const Tree& tree, const Let& let) {
  const auto& cells = tree.cells();
  const int depth = std::min(2, tree.levels() - 1);
  std::vector<std::pair<int, int>> out;
  for (int c = 0; c < tree.level_begin(depth + 1); ++c) {
    const Cell& a = cells[static_cast<std::size_t>(c)];
    if (a.level != depth && !a.leaf()) continue;
    for (int s = 0; s < static_cast<int>(let.cells.size()); s = let.cells[static_cast<std::size_t>(s)].end)
      out.emplace_back(c, s);
  }
  return out;
}

}  // namespace

LetLists let_lists(const Options& o, const Tree& tree, const Let& let) {
  const std::vector<std::pair<int, int>> start = frontier(tree, let);
  const auto threads = static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
  std::vector<std::vector<Pair>> m2l(threads), p2p(threads);
  std::vector<ItemPairs> m2l_items(start.size()), p2p_items(start.size());
  bool complete = true;
#pragma omp parallel
  {
    const auto me = static_cast<std::size_t>(omp_get_thread_num());
    Walk w{o, tree.cells(), let, {}, {}, true};
#pragma omp for schedule(dynamic, 1) nowait
    for (std::size_t k = 0; k < start.size(); ++k) {
      const std::size_t m2l_begin = w.m2l.size(), p2p_begin = w.p2p.size();
      w.run(start[k].first, start[k].second);
      m2l_items[k] = {me, m2l_begin, w.m2l.size()};
      p2p_items[k] = {me, p2p_begin, w.p2p.size()};
    }
    m2l[me] = std::move(w.m2l);
    p2p[me] = std::move(w.p2p);
#pragma omp critical
    complete = complete && w.complete;
  }
  LOOM_REQUIRE(complete, "fmm::parallel: a received multipole-only cell is not accepted by a local leaf");
  return {group(m2l, m2l_items, tree.cells().size()), group(p2p, p2p_items, tree.cells().size())};
}

// M2L of the accepted pairs into the local cells' expansions, eight sources at a time in the SIMD lanes of
// M2lBatch (as the local FMM's CPU engine).
void host_received_far(const Options& o, int ncomp, const Tree& tree, const Let& let, const LetPairs& g,
                       detail::C* L) {
  const int p = o.order, nt = term_count(p);
  const auto& cells = tree.cells();
  const auto ncells = static_cast<std::int64_t>(cells.size());
#pragma omp parallel
  {
    M2lBatch<8> batch(p);
    constexpr int lanes = decltype(batch)::lanes;
#pragma omp for schedule(dynamic, 4)
    for (std::int64_t c = 0; c < ncells; ++c) {
      const Index first = g.offset[static_cast<std::size_t>(c)], last = g.offset[static_cast<std::size_t>(c) + 1];
      for (Index k0 = first; k0 < last; k0 += lanes) {
        const int count = static_cast<int>(std::min<Index>(lanes, last - k0));
        Vec3d D[lanes];
        std::size_t source[lanes];
        for (int s = 0; s < count; ++s) {
          source[s] = static_cast<std::size_t>(g.source[static_cast<std::size_t>(k0 + s)]);
          D[s] = cells[static_cast<std::size_t>(c)].center - let.cells[source[s]].center;
        }
        for (int comp = 0; comp < ncomp; ++comp) {
          const detail::C* M[lanes];
          for (int s = 0; s < count; ++s)
            M[s] = let.multipoles.data() + (source[s] * static_cast<std::size_t>(ncomp) + static_cast<std::size_t>(comp)) *
                                               static_cast<std::size_t>(nt);
          batch.apply(count, D, M, L + (c * ncomp + comp) * nt);
        }
      }
    }
  }
}

// P2P with the received bodies: local and received bodies side by side in one set of rows, so that the
// kernels' own CPU loops (K::p2p_cpu) evaluate the pairs.
template <class K>
void host_received_near(const detail::TreeData& t, const double* strength, std::span<const double> sigma,
                        const Let& let, const LetPairs& g, double* out) {
  const Index n = t.n(), m = static_cast<Index>(let.x.size()), all = n + m;
  const auto size = static_cast<std::size_t>(all);
  std::vector<double> x(size), y(size), z(size), q(size * K::ncomp), sg(size, 0.0), inv_sg(size, 0.0),
      rows_out(size * K::nout, 0.0);
  const auto& pos = t.tree.positions();
  for (Index i = 0; i < all; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const Vec3d v = i < n ? pos[u] : let.x[static_cast<std::size_t>(i - n)];
    x[u] = v.x;
    y[u] = v.y;
    z[u] = v.z;
    for (int d = 0; d < K::ncomp; ++d)
      q[static_cast<std::size_t>(d * all + i)] =
          i < n ? strength[d * n + i] : let.strength[static_cast<std::size_t>((i - n) * K::ncomp + d)];
    if (!sigma.empty() || i >= n) sg[u] = i < n ? sigma[u] : let.sigma[static_cast<std::size_t>(i - n)];
    inv_sg[u] = sg[u] > 0 ? 1 / sg[u] : 0.0;
  }
  P2pRows rows;
  rows.n = all;
  rows.x = x.data();
  rows.y = y.data();
  rows.z = z.data();
  rows.strength = q.data();
  rows.sigma = sg.data();
  rows.inv_sigma = inv_sg.data();
  rows.out = rows_out.data();
  const auto& cells = t.tree.cells();
  const auto ncells = static_cast<std::int64_t>(cells.size());
#pragma omp parallel for schedule(dynamic, 2)
  for (std::int64_t c = 0; c < ncells; ++c) {
    const Cell& a = cells[static_cast<std::size_t>(c)];
    for (Index k = g.offset[static_cast<std::size_t>(c)]; k < g.offset[static_cast<std::size_t>(c) + 1]; ++k) {
      const LetCell& b = let.cells[static_cast<std::size_t>(g.source[static_cast<std::size_t>(k)])];
      for (Index i = a.begin; i < a.begin + a.count; ++i)
        K::p2p_cpu(rows, i, x[static_cast<std::size_t>(i)], y[static_cast<std::size_t>(i)],
                   z[static_cast<std::size_t>(i)], n + b.body_begin, n + b.body_begin + b.body_count);
    }
    for (Index i = a.begin; a.leaf() && i < a.begin + a.count; ++i)
      for (int d = 0; d < K::nout; ++d) out[d * n + i] += rows_out[static_cast<std::size_t>(d * all + i)];
  }
}

CellWork received_work(const Tree& tree, const Let& let, const LetLists& lists, double& interactions) {
  const auto& cells = tree.cells();
  CellWork w{std::vector<double>(cells.size(), 0.0), std::vector<double>(cells.size(), 0.0)};
  interactions = 0;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    w.m2l[c] = double(lists.m2l.offset[c + 1] - lists.m2l.offset[c]);
    for (Index k = lists.p2p.offset[c]; k < lists.p2p.offset[c + 1]; ++k)
      w.sources[c] += double(let.cells[static_cast<std::size_t>(lists.p2p.source[static_cast<std::size_t>(k)])].body_count);
    interactions += double(cells[c].count) * w.sources[c];
  }
  return w;
}

template void host_received_near<LaplaceKernel>(const detail::TreeData&, const double*, std::span<const double>,
                                                const Let&, const LetPairs&, double*);
template void host_received_near<BiotSavartKernel>(const detail::TreeData&, const double*, std::span<const double>,
                                                   const Let&, const LetPairs&, double*);

}  // namespace loom::fmm::parallel
