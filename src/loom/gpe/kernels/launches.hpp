// The CUDA launches behind the step kernels (plain.cu, tuned.cu, soa.cu, march.cu): one step over `layers`,
// other[i] = other[i] - 2 i dt (M now)_i, eq. (7); h and the tables hold device views; `stream` is a cudaStream_t
// (nullptr: the default stream). In a build without CUDA each throws (launches_none.cpp).
#pragma once

#include <cstdint>

#include "loom/gpe/kernels/layer_range.hpp"
#include "loom/gpe/kernels/march_tiles.hpp"
#include "loom/gpe/kernels/soa_stencil.hpp"
#include "loom/gpe/kernels/soa_tuning.hpp"
#include "loom/gpe/model/hamiltonian.hpp"

namespace loom::gpe {

// The Hamiltonian's formula, one thread per vertex (the slab path of the plain kernel).
void leapfrog_step_cuda_plain(const Hamiltonian& h, const Complex* now, Complex* other, double dt, LayerRange layers,
                              void* stream);
// The tuned kernel, or with `shared` the shared one; `offsets` is a device pointer to flat_neighbour_offsets().
void leapfrog_step_cuda_tuned(bool shared, const Hamiltonian& h, const std::int32_t* offsets, const Complex* now,
                              Complex* other, double dt, LayerRange layers, void* stream);
// The soa kernel; `t` holds device views of the SoA tables; `counter` a device word for tiles taken in order
// (tuning.ordered_tiles), zeroed on `stream` before the launch, one per stream.
void leapfrog_step_cuda_soa(const SoaStencilView& t, const Hamiltonian& h, const Complex* now, Complex* other,
                            double dt, LayerRange layers, void* stream, SoaTuning tuning, unsigned* counter);
// The march kernel; `plan` was made for h.lattice. Throws UsageError when the plan's tile does not fit a block
// (shared memory, at most 2048 vertices).
void leapfrog_step_cuda_march(const SoaStencilView& t, const MarchPlan& plan, const Hamiltonian& h, const Complex* now,
                              Complex* other, double dt, LayerRange layers, void* stream);

}  // namespace loom::gpe
