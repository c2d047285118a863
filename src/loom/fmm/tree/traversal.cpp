// The dual tree traversal: the first pairs are expanded breadth first on one thread until there is work for
// every thread, then the threads traverse from those pairs with their own stacks; a counting sort by target
// cell merges the lists.
#include "loom/fmm/tree/traversal.hpp"

#include <omp.h>

#include <cmath>

#include "loom/core/error.hpp"

namespace loom::fmm {
namespace {

struct Pair {
  int target, source;
  std::uint8_t shift;
};

struct Found {
  std::vector<Pair> m2l, p2p;
};

class Traverser {
 public:
  Traverser(const Tree& targets, const Tree& sources, const TraversalOptions& o)
      : t_(targets.cells()), s_(sources.cells()), same_(&targets == &sources), o_(o) {}

  // Handles one pair: records it, or pushes the pairs it splits into onto `stack`.
  void visit(const Pair& pr, std::vector<Pair>& stack, Found& out) const {
    const Cell& a = t_[static_cast<std::size_t>(pr.target)];
    const Cell& b = s_[static_cast<std::size_t>(pr.source)];
    if (a.count == 0 || b.count == 0) return;
    if (same_ && pr.target == pr.source && pr.shift == no_shift) {
      if (a.leaf()) {
        out.p2p.push_back(pr);
        return;
      }
      for (int i = 0; i < a.child_count; ++i)
        for (int j = 0; j < a.child_count; ++j) stack.push_back({a.child_begin + i, a.child_begin + j, pr.shift});
      return;
    }
    Vec3d source_center = b.center;
    if (o_.periodic) source_center += shift_vector(pr.shift, o_.period);
    const double distance = std::sqrt(norm2(a.center - source_center));
    const double radii = a.radius + b.radius;
    const double sigma = o_.source_sigma ? o_.source_sigma[pr.source] : 0.0;
    const bool apart = distance - radii > o_.guard * sigma;
    if (o_.far_field) {
      if (distance * o_.theta > radii && apart) {
        out.m2l.push_back(pr);
        return;
      }
    } else if (apart) {
      return;  // beyond the cutoff: nothing to do
    }
    if (a.leaf() && b.leaf()) {
      out.p2p.push_back(pr);
      return;
    }
    if (b.leaf() || (!a.leaf() && a.radius >= b.radius)) {
      for (int i = 0; i < a.child_count; ++i) stack.push_back({a.child_begin + i, pr.source, pr.shift});
    } else {
      for (int j = 0; j < b.child_count; ++j) stack.push_back({pr.target, b.child_begin + j, pr.shift});
    }
  }

