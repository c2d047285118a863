// The march variant (registry.hpp, march.cu, march_tiles.hpp): owns the SoA tables, the tiling's plan and the
// layout it steps, psi with rows padded to whole 128-byte lines when the tiling asks for pitched rows.
#include <memory>

#include "loom/gpe/kernels/launches.hpp"
#include "loom/gpe/kernels/step_kernel.hpp"

namespace loom::gpe {
namespace {

class MarchKernel final : public StepKernel {
 public:
  explicit MarchKernel(const KernelContext& context)
      : h_(context.h),
        tables_(context.domain->stencil, context.domain->lattice),
        plan_(tables_, context.domain->lattice, context.march,
              context.march.pitched_rows ? march_row_pitch(h_.lattice.nx, h_.lattice.cells) : 0) {}

  void step(const Complex* now, Complex* other, double dt, LayerRange layers, void* stream) override {
    leapfrog_step_cuda_march(tables_.view(core::Where::device), plan_, h_, now, other, dt, layers, stream);
  }

  int row_pitch() const override { return plan_.row_pitch(); }

 private:
  Hamiltonian h_;
  SoaStencil tables_;
  MarchPlan plan_;
};

}  // namespace

std::unique_ptr<StepKernel> make_march_kernel(const KernelContext& context) {
  return std::make_unique<MarchKernel>(context);
}

}  // namespace loom::gpe
