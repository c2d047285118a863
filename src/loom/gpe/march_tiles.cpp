#include "loom/gpe/march_tiles.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

#include "loom/core/error.hpp"

namespace loom::gpe {

MarchGeometry march_geometry(const dec::StructureLattice& lattice, MarchTiling tiling, int first_layer, int layers) {
  MarchGeometry g;
  g.cells = lattice.cells;
  g.nx = lattice.nx;
  g.ny = lattice.ny;
  g.nz = lattice.nz;
  g.tile_x = std::min(tiling.tile_x, lattice.nx);
  g.tile_y = std::min(tiling.tile_y, lattice.ny);
  g.segment_layers = std::max(1, tiling.segment_layers);
  g.first_layer = first_layer;
  g.layers = layers;
  return g;
}

MarchPlan::MarchPlan(const SoaStencil& soa, const dec::StructureLattice& lattice, MarchTiling tiling) {
  if (tiling.tile_x < 1 || tiling.tile_y < 1 || tiling.segment_layers < 1)
    throw UsageError("march tiling " + std::to_string(tiling.tile_x) + "x" + std::to_string(tiling.tile_y) + ", " +
                     std::to_string(tiling.segment_layers) + " layers: expected positive tile edges and layers");
  // A tile never exceeds the lattice (march_geometry clips it the same way).
  tiling.tile_x = std::min(tiling.tile_x, lattice.nx);
  tiling.tile_y = std::min(tiling.tile_y, lattice.ny);
  tiling_ = tiling;
  const SoaStencilView t = soa.view(core::Where::host);
  const int m = t.cells;
  LOOM_REQUIRE(m == lattice.cells, "MarchPlan: tables of another grid");
  LOOM_REQUIRE(t.reach <= 1, "MarchPlan: the march kernel needs neighbours within one structure");
  LOOM_REQUIRE(tiling.tile_x + 2 <= 1023 && tiling.tile_y + 2 <= 1023 && m < 2048, "MarchPlan: tile too large");
  const MarchGeometry g = march_geometry(lattice, tiling, 0, lattice.nz);
  host_codes_.assign(std::size_t(t.faces) * m, 0);
  std::set<std::tuple<int, int, int>> halo;  // (hy, hx, c): row-major order
  for (int f = 0; f < t.faces; ++f)
    for (int c = 0; c < m; ++c) {
      const std::size_t k = std::size_t(f) * m + c;
      const std::int32_t s = t.shift[k];
      const int dx = (s & 255) - 128, dy = ((s >> 8) & 255) - 128, dz = ((s >> 16) & 255) - 128;
      // offset = c' - c + m (dx + nx (dy + ny dz)) (flat_neighbour_offsets): the neighbour's local index c'.
      const long long flat = (long long)m * (dx + (long long)lattice.nx * (dy + (long long)lattice.ny * dz));
      const int neighbour = static_cast<int>(c + t.offset[k] - flat);
      LOOM_REQUIRE(neighbour >= 0 && neighbour < m, "MarchPlan: a neighbour outside the structure's cells");
      const int delta = (dy * (g.tile_x + 2) + dx) * m + neighbour - c;
      host_codes_[k] = delta * 4 + (dz + 1);
      if (dx == 0 && dy == 0) continue;
      // Every tile structure whose neighbour across this face lies outside the tile adds that halo cell.
      for (int ly = 0; ly < g.tile_y; ++ly)
        for (int lx = 0; lx < g.tile_x; ++lx) {
          const int hx = lx + dx, hy = ly + dy;
          if (hx < 0 || hx >= g.tile_x || hy < 0 || hy >= g.tile_y) halo.insert({hy, hx, neighbour});
        }
    }
  host_halo_.reserve(halo.size());
  for (const auto& [hy, hx, c] : halo) host_halo_.push_back(pack_halo_cell(hx, hy, c));
  codes_ = core::Array<std::int32_t>::from(host_codes_);
  if (!host_halo_.empty()) halo_ = core::Array<std::int32_t>::from(host_halo_);
  shared_bytes_ = std::size_t(march_slots) * g.slot_vertices() * 16;
}

}  // namespace loom::gpe
