// Bodies between the caller's order and the tree's (the multisection tree sorts them so that a cell's bodies
// are contiguous, paper's section on the tree): gathers of strengths into tree order, component-major, and
// scatters of results back into the caller's order, interleaved as in its vectors. One formula per body for
// both backends; on the GPU the permutation runs on the device, so that only the caller's arrays cross PCIe.
#pragma once

#include "loom/core/backend.hpp"
#include "loom/core/host_device.hpp"
#include "loom/fmm/real.hpp"

namespace loom::fmm {

// Body i of the tree: component d of body order[i]'s `stride` values goes to dst[d * n + i], d < ncomp.
LOOM_HOST_DEVICE inline void gather_body(Index i, Index n, const Index* order, const double* src, int stride, int ncomp,
                                         double* dst) {
  const double* from = src + order[i] * stride;
  for (int d = 0; d < ncomp; ++d) dst[d * n + i] = from[d];
}

// Body i of the tree: scale * src[(first + d) * n + i] goes to component d of body order[i] (ncomp per body).
LOOM_HOST_DEVICE inline void scatter_body(Index i, Index n, const Index* order, const double* src, int first, int ncomp,
                                          double scale, double* dst) {
  double* to = dst + order[i] * ncomp;
  for (int d = 0; d < ncomp; ++d) to[d] = scale * src[(first + d) * n + i];
}

// The loops over all n bodies (an OpenMP loop on the CPU, a kernel on the default stream on the GPU; every
// pointer valid on the backend's side; single passes, no allocation).
void gather_to_tree_order(core::Backend backend, Index n, const Index* order, const double* src, int stride, int ncomp,
                          double* dst);
void scatter_to_user_order(core::Backend backend, Index n, const Index* order, const double* src, int first, int ncomp,
                           double scale, double* dst);

}  // namespace loom::fmm
