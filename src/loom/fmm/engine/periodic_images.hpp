// The periodic image levels beyond the 3^3 near images (the paper's periodic section; exaFMM's scheme), added
// into the locals after M2L on either backend (periodic_images.cpp).
#pragma once

#include "loom/core/array.hpp"
#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/fmm.hpp"

namespace loom::fmm::detail {

// Adds the far images' field (and with options.tinfoil the removal of the surface terms) to the locals of the
// cells two levels down and of the leaves above them.
void add_periodic_far_field(const Options& options, const TreeData& t, int ncomp, const core::Array<double>& strength,
                            core::Array<C>& locals);

}  // namespace loom::fmm::detail
