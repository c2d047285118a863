// The periodic image levels beyond the 3^3 near images (the paper's periodic section; exaFMM's scheme), added
// into the locals after M2L on either backend (periodic_images.cpp).
#pragma once

#include <span>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/fmm.hpp"

namespace loom::fmm::detail {

// Adds the far images' field (and with options.tinfoil the removal of the surface terms) to the locals of the
// cells two levels down and of the leaves above them.
void add_periodic_far_field(const Options& options, const TreeData& t, int ncomp, const core::Array<double>& strength,
                            core::Array<C>& locals);

// The same in two steps, for bodies spread over several ranks (fmm/parallel): the far images' field is linear
// in the box's moments about its centre, so the moments of each rank's bodies add up to the whole box's.
struct BoxMoments {
  std::vector<C> multipole;   // ncomp expansions of the image levels' order (image_order)
  std::vector<double> second;  // per component: sum_j q_j |x_j - c|^2
};
int image_order(const Options& options);
BoxMoments box_moments(const Options& options, const TreeData& t, int ncomp, const core::Array<double>& strength);
// The field of the far images of a box with these moments, into the locals of t's cells (as above).
void add_far_images(const Options& options, const TreeData& t, int ncomp, BoxMoments moments, core::Array<C>& locals);
// The same from the tree's top cells alone (cells [0, level_begin(far_image_level(levels) + 1)), the level
// that receives the field and those above it): a resident evaluation copies only these to the host.
int far_image_level(int levels);
void add_far_images(const Options& options, std::span<const Cell> top_cells, int levels, int ncomp, BoxMoments moments,
                    core::Array<C>& locals);

}  // namespace loom::fmm::detail
