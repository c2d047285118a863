// The SoA tables' weights and per-cell values (soa_stencil.hpp) staged in shared memory by a CUDA block: what the
// soa and march kernels read for every vertex. CUDA only.
#pragma once

#include "loom/gpe/soa_stencil.hpp"

namespace loom::gpe {

template <int M, int F>
struct SharedCellTables {
  double weight[M * F], inverse_volume[M], px[M], py[M], pz[M];

  // Every thread of the block takes part; a barrier must follow before the tables are read.
  __device__ void stage(const SoaStencilView& t) {
    for (int k = threadIdx.x; k < M * F; k += blockDim.x) weight[k] = t.weight[k];
    for (int k = threadIdx.x; k < M; k += blockDim.x) {
      inverse_volume[k] = t.inverse_volume[k];
      px[k] = t.px[k];
      py[k] = t.py[k];
      pz[k] = t.pz[k];
    }
  }
  // A view of the staged tables, with the neighbour offsets and shifts from elsewhere (or none).
  __device__ SoaStencilView view(const SoaStencilView& t, const std::int32_t* offset = nullptr,
                                 const std::int32_t* shift = nullptr) const {
    return {M, F, weight, offset, shift, inverse_volume, px, py, pz, t.size, t.reach};
  }
};

}  // namespace loom::gpe
