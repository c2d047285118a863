// The CUDA kernels' entry points in a build without CUDA: each throws (the CUDA backend is refused earlier by
// backend checks, so reaching these is a bug or a direct call from a test or benchmark).
#include "loom/core/error.hpp"
#include "loom/fmm/gpu/kernels.hpp"

namespace loom::fmm::gpu {
namespace {
[[noreturn]] void not_built() { throw Error("fmm: this loom was built without CUDA"); }
}  // namespace

void m2l(const TreeView&, int, int, const Complex<double>*, Complex<double>*, bool, int) { not_built(); }
void p2p_laplace(const TreeView&, Index, const Vec3d*, const double*, double*, Precision) { not_built(); }
void p2p_biot_savart(const TreeView&, Index, const Vec3d*, const double*, const double*, double*, Precision) {
  not_built();
}
void p2p_gaussian(const TreeView&, Index, const Vec3d*, const double*, const double*, double*, Precision) {
  not_built();
}
void p2m(const TreeView&, int, int, const int*, int, Index, const Vec3d*, const double*, Complex<double>*) {
  not_built();
}
void m2m_level(const TreeView&, int, int, int, int, Complex<double>*) { not_built(); }
void l2l_level(const TreeView&, int, int, int, int, Complex<double>*) { not_built(); }
void l2p_laplace(const TreeView&, int, const int*, int, Index, const Vec3d*, const Complex<double>*, double*) {
  not_built();
}
void direct_laplace(Index, const Vec3d*, const double*, double*) { not_built(); }

}  // namespace loom::fmm::gpu
