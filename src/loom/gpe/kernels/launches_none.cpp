// The CUDA launches in a build without CUDA (compiled instead of plain.cu, tuned.cu, soa.cu and march.cu).
#include "loom/core/error.hpp"
#include "loom/gpe/kernels/launches.hpp"

namespace loom::gpe {

namespace {
[[noreturn]] void no_cuda(const char* what) { throw Error(std::string(what) + ": this loom was built without CUDA"); }
}  // namespace

void leapfrog_step_cuda_plain(const Hamiltonian&, const Complex*, Complex*, double, LayerRange, void*) {
  no_cuda("leapfrog_step_cuda_plain");
}
void leapfrog_step_cuda_tuned(bool, const Hamiltonian&, const std::int32_t*, const Complex*, Complex*, double,
                              LayerRange, void*) {
  no_cuda("leapfrog_step_cuda_tuned");
}
void leapfrog_step_cuda_soa(const SoaStencilView&, const Hamiltonian&, const Complex*, Complex*, double, LayerRange,
                            void*, SoaTuning, unsigned*) {
  no_cuda("leapfrog_step_cuda_soa");
}
void leapfrog_step_cuda_march(const SoaStencilView&, const MarchPlan&, const Hamiltonian&, const Complex*, Complex*,
                              double, LayerRange, void*) {
  no_cuda("leapfrog_step_cuda_march");
}

}  // namespace loom::gpe
