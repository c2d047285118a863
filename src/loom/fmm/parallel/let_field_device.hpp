// The received field on the device (issue 22, with the CUDA backend): the received cells' multipoles and
// bodies go to the device next to the local tree's, as one cell array (the local cells, then the received
// ones, whose bodies follow the local bodies), and the CUDA engine's own kernels evaluate the pairs of
// let_field.cpp's traversal (gpu::m2l, gpu::p2p_*); L2L and L2P are the passes of the local FMM on the
// backend (engine/passes.hpp), and the far images of a periodic box go into the locals on the device too.
// The options' precision applies, as in the local FMM. The CPU path (let_field.cpp) is the reference.
#pragma once

#include <span>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/fmm/engine/periodic_images.hpp"
#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/let.hpp"
#include "loom/fmm/parallel/let_pairs.hpp"

namespace loom::fmm::parallel {

// K::nout values per body, component-major rows of n in tree order, unscaled (as let_field.hpp's).
template <class K>
std::vector<double> device_let_field(const Options& o, const detail::TreeData& t, const core::Array<double>& strength,
                                     std::span<const double> sigma, const Let& let, const LetLists& lists,
                                     const detail::BoxMoments* far_images);

}  // namespace loom::fmm::parallel
