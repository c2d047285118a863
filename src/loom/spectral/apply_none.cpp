// The CUDA strategies in a build without CUDA: each throws.
#include "loom/core/error.hpp"
#include "loom/spectral/gpu_apply.hpp"

namespace loom::spectral::gpu {

namespace {
[[noreturn]] void no_cuda() { throw Error("spectral: the GPU strategies need a build with CUDA"); }
}  // namespace

void gemm_batched(const double*, const AxisShape&, Index, Index, const double*, double*) { no_cuda(); }
void gemm_streamed(const double*, const AxisShape&, Index, Index, const double*, double*) { no_cuda(); }
void fused(const double*, const AxisShape&, Index, Index, const double*, double*) { no_cuda(); }
ShellLaunch shell_launch(const ShellGradientPlan&) { no_cuda(); }
void shell_gradient(const ShellGradientPlan&, const ShellLaunch&, const sweep::ComponentMap&, const double*, double*) {
  no_cuda();
}
void shell_filter(const ShellGradientPlan&, const ShellLaunch&, const sweep::ComponentMap&, double*) { no_cuda(); }
void shell_gradient(const ShellGradientPlan&, Index, const double*, const double*, double*, double*) { no_cuda(); }
void separable_shell(const sweep::Separable&, const sweep::ComponentMap&, const double*, double*) { no_cuda(); }
void allow_separable_shared(Index) { no_cuda(); }
void csr_spmm(Index, Index, Index, const int*, const int*, const double*, Index, const double*, double*) { no_cuda(); }

}  // namespace loom::spectral::gpu
