// The plain variant (registry.hpp): the Hamiltonian's formula (model/hamiltonian.hpp) in a core::parallel_for, on
// either backend; the reference the tuned variants are tested against. Compiled by nvcc in CUDA builds.
#include <memory>

#include "loom/core/parallel_for.hpp"
#include "loom/gpe/kernels/launches.hpp"
#include "loom/gpe/kernels/step_kernel.hpp"

namespace loom::gpe {
namespace {

class PlainKernel final : public StepKernel {
 public:
  explicit PlainKernel(const KernelContext& context) : backend_(context.backend), h_(context.h) {}

  void step(const Complex* now, Complex* other, double dt, LayerRange layers, void* stream) override {
    require_layers_inside(h_.lattice, layers);
    if (layers.empty()) return;
    const Hamiltonian h = h_;
    if (backend_ == core::Backend::cuda) {
      if (layers == all_layers(h.lattice) && stream == nullptr) {
        // One thread per vertex, consecutive threads on consecutive vertices (coalesced; Algorithm 1's layout).
        core::parallel_for(backend_, h.lattice.size(),
                           [=] LOOM_HOST_DEVICE(Index i) { leapfrog_update(h, now, other, dt, i); });
        return;
      }
      return leapfrog_step_cuda_plain(h, now, other, dt, layers, stream);
    }
    // One structure per iteration: its m_s vertices share the instance, so no division per vertex.
    const int cells = h.lattice.cells;
    const Index first = Index(h.lattice.nx) * h.lattice.ny * layers.first;
    core::parallel_for(core::Backend::cpu, Index(h.lattice.nx) * h.lattice.ny * layers.count,
                       [=] LOOM_HOST_DEVICE(Index k) {
                         const Index st = first + k;
                         const dec::StructureInstance instance = h.lattice.structure(st);
                         for (int c = 0; c < cells; ++c)
                           leapfrog_update(h, now, other, dt, st * cells + c, c, instance);
                       });
  }

  int row_pitch() const override { return h_.lattice.nx * h_.lattice.cells; }

 private:
  core::Backend backend_;
  Hamiltonian h_;
};

}  // namespace

std::unique_ptr<StepKernel> make_plain_kernel(const KernelContext& context) {
  return std::make_unique<PlainKernel>(context);
}

}  // namespace loom::gpe
