// The pairs of the received tree's cells with the local cells that the received field evaluates
// (let_field.cpp's traversal), grouped by local (target) cell: the pairs of cell c are [offset[c],
// offset[c + 1]) of `source`, indices into Let::cells; and the CPU's evaluation of them (let_field.cpp), the
// reference of the device's (let_field_device.hpp).
#pragma once

#include <span>
#include <vector>

#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/body_cost.hpp"
#include "loom/fmm/parallel/let.hpp"

namespace loom::fmm::parallel {

struct LetPairs {
  std::vector<Index> offset;
  std::vector<int> source;
  Index size() const { return static_cast<Index>(source.size()); }
};

struct LetLists {
  LetPairs m2l, p2p;
};

// The dual traversal of the local tree and the received one under the local traversal's MAC.
LetLists let_lists(const Options& o, const Tree& tree, const Let& let);

// The received work per local cell (body_cost.hpp) and the body-body interactions in all.
CellWork received_work(const Tree& tree, const Let& let, const LetLists& lists, double& interactions);

// On the CPU: locals (ncomp * term_count(p) per cell of the tree) += the M2L of the pairs.
void host_received_far(const Options& o, int ncomp, const Tree& tree, const Let& let, const LetPairs& pairs,
                       detail::C* locals);
// On the CPU: out (K::nout rows of t's n bodies, tree order) += the P2P of the pairs; strength: ncomp rows of
// n, tree order; sigma: n or empty.
template <class K>
void host_received_near(const detail::TreeData& t, const double* strength, std::span<const double> sigma,
                        const Let& let, const LetPairs& pairs, double* out);

}  // namespace loom::fmm::parallel
