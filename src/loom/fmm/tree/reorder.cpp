// The reorder loops of reorder.hpp on either backend (a loom_backend_sources file: nvcc compiles the kernels).
#include "loom/fmm/tree/reorder.hpp"

#include "loom/core/parallel_for.hpp"

namespace loom::fmm {

void gather_to_tree_order(core::Backend backend, Index n, const Index* order, const double* src, int stride, int ncomp,
                          double* dst) {
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index i) { gather_body(i, n, order, src, stride, ncomp, dst); });
}

void scatter_to_user_order(core::Backend backend, Index n, const Index* order, const double* src, int first, int ncomp,
                           double scale, double* dst) {
  core::parallel_for(backend, n,
                     [=] LOOM_HOST_DEVICE(Index i) { scatter_body(i, n, order, src, first, ncomp, scale, dst); });
}

}  // namespace loom::fmm
