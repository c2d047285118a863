// The receiver's side of the local essential tree (let.hpp): the field of the received cells and bodies at this
// rank's bodies, on the CPU (on the GPU with the CUDA backend: let_field_device.hpp). The local tree and the received (pruned) tree are traversed together under the
// same MAC as the local traversal: M2L where it accepts, P2P of a local leaf with the bodies of a received leaf
// it does not accept (a multipole-only cell is accepted by every leaf, let.hpp); then L2L and L2P through the
// passes the local FMM uses. With periodic options, the received cells are the senders' images already (let.hpp's
// shift), and the far images of the whole box (beyond the 3^3 near ones) enter the locals from the box's
// moments summed over the ranks (engine/periodic_images.hpp).
#pragma once

#include <span>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/fmm/engine/periodic_images.hpp"
#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/body_cost.hpp"
#include "loom/fmm/parallel/let.hpp"

namespace loom::fmm::parallel {

struct LetFieldCounts {
  Index m2l = 0, p2p = 0;  // pairs (local cell, received cell)
  double p2p_interactions = 0;
  CellWork work;  // per local cell: received M2L pairs, received sources per body (body_cost.hpp)
};

// K::nout values per body, component-major rows of n in tree order (as the local pipeline's out), unscaled.
// strength: tree order, component-major; sigma: tree order (empty for unguarded kernels); far_images: the
// whole box's moments (null: none, open boundaries).
template <class K>
std::vector<double> let_field(const Options& o, const detail::TreeData& t, const core::Array<double>& strength,
                              std::span<const double> sigma, const Let& let, LetFieldCounts* counts = nullptr,
                              const detail::BoxMoments* far_images = nullptr);

}  // namespace loom::fmm::parallel
