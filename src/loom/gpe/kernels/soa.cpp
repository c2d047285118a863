// The soa variant (registry.hpp): the stencil in structure-of-arrays form (soa_stencil.hpp), which this file owns,
// stepped by persistent CUDA blocks (soa.cu) or an OpenMP loop over structures on the CPU (soa_cpu.cpp).
#include <map>
#include <memory>

#include "loom/core/array.hpp"
#include "loom/gpe/kernels/launches.hpp"
#include "loom/gpe/kernels/soa_cpu.hpp"
#include "loom/gpe/kernels/step_kernel.hpp"

namespace loom::gpe {

SoaTuning default_soa_tuning(int cells_per_structure, Index dof) {
  const bool ordered = dof >= 50'000'000;  // tiles in order pay from here on (below, their counter costs)
  if (cells_per_structure >= 136) return {16, 1, false, ordered};  // C15
  if (cells_per_structure <= 12) return {0, 2, false, ordered};    // cubic, FCC, BCC
  return {16, 2, false, ordered};                                  // A15, Z
}

namespace {

class SoaKernel final : public StepKernel {
 public:
  explicit SoaKernel(const KernelContext& context)
      : backend_(context.backend),
        h_(context.h),
        tables_(context.domain->stencil, context.domain->lattice),
        tuning_(context.soa) {}

  void step(const Complex* now, Complex* other, double dt, LayerRange layers, void* stream) override {
    if (backend_ == core::Backend::cpu)
      return leapfrog_step_cpu_soa(tables_.view(core::Where::host), h_, now, other, dt, layers);
    leapfrog_step_cuda_soa(tables_.view(core::Where::device), h_, now, other, dt, layers, stream, tuning_,
                           counter(stream));
  }

  int row_pitch() const override { return h_.lattice.nx * h_.lattice.cells; }

 private:
  // The tile counter of `stream` (tiles taken in order): launches on a stream run in order, so one word per stream,
  // zeroed before each launch, serves every launch on it.
  unsigned* counter(void* stream) {
    if (!tuning_.ordered_tiles) return nullptr;
    core::Array<unsigned>& c = counters_[stream];
    if (c.empty()) c = core::Array<unsigned>(1);
    return c.write(core::Where::device);
  }

  core::Backend backend_;
  Hamiltonian h_;
  SoaStencil tables_;
  SoaTuning tuning_;
  std::map<void*, core::Array<unsigned>> counters_;
};

}  // namespace

std::unique_ptr<StepKernel> make_soa_kernel(const KernelContext& context) {
  return std::make_unique<SoaKernel>(context);
}

}  // namespace loom::gpe
