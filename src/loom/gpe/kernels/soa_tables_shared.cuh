// The SoA tables' weights and per-cell values (soa_stencil.hpp) staged in shared memory by a CUDA block: what the
// soa and march kernels read for every vertex; and the dispatch from the tables' (m_s, F) to those kernels'
// compile-time instantiations. CUDA only.
#pragma once

#include <string>
#include <type_traits>

#include "loom/core/error.hpp"
#include "loom/gpe/kernels/soa_stencil.hpp"

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

// launch(integral_constant<M>, integral_constant<F>) when the tables are of shape (M, F); false otherwise.
template <int M, int F, class Launch>
bool launch_if_shape(const SoaStencilView& t, Launch& launch) {
  if (t.cells != M || t.faces != F) return false;
  launch(std::integral_constant<int, M>{}, std::integral_constant<int, F>{});
  return true;
}

// Calls launch(std::integral_constant<int, m_s>{}, std::integral_constant<int, F>{}) for the tables' (m_s, F), one of
// the six grids': cubic (1, 6), FCC (12, 8), BCC (12, 4), A15 (46, 4), Z (80, 4), C15 (136, 4); throws naming
// `kernel` for any other.
template <class Launch>
void dispatch_grid_shape(const SoaStencilView& t, const char* kernel, Launch&& launch) {
  if (launch_if_shape<1, 6>(t, launch) || launch_if_shape<12, 8>(t, launch) || launch_if_shape<12, 4>(t, launch) ||
      launch_if_shape<46, 4>(t, launch) || launch_if_shape<80, 4>(t, launch) || launch_if_shape<136, 4>(t, launch))
    return;
  throw Error(std::string(kernel) + ": no kernel for m_s = " + std::to_string(t.cells) +
              ", F = " + std::to_string(t.faces));
}

}  // namespace loom::gpe
