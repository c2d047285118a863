// The periodic far field's box moments (engine/periodic_images.hpp's BoxMoments) summed where the bodies are:
// fixed chunks of bodies, each a loop of P2M at the image order into its own slice, then the slices added in
// chunk order, so that only the moments (a few hundred coefficients) cross the bus. The resident evaluator's
// periodic images; the CPU form is checked against detail::box_moments. Compiled with CUDA only (gpu/resident.cu).
#pragma once

#include "loom/core/backend.hpp"
#include "loom/fmm/engine/periodic_images.hpp"

namespace loom::fmm::gpu {

// x: n positions, q: ncomp strengths per body component-major (q[c * n + i]), both on the backend's side (any
// order of bodies); moments about the periodic box's centre at image_order(options).
detail::BoxMoments box_moments_on(core::Backend backend, const Options& options, Index n, const Vec3d* x,
                                  const double* q, int ncomp);

}  // namespace loom::fmm::gpu
