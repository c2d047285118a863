// Compiled by nvcc in CUDA builds (loom_backend_sources): the loops run as OpenMP loops or CUDA kernels.
#include "loom/gpe/pitched_rows.hpp"

#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"

namespace loom::gpe {

void pack_rows(core::Backend backend, const RowPitch& p, const core::Array<Complex>& flat,
               core::Array<Complex>& pitched) {
  LOOM_REQUIRE(p.pitch >= p.row_cells && flat.size() == std::size_t(p.flat_size()),
               "pack_rows: the flat array does not match the rows");
  const auto w = core::where(backend);
  if (pitched.size() != std::size_t(p.pitched_size())) pitched = core::Array<Complex>(std::size_t(p.pitched_size()));
  const Complex* in = flat.read(w);
  Complex* out = pitched.write(w);
  const int row_cells = p.row_cells, pitch = p.pitch;
  core::parallel_for(backend, p.pitched_size(), [=] LOOM_HOST_DEVICE(Index i) {
    const Index row = i / pitch;
    const int cell = static_cast<int>(i - row * pitch);
    out[i] = cell < row_cells ? in[row * row_cells + cell] : Complex{};
  });
}

void unpack_rows(core::Backend backend, const RowPitch& p, const core::Array<Complex>& pitched,
                 core::Array<Complex>& flat) {
  LOOM_REQUIRE(p.pitch >= p.row_cells && pitched.size() == std::size_t(p.pitched_size()),
               "unpack_rows: the pitched array does not match the rows");
  const auto w = core::where(backend);
  if (flat.size() != std::size_t(p.flat_size())) flat = core::Array<Complex>(std::size_t(p.flat_size()));
  const Complex* in = pitched.read(w);
  Complex* out = flat.write(w);
  const int row_cells = p.row_cells, pitch = p.pitch;
  core::parallel_for(backend, p.flat_size(), [=] LOOM_HOST_DEVICE(Index i) {
    const Index row = i / row_cells;
    out[i] = in[row * pitch + (i - row * row_cells)];
  });
}

}  // namespace loom::gpe
