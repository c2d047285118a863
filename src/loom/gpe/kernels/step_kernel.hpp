// The leapfrog step behind one interface: one implementation per variant in this folder (registry.hpp lists them),
// each owning the tables and the memory layout it steps. The integrator holds one StepKernel and calls step() over
// the whole lattice, or on a rank's slab over its edge layers and its interior on two streams (section 4.2).
#pragma once

#include "loom/core/backend.hpp"
#include "loom/gpe/kernels/layer_range.hpp"
#include "loom/gpe/kernels/march_tiles.hpp"
#include "loom/gpe/kernels/soa_tuning.hpp"
#include "loom/gpe/model/hamiltonian.hpp"
#include "loom/gpe/model/lattice_domain.hpp"

namespace loom::gpe {

// What a kernel is made for: the backend, the lattice (the rank's slab, halos included), the operator with views
// on the backend's side, and the launch choices of the variants that have them.
struct KernelContext {
  core::Backend backend = core::Backend::cpu;
  const LatticeDomain* domain = nullptr;
  Hamiltonian h;
  SoaTuning soa;
  MarchTiling march;
};

class StepKernel {
 public:
  virtual ~StepKernel() = default;
  // psi(n+1) = psi(n-1) - 2 i dt (M psi(n)), eq. (7), over `layers`, written over `other` (psi(n-1)). Both arrays
  // are in this kernel's layout (row_pitch) on the backend's side; `stream` is a cudaStream_t (nullptr: the
  // default stream; ignored on the CPU).
  virtual void step(const Complex* now, Complex* other, double dt, LayerRange layers, void* stream) = 0;
  // Cells from one row of structures to the next in the arrays step() takes: nx m_s is the lattice's own layout;
  // more means rows padded in memory (pitched_rows.hpp), which the integrator packs and unpacks.
  virtual int row_pitch() const = 0;
};

}  // namespace loom::gpe
