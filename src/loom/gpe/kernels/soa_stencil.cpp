#include "loom/gpe/kernels/soa_stencil.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "loom/core/error.hpp"

namespace loom::gpe {

SoaStencil::SoaStencil(const dec::Stencil& stencil, const dec::StructureLattice& lattice)
    : cells_(stencil.cells()), faces_(stencil.max_faces()) {
  const dec::StencilView v = stencil.view(core::Where::host);
  size_ = v.size;
  const auto offsets = flat_neighbour_offsets(stencil, lattice);
  const std::size_t n = std::size_t(faces_) * cells_;
  const auto m = static_cast<std::size_t>(cells_);
  std::vector<double> weight(n, 0.0), inverse_volume(m), px(m), py(m), pz(m);
  std::vector<std::int32_t> offset(n, 0), shift(n, 128 | 128 << 8 | 128 << 16);  // padding: itself, weight 0
  neighbour_cells_.resize(n);
  for (std::size_t k = 0; k < n; ++k) neighbour_cells_[k] = static_cast<std::int32_t>(k % m);
  for (int c = 0; c < cells_; ++c) {
    inverse_volume[std::size_t(c)] = v.inverse_volume[c];
    px[std::size_t(c)] = v.position[c].x;
    py[std::size_t(c)] = v.position[c].y;
    pz[std::size_t(c)] = v.position[c].z;
    for (int f = v.first[c]; f < v.first[c + 1]; ++f) {
      const dec::StencilEntry& e = v.entries[f];
      LOOM_REQUIRE(e.dx >= -127 && e.dx <= 127 && e.dy >= -127 && e.dy <= 127 && e.dz >= -127 && e.dz <= 127,
                   "SoaStencil: structure offset out of range");
      const std::size_t k = std::size_t(f - v.first[c]) * cells_ + c;
      weight[k] = e.weight;
      offset[k] = offsets[std::size_t(f)];
      shift[k] = (e.dx + 128) | (e.dy + 128) << 8 | (e.dz + 128) << 16;
      neighbour_cells_[k] = e.neighbour;
      reach_ = std::max({reach_, std::abs(e.dx), std::abs(e.dy), std::abs(e.dz)});
    }
  }
  weight_ = core::Array<double>::from(weight);
  offset_ = core::Array<std::int32_t>::from(offset);
  shift_ = core::Array<std::int32_t>::from(shift);
  inverse_volume_ = core::Array<double>::from(inverse_volume);
  px_ = core::Array<double>::from(px);
  py_ = core::Array<double>::from(py);
  pz_ = core::Array<double>::from(pz);
}

std::vector<std::int32_t> flat_neighbour_offsets(const dec::Stencil& stencil, const dec::StructureLattice& lattice) {
  const dec::StencilView v = stencil.view(core::Where::host);
  std::vector<std::int32_t> out(static_cast<std::size_t>(stencil.entry_count()));
  for (int c = 0; c < v.cells; ++c)
    for (int f = v.first[c]; f < v.first[c + 1]; ++f) {
      const dec::StencilEntry& e = v.entries[f];
      const long long offset =
          (long long)(e.neighbour - c) +
          (long long)lattice.cells * (e.dx + (long long)lattice.nx * (e.dy + (long long)lattice.ny * e.dz));
      LOOM_REQUIRE(offset > INT32_MIN && offset < INT32_MAX, "flat_neighbour_offsets: lattice too large for 32 bits");
      out[static_cast<std::size_t>(f)] = static_cast<std::int32_t>(offset);
    }
  return out;
}

SoaStencilView SoaStencil::view(core::Where where) const {
  return {cells_,
          faces_,
          weight_.read(where),
          offset_.read(where),
          shift_.read(where),
          inverse_volume_.read(where),
          px_.read(where),
          py_.read(where),
          pz_.read(where),
          size_,
          reach_};
}

}  // namespace loom::gpe
