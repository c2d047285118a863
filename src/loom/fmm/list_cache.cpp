// The interaction lists' cache (list_cache.hpp).
#include "loom/fmm/list_cache.hpp"

#include <algorithm>

#include "loom/core/timer.hpp"

namespace loom::fmm::detail {

TraversalOptions traversal_options(const Options& o, bool far_field, double guard, const double* cell_sigma) {
  TraversalOptions t;
  t.theta = o.theta;
  t.far_field = far_field;
  t.guard = guard;
  t.source_sigma = cell_sigma;
  t.periodic = o.periodic;
  t.period = o.period;
  return t;
}

std::vector<double> cell_max_sigma(const Tree& tree, std::span<const double> sigma) {
  const auto& cs = tree.cells();
  const auto& leaf_cells = tree.leaves();
  const Index* body_of = tree.order().data();
  std::vector<double> out(cs.size(), 0.0);
  const auto leaf_count = static_cast<Index>(leaf_cells.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (Index k = 0; k < leaf_count; ++k) {
    const auto c = static_cast<std::size_t>(leaf_cells[static_cast<std::size_t>(k)]);
    double m = 0;
    for (Index i = cs[c].begin; i < cs[c].begin + cs[c].count; ++i)
      m = std::max(m, sigma[static_cast<std::size_t>(body_of[i])]);
    out[c] = m;
  }
  for (int c = static_cast<int>(cs.size()) - 1; c >= 0; --c) {
    const Cell& cell = cs[static_cast<std::size_t>(c)];
    if (cell.leaf()) continue;
    double m = 0;
    for (int ch = cell.child_begin; ch < cell.child_begin + cell.child_count; ++ch)
      m = std::max(m, out[static_cast<std::size_t>(ch)]);
    out[static_cast<std::size_t>(c)] = m;
  }
  return out;
}

Statistics statistics(const Tree& tree, const InteractionLists& lists) {
  Statistics s;
  s.bodies = tree.size();
  s.cells = static_cast<int>(tree.cells().size());
  s.leaves = static_cast<int>(tree.leaves().size());
  s.levels = tree.levels();
  s.m2l_pairs = lists.m2l_count();
  s.p2p_pairs = lists.p2p_count();
  s.p2p_interactions = p2p_interactions(tree, tree, lists);
  return s;
}

void ListCache::clear() {
  for (auto& e : entries_) e = CachedLists{};
}

CachedLists& ListCache::lists(Kernel kernel, bool guarded, const Options& o, const Tree& tree,
                              std::vector<double> cell_sigma) {
  CachedLists& e = entries_[static_cast<std::size_t>(kernel)];
  if (e.valid && cell_sigma == e.cell_sigma) return e;
  e = CachedLists{};  // the old lists' memory given back before the traversal
  core::WallTimer timer;
  const TraversalOptions t = traversal_options(o, true, guarded ? o.guard : 0.0, guarded ? cell_sigma.data() : nullptr);
  if (traverser_) {
    traverser_(t, e);
    e.traversal_seconds = timer.seconds();
  } else {
    e.lists = traverse(tree, tree, t);
    e.traversal_seconds = timer.seconds();
    e.stats = statistics(tree, e.lists);
  }
  e.cell_sigma = std::move(cell_sigma);
  e.valid = true;
  return e;
}

}  // namespace loom::fmm::detail
