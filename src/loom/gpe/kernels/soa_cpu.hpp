// The soa leapfrog step on the CPU (OpenMP over structures): the same SoA tables and formula as the CUDA soa
// kernel (soa_stencil.hpp), with m_s and the face count fixed at compile time for the six grids, so the inner
// loops unroll and no integer division is done per vertex; interior structures skip the boundary masks.
#pragma once

#include "loom/gpe/kernels/layer_range.hpp"
#include "loom/gpe/kernels/soa_stencil.hpp"
#include "loom/gpe/model/hamiltonian.hpp"

namespace loom::gpe {

// other[i] = other[i] - 2 i dt (M now)_i over `layers`; `t` and `h` hold host views.
void leapfrog_step_cpu_soa(const SoaStencilView& t, const Hamiltonian& h, const Complex* now, Complex* other,
                           double dt, LayerRange layers);

}  // namespace loom::gpe
