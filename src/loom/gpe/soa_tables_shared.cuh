// The SoA tables' weights and per-cell values (soa_stencil.hpp) staged in shared memory by a CUDA block: what the
// soa and march kernels read for every vertex; and the dispatch from the tables' (m_s, F) to those kernels'
// compile-time instantiations. CUDA only.
#pragma once

#include <string>
#include <type_traits>

#include "loom/core/error.hpp"
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

// Calls launch(std::integral_constant<int, m_s>{}, std::integral_constant<int, F>{}) for the tables' (m_s, F), one of
// the six grids': cubic (1, 6), FCC (12, 8), BCC (12, 4), A15 (46, 4), Z (80, 4), C15 (136, 4); throws naming
// `kernel` for any other.
template <class Launch>
void dispatch_grid_shape(const SoaStencilView& t, const char* kernel, Launch&& launch) {
  auto shape = [&](auto m, auto f) { return t.cells == decltype(m)::value && t.faces == decltype(f)::value; };
  using std::integral_constant;
  if (shape(integral_constant<int, 1>{}, integral_constant<int, 6>{}))
    return launch(integral_constant<int, 1>{}, integral_constant<int, 6>{});
  if (shape(integral_constant<int, 12>{}, integral_constant<int, 8>{}))
    return launch(integral_constant<int, 12>{}, integral_constant<int, 8>{});
  if (shape(integral_constant<int, 12>{}, integral_constant<int, 4>{}))
    return launch(integral_constant<int, 12>{}, integral_constant<int, 4>{});
  if (shape(integral_constant<int, 46>{}, integral_constant<int, 4>{}))
    return launch(integral_constant<int, 46>{}, integral_constant<int, 4>{});
  if (shape(integral_constant<int, 80>{}, integral_constant<int, 4>{}))
    return launch(integral_constant<int, 80>{}, integral_constant<int, 4>{});
  if (shape(integral_constant<int, 136>{}, integral_constant<int, 4>{}))
    return launch(integral_constant<int, 136>{}, integral_constant<int, 4>{});
  throw Error(std::string(kernel) + ": no kernel for m_s = " + std::to_string(t.cells) +
              ", F = " + std::to_string(t.faces));
}

}  // namespace loom::gpe
