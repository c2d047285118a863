// The interaction lists of each kernel, kept while they stay valid, in one place: every kernel's lists until
// the positions change; a guarded kernel's (Biot-Savart: the far-field guard depends on the core radii) also
// only while the cells' largest core radii stay what they were built for. Each entry keeps the engine's copy
// of its lists (the GPU's device arrays) beside them.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "loom/fmm/engine/pass_engine.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::detail {

// The traversal's options for these evaluator options: P2P only below `cutoff` when !far_field; M2L also
// `guard` core radii apart when cell_sigma (per source cell) is given.
TraversalOptions traversal_options(const Options& o, bool far_field, double guard, const double* cell_sigma);

// The largest sigma of each cell's bodies (leaves from their bodies, the others from their children); sigma in
// the caller's order (read through tree.order()).
std::vector<double> cell_max_sigma(const Tree& tree, std::span<const double> sigma);

Statistics statistics(const Tree& tree, const InteractionLists& lists);

struct CachedLists {
  bool valid = false;
  InteractionLists lists;
  Statistics stats;
  double traversal_seconds = 0;         // the set-up's time, reported again by every call that reuses them
  std::vector<double> cell_sigma;       // guarded kernels: the cells' largest core radii they were built for
  std::unique_ptr<StagedLists> staged;  // the engine's copy, made at the first evaluation
  ListWork work;                        // per cell, when the traverser counted it (Evaluator::set_list_work)
};

class ListCache {
 public:
  // Kernel K's lists for the tree, traversed again when stale. cell_sigma: cell_max_sigma for guarded kernels,
  // empty otherwise.
  template <class K>
  CachedLists& lists(const Options& o, const Tree& tree, std::vector<double> cell_sigma) {
    return lists(K::id, K::guarded, o, tree, std::move(cell_sigma));
  }
  void clear();  // the positions changed: every entry dropped, its memory given back
  // Kernel k's entry as it stands (null when not valid), without traversing.
  const CachedLists* valid_entry(Kernel k) const {
    const CachedLists& e = entries_[static_cast<std::size_t>(k)];
    return e.valid ? &e : nullptr;
  }
  // Where the lists come from (default: traverse() of the host tree with itself, and their statistics()): a
  // traverser fills the entry's lists and stats, and its staged copy when it made that itself (then the host
  // lists may stay empty: the engine reads the staged ones).
  using Traverser = std::function<void(const TraversalOptions&, CachedLists&)>;
  void set_traverser(Traverser t) { traverser_ = std::move(t); }

 private:
  CachedLists& lists(Kernel kernel, bool guarded, const Options& o, const Tree& tree, std::vector<double> cell_sigma);
  std::array<CachedLists, 2> entries_;  // by Kernel
  Traverser traverser_;
};

}  // namespace loom::fmm::detail
