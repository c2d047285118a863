// Compiled by nvcc in CUDA builds (loom_backend_sources): the loops run as OpenMP loops or CUDA kernels.
#include "loom/gpe/kernels/pitched_rows.hpp"

#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"

namespace loom::gpe {
namespace {

// `in`'s rows (in_pitch cells apart) into `out` (rows out_pitch apart): each row's first row_cells cells copied, the
// rest of an output row (padding) zeroed. Packing and unpacking are this copy with the pitches swapped.
void copy_rows(core::Backend backend, Index rows, int row_cells, const core::Array<Complex>& in, int in_pitch,
               core::Array<Complex>& out, int out_pitch) {
  const auto w = core::where(backend);
  const Index out_size = rows * out_pitch;
  if (out.size() != std::size_t(out_size)) out = core::Array<Complex>(std::size_t(out_size));
  const Complex* from = in.read(w);
  Complex* to = out.write(w);
  core::parallel_for(backend, out_size, [=] LOOM_HOST_DEVICE(Index i) {
    const Index row = i / out_pitch;
    const int cell = static_cast<int>(i - row * out_pitch);
    to[i] = cell < row_cells ? from[row * in_pitch + cell] : Complex{};
  });
}

}  // namespace

void pack_rows(core::Backend backend, const RowPitch& p, const core::Array<Complex>& flat,
               core::Array<Complex>& pitched) {
  LOOM_REQUIRE(p.pitch >= p.row_cells && flat.size() == std::size_t(p.flat_size()),
               "pack_rows: the flat array does not match the rows");
  copy_rows(backend, p.rows, p.row_cells, flat, p.row_cells, pitched, p.pitch);
}

void unpack_rows(core::Backend backend, const RowPitch& p, const core::Array<Complex>& pitched,
                 core::Array<Complex>& flat) {
  LOOM_REQUIRE(p.pitch >= p.row_cells && pitched.size() == std::size_t(p.pitched_size()),
               "unpack_rows: the pitched array does not match the rows");
  copy_rows(backend, p.rows, p.row_cells, pitched, p.pitch, flat, p.row_cells);
}

}  // namespace loom::gpe
