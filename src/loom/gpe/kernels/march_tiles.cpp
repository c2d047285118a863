#include "loom/gpe/kernels/march_tiles.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <tuple>

#include "loom/core/error.hpp"

namespace loom::gpe {

int balanced_segment_layers(long long tiles, int layers, long long resident_blocks) {
  if (layers <= 0) return 1;
  const int longest = std::min(layers, balanced_default_layers);
  if (resident_blocks <= 0 || tiles <= 0) return longest;
  const int shortest = std::min(layers, balanced_shortest_layers);
  for (int length = longest; length > shortest; --length)
    if (tiles * ((layers + length - 1) / length) >= balanced_rounds * resident_blocks) return length;
  return shortest;
}

MarchGeometry march_geometry(const dec::StructureLattice& lattice, MarchTiling tiling, int first_layer, int layers,
                             int stride, long long resident_blocks, int used_slot_cells, int row_pitch) {
  MarchGeometry g;
  g.cells = lattice.cells;
  g.nx = lattice.nx;
  g.ny = lattice.ny;
  g.nz = lattice.nz;
  g.tile_x = std::min(tiling.tile_x, lattice.nx);
  g.tile_y = std::min(tiling.tile_y, lattice.ny);
  g.segment_layers =
      tiling.segment_layers > 0
          ? tiling.segment_layers
          : balanced_segment_layers(static_cast<long long>(g.tiles_x()) * g.tiles_y(), layers, resident_blocks);
  g.first_layer = first_layer;
  g.layers = layers;
  g.stride = std::max(stride, lattice.cells);
  const int ring_cells = (g.tile_x + 2) * (g.tile_y + 2) * g.stride;
  g.slot_size = ((used_slot_cells > 0 ? std::min(used_slot_cells, ring_cells) : ring_cells) + 7) / 8 * 8;
  g.slots = march_slots(tiling.ahead);
  g.row_pitch = row_pitch > 0 ? row_pitch : lattice.nx * lattice.cells;
  return g;
}

namespace {

struct FaceNeighbour {
  int dx, dy, dz, cell;
};

// Mean shared-memory wavefronts of the tile's 16-byte loads (each vertex's own value and its F neighbours) per
// quarter-warp, for a slot layout: a quarter-warp is 8 consecutive tile vertices (k = threadIdx.x + j Threads with
// Threads a multiple of 32), and its load takes as many wavefronts as the most distinct addresses falling into one
// of the 8 banks of 16 bytes. Slots start at multiples of 8 cells, so which layer a face reaches does not matter.
double mean_wavefronts(const std::vector<FaceNeighbour>& neighbours, int faces, const MarchGeometry& g,
                       const std::vector<int>& slot_cell) {
  const int m = g.cells, vertices = g.tile_vertices();
  long long wavefronts = 0, loads = 0;
  int address[8];
  for (int q = 0; q < vertices; q += 8) {
    const int lanes = std::min(8, vertices - q);
    for (int f = -1; f < faces; ++f) {
      for (int l = 0; l < lanes; ++l) {
        const MarchGeometry::TileVertex v = g.tile_vertex(q + l);
        const FaceNeighbour e = f < 0 ? FaceNeighbour{0, 0, 0, v.c} : neighbours[std::size_t(f) * m + v.c];
        address[l] = g.slot_index(v.lx + e.dx, v.ly + e.dy, slot_cell[std::size_t(e.cell)]);
      }
      int worst = 1;
      for (int bank = 0; bank < 8; ++bank) {
        int distinct = 0;
        for (int l = 0; l < lanes; ++l) {
          if (address[l] % 8 != bank) continue;
          bool seen = false;
          for (int o = 0; o < l; ++o) seen = seen || address[o] == address[l];
          distinct += seen ? 0 : 1;
        }
        worst = std::max(worst, distinct);
      }
      wavefronts += worst;
      ++loads;
    }
  }
  return loads > 0 ? double(wavefronts) / double(loads) : 1;
}

struct SlotLayout {
  int stride;
  std::vector<int> slot_cell;
  double wavefronts;
  double plain_wavefronts;  // of the plain layout (identity, stride m_s)
};

// Blocks of a ring of `ring_bytes` that fit the shared memory of one SM of compute capability 9.0 (228 KiB, of
// which each block also takes 1 KiB reserved and the kernel's static tables, `static_bytes`).
int blocks_per_sm(std::size_t ring_bytes, std::size_t static_bytes) {
  return static_cast<int>((228 * 1024) / (ring_bytes + static_bytes + 1024));
}

// The permutation of the cells within a structure's slot and the stride (m_s to m_s + 4, padding) with the fewest
// wavefronts, among the strides that keep as many blocks per SM as the plain layout: steepest descent over
// pairwise swaps from the identity, for each stride; a wider stride is taken only when it saves more than 2%.
// Deterministic. Grids of m_s > 16 keep the plain layout (the search's cost grows as m_s^3; their halos, not the
// banks, limit the march kernel there).
SlotLayout choose_slot_layout(const std::vector<FaceNeighbour>& neighbours, int faces,
                              const dec::StructureLattice& lattice, MarchTiling tiling) {
  const int m = lattice.cells;
  std::vector<int> identity(static_cast<std::size_t>(m));
  std::iota(identity.begin(), identity.end(), 0);
  const MarchGeometry plain = march_geometry(lattice, tiling, 0, lattice.nz, m);
  const double plain_cost = mean_wavefronts(neighbours, faces, plain, identity);
  SlotLayout best{m, identity, plain_cost, plain_cost};
  if (m > 16) return best;
  const std::size_t static_bytes = std::size_t(m) * faces * 12 + std::size_t(m) * 32;
  auto ring_bytes = [](const MarchGeometry& g) { return std::size_t(g.slots) * g.slot_vertices() * 16; };
  const int blocks = blocks_per_sm(ring_bytes(plain), static_bytes);
  for (int stride = m; stride <= m + 4; ++stride) {
    const MarchGeometry g = march_geometry(lattice, tiling, 0, lattice.nz, stride);
    if (blocks_per_sm(ring_bytes(g), static_bytes) < blocks) break;
    std::vector<int> cells = identity;
    double cost = mean_wavefronts(neighbours, faces, g, cells);
    for (int pass = 0; pass < 8; ++pass) {
      bool improved = false;
      for (int a = 0; a < m; ++a)
        for (int b = a + 1; b < m; ++b) {
          std::swap(cells[std::size_t(a)], cells[std::size_t(b)]);
          const double c = mean_wavefronts(neighbours, faces, g, cells);
          if (c < cost - 1e-12) {
            cost = c;
            improved = true;
          } else {
            std::swap(cells[std::size_t(a)], cells[std::size_t(b)]);
          }
        }
      if (!improved) break;
    }
    if (cost < 0.98 * best.wavefronts) best = {stride, cells, cost, plain_cost};
  }
  return best;
}

}  // namespace

MarchPlan::MarchPlan(const SoaStencil& soa, const dec::StructureLattice& lattice, MarchTiling tiling, int row_pitch)
    : lattice_(lattice), row_pitch_(row_pitch > 0 ? row_pitch : lattice.nx * lattice.cells) {
  LOOM_REQUIRE(row_pitch_ >= lattice.nx * lattice.cells, "MarchPlan: rows shorter than the lattice's");
  if (tiling.tile_x < 1 || tiling.tile_y < 1 || tiling.segment_layers < 0)
    throw UsageError("march tiling " + std::to_string(tiling.tile_x) + "x" + std::to_string(tiling.tile_y) + ", " +
                     std::to_string(tiling.segment_layers) +
                     " layers: expected positive tile edges and layers (0: balanced)");
  if (tiling.ahead < 1 || tiling.ahead > march_most_ahead)
    throw UsageError("march tiling: " + std::to_string(tiling.ahead) + " layers copied ahead; allowed: 1 to " +
                     std::to_string(march_most_ahead));
  // A tile never exceeds the lattice (march_geometry clips it the same way).
  tiling.tile_x = std::min(tiling.tile_x, lattice.nx);
  tiling.tile_y = std::min(tiling.tile_y, lattice.ny);
  tiling_ = tiling;
  const SoaStencilView t = soa.view(core::Where::host);
  const int m = t.cells;
  LOOM_REQUIRE(m == lattice.cells, "MarchPlan: tables of another grid");
  LOOM_REQUIRE(t.reach <= 1, "MarchPlan: the march kernel needs neighbours within one structure");
  LOOM_REQUIRE(tiling.tile_x + 2 <= 1023 && tiling.tile_y + 2 <= 1023 && m < 2048, "MarchPlan: tile too large");
  // Each face slot's neighbour: its structure offset and local index.
  std::vector<FaceNeighbour> neighbours(std::size_t(t.faces) * m);
  for (std::size_t k = 0; k < neighbours.size(); ++k) {
    const StructureShift d = decode_shift(t.shift[k]);
    neighbours[k] = {d.dx, d.dy, d.dz, soa.neighbour_cells()[k]};
  }
  const SlotLayout layout = choose_slot_layout(neighbours, t.faces, lattice, tiling);
  stride_ = layout.stride;
  wavefronts_ = layout.wavefronts;
  plain_wavefronts_ = layout.plain_wavefronts;
  host_slot_cell_.assign(layout.slot_cell.begin(), layout.slot_cell.end());
  const MarchGeometry g = geometry(0, lattice.nz);  // the whole ring of structures (no halo known yet)

  host_codes_.assign(neighbours.size(), 0);
  std::set<std::tuple<int, int, int>> halo;  // (hy, hx, c): row-major order
  for (std::size_t k = 0; k < neighbours.size(); ++k) {
    const int c = static_cast<int>(k % std::size_t(m));
    const FaceNeighbour& e = neighbours[k];
    const int delta = (e.dy * (g.tile_x + 2) + e.dx) * g.stride + host_slot_cell_[std::size_t(e.cell)] -
                      host_slot_cell_[std::size_t(c)];
    host_codes_[k] = delta * 4 + (e.dz + 1);
    if (e.dx == 0 && e.dy == 0) continue;
    // Every tile structure whose neighbour across this face lies outside the tile adds that halo cell.
    for (int ly = 0; ly < g.tile_y; ++ly)
      for (int lx = 0; lx < g.tile_x; ++lx) {
        const int hx = lx + e.dx, hy = ly + e.dy;
        if (hx < 0 || hx >= g.tile_x || hy < 0 || hy >= g.tile_y) halo.insert({hy, hx, e.cell});
      }
  }
  host_halo_.reserve(halo.size());
  for (const auto& [hy, hx, c] : halo) {
    host_halo_.push_back(pack_halo_cell(hx, hy, c));
    host_halo_slot_.push_back(g.slot_index(hx, hy, host_slot_cell_[std::size_t(c)]));
  }
  // The slots end after the last cell used: the last tile structure's or a halo cell's (BCC 8 x 8: 1192 cells of
  // the ring's 1200).
  used_slot_cells_ = g.slot_index(g.tile_x - 1, g.tile_y - 1, 0) + g.stride;
  for (const std::int32_t position : host_halo_slot_) used_slot_cells_ = std::max(used_slot_cells_, position + 1);
  codes_ = core::Array<std::int32_t>::from(host_codes_);
  slot_cell_ = core::Array<std::int32_t>::from(host_slot_cell_);
  if (!host_halo_.empty()) {
    halo_ = core::Array<std::int32_t>::from(host_halo_);
    halo_slot_ = core::Array<std::int32_t>::from(host_halo_slot_);
  }
  const MarchGeometry trimmed = geometry(0, lattice.nz);
  shared_bytes_ = std::size_t(trimmed.slots) * trimmed.slot_vertices() * 16;
}

MarchGeometry MarchPlan::geometry(int first_layer, int layers, long long resident_blocks) const {
  return march_geometry(lattice_, tiling_, first_layer, layers, stride_, resident_blocks, used_slot_cells_, row_pitch_);
}

MarchTiling default_march_tiling(int cells_per_structure) {
  // Tiles of 32 x 16 for cubic, 8 x 8 for FCC and BCC; the grids of larger m_s take the largest tiles whose rings
  // of five layers fit one block per SM (A15 4 x 4, Z 3 x 3, C15 3 x 2), where auto picks soa instead.
  switch (cells_per_structure) {
    case 1:
      return {32, 16, 0};
    case 12:
      return {8, 8, 0};
    case 46:
      return {4, 4, 0};
    case 80:
      return {3, 3, 0};
    default:
      return {3, 2, 0};
  }
}

}  // namespace loom::gpe
