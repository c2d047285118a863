// The tuned and shared variants (registry.hpp, tuned.cu): CUDA kernels after the paper's Algorithm 1 that read
// each neighbour through a flat offset table, which this file owns.
#include <memory>

#include "loom/core/array.hpp"
#include "loom/gpe/kernels/launches.hpp"
#include "loom/gpe/kernels/step_kernel.hpp"

namespace loom::gpe {
namespace {

class TunedKernel final : public StepKernel {
 public:
  TunedKernel(const KernelContext& context, bool shared)
      : shared_(shared),
        h_(context.h),
        offsets_(
            core::Array<std::int32_t>::from(flat_neighbour_offsets(context.domain->stencil, context.domain->lattice))) {
  }

  void step(const Complex* now, Complex* other, double dt, LayerRange layers, void* stream) override {
    leapfrog_step_cuda_tuned(shared_, h_, offsets_.read(core::Where::device), now, other, dt, layers, stream);
  }

  int row_pitch() const override { return h_.lattice.nx * h_.lattice.cells; }

 private:
  bool shared_;
  Hamiltonian h_;
  core::Array<std::int32_t> offsets_;  // flat neighbour offsets j - i per stencil entry
};

}  // namespace

std::unique_ptr<StepKernel> make_tuned_kernel(const KernelContext& context) {
  return std::make_unique<TunedKernel>(context, false);
}

std::unique_ptr<StepKernel> make_shared_kernel(const KernelContext& context) {
  return std::make_unique<TunedKernel>(context, true);
}

}  // namespace loom::gpe