 private:
  const std::vector<Cell>& t_;
  const std::vector<Cell>& s_;
  bool same_;
  const TraversalOptions& o_;
};

// A counting sort of the found pairs by target cell, in parallel: each thread counts the pairs of a contiguous
// range of the lists, the counts give every (target, thread) its place, and each thread writes its pairs there.
// The order within a target is the lists' order, as a sequential sort would give, for every thread count.
void group_by_target(const std::vector<Found>& found, bool m2l, std::size_t target_cells, std::vector<Index>& offset,
                     std::vector<int>& source, std::vector<std::uint8_t>& shift) {
  offset.assign(target_cells + 1, 0);
  std::vector<std::vector<Index>> counts;
  const std::size_t lists = found.size();
#pragma omp parallel
  {
    const auto team = static_cast<std::size_t>(omp_get_num_threads());
    const auto me = static_cast<std::size_t>(omp_get_thread_num());
#pragma omp single
    counts.resize(team);
    std::vector<Index>& mine = counts[me];
    mine.assign(target_cells, 0);
    const std::size_t lo = lists * me / team, hi = lists * (me + 1) / team;
    for (std::size_t k = lo; k < hi; ++k)
      for (const Pair& pr : (m2l ? found[k].m2l : found[k].p2p)) ++mine[static_cast<std::size_t>(pr.target)];
#pragma omp barrier
#pragma omp for schedule(static)
    for (std::size_t c = 0; c < target_cells; ++c) {
      Index sum = 0;
      for (std::size_t t = 0; t < team; ++t) {
        const Index v = counts[t][c];
        counts[t][c] = sum;  // thread t's first place among target c's pairs
        sum += v;
      }
      offset[c + 1] = sum;
    }
#pragma omp single
    {
      for (std::size_t c = 0; c < target_cells; ++c) offset[c + 1] += offset[c];
      source.resize(static_cast<std::size_t>(offset.back()));
      shift.resize(static_cast<std::size_t>(offset.back()));
    }
    for (std::size_t k = lo; k < hi; ++k)
      for (const Pair& pr : (m2l ? found[k].m2l : found[k].p2p)) {
        const auto c = static_cast<std::size_t>(pr.target);
        const auto at = static_cast<std::size_t>(offset[c] + mine[c]++);
        source[at] = pr.source;
        shift[at] = pr.shift;
      }
  }
}

}  // namespace

InteractionLists traverse(const Tree& targets, const Tree& sources, const TraversalOptions& options) {
  LOOM_REQUIRE(!options.periodic || options.period > 0, "fmm::traverse: a periodic traversal needs a period > 0");
  const Traverser traverser(targets, sources, options);
  std::vector<Pair> frontier;
  if (options.periodic) {
    for (int s = 0; s < 27; ++s) frontier.push_back({0, 0, static_cast<std::uint8_t>(s)});
  } else {
    frontier.push_back({0, 0, no_shift});
  }
  Found first;
  // Breadth first on one thread until there are plenty of independent pairs for every thread (a fixed number,
  // not one per thread, so that the lists do not depend on the thread count).
  const std::size_t enough = 4096;
  while (!frontier.empty() && frontier.size() < enough) {
    std::vector<Pair> next;
    for (const Pair& pr : frontier) traverser.visit(pr, next, first);
    frontier = std::move(next);
  }
  // Each frontier pair collects into its own lists, merged in frontier order: the same lists, in the same
  // order, for every thread count and schedule (so sums over them are reproducible).
  std::vector<Found> found(frontier.size() + 1);
  found.front() = std::move(first);
#pragma omp parallel
  {
    std::vector<Pair> stack;
#pragma omp for schedule(dynamic, 1)
    for (std::size_t i = 0; i < frontier.size(); ++i) {
      stack.push_back(frontier[i]);
      while (!stack.empty()) {
        const Pair pr = stack.back();
        stack.pop_back();
        traverser.visit(pr, stack, found[i + 1]);
      }
    }
  }
  InteractionLists lists;
  const std::size_t n = targets.cells().size();
  group_by_target(found, true, n, lists.m2l_offset, lists.m2l_source, lists.m2l_shift);
  group_by_target(found, false, n, lists.p2p_offset, lists.p2p_source, lists.p2p_shift);
  return lists;
}

double p2p_interactions(const Tree& targets, const Tree& sources, const InteractionLists& lists) {
  double total = 0;  // integer-valued terms, exact below 2^53: the same for every thread count
  const auto& tc = targets.cells();
  const auto& sc = sources.cells();
  const auto cells = static_cast<std::int64_t>(lists.p2p_offset.empty() ? 0 : lists.p2p_offset.size() - 1);
#pragma omp parallel for schedule(static) reduction(+ : total)
  for (std::int64_t c = 0; c < cells; ++c)
    for (Index k = lists.p2p_offset[static_cast<std::size_t>(c)]; k < lists.p2p_offset[static_cast<std::size_t>(c) + 1];
         ++k)
      total += double(tc[static_cast<std::size_t>(c)].count) *
               double(sc[static_cast<std::size_t>(lists.p2p_source[static_cast<std::size_t>(k)])].count);
  return total;
}

}  // namespace loom::fmm
