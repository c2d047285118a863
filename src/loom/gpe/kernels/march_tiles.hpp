// The "march" leapfrog kernel's tiling (march.cu): 2.5D blocking. A thread block owns a tile of tile_x x tile_y
// structures and marches it along z over a segment of layers, with psi(n) of five consecutive layers of the tile
// and of its halo in shared memory (a ring: layers z - 1, z, z + 1 are read while z + 2 arrives by asynchronous
// copies, and the fifth slot lets one barrier per layer suffice). Every psi(n) value is then fetched from L2 once
// per layer instead of once per face: the soa kernel is limited by its L2 traffic. Only the halo cells that some
// face of the tile reaches are fetched. In a slot the cells of a structure are permuted and its stride padded so
// that a quarter-warp's 16-byte neighbour loads hit few banks twice (chosen by a search over the tile's actual
// loads). psi may be stored with its rows padded to whole 128-byte lines (march_row_pitch). The figures behind
// each choice: docs/performance.md, "GPE: the measurements behind the kernel code's choices".
// Everything here is index arithmetic shared by the kernel and its host emulation (tests/gpe/test_march_tiles.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/host_device.hpp"
#include "loom/dec/structure_lattice.hpp"
#include "loom/gpe/kernels/soa_stencil.hpp"

namespace loom::gpe {

// Launch choices of the march kernel (`loom bench gpe --march_tile 8x8 --march_layers 64 --march_ahead 1`); each
// grid's default is default_march_tiling (below).
struct MarchTiling {
  int tile_x = 8, tile_y = 8;  // structures of a tile along x and y
  // Layers a block marches through (the last segment may be shorter); 0: balanced per launch
  // (balanced_segment_layers), the default.
  int segment_layers = 0;
  // Layers of psi(n) in flight beyond the three an update reads (1 or 2): while layer z is updated, the copies of
  // layers z + 2 .. z + 1 + ahead are under way.
  int ahead = 1;
  // psi stepped with its rows of structures padded to whole 128-byte lines (march_row_pitch; the integrator packs
  // and unpacks, on slabs too): the copies, loads and stores of every row then start on a line.
  bool pitched_rows = true;
  friend bool operator==(const MarchTiling&, const MarchTiling&) = default;
};

// The march kernel's tiling for a grid of `cells_per_structure` cells per structure: the fastest measured
// (docs/performance.md, "GPE: the measurements behind the kernel code's choices", "march tiling"; scripts/gpu-tune-gpe.sh).
MarchTiling default_march_tiling(int cells_per_structure);

// Cells of a lattice row in memory when rows are padded to whole 128-byte lines (8 cells of 16 bytes): nx m_s
// rounded up to a multiple of 8: rows that start on a line stream faster (docs/performance.md, "GPE: the measurements behind the kernel code's choices",
// "march row pitch").
inline int march_row_pitch(int nx, int cells) { return (nx * cells + 7) / 8 * 8; }

// The most layers a tiling may copy ahead.
constexpr int march_most_ahead = 2;
// Layers of psi(n) in shared memory: z - 1, z, z + 1 read, z + 2 .. z + 1 + ahead arriving, and the slot of z - 2
// that slower threads may still read until the barrier after which the next layer is copied into it.
LOOM_HOST_DEVICE constexpr int march_slots(int ahead) { return ahead + 4; }

// A halo cell: structure (hx, hy) relative to the tile's first structure (-1 <= hx <= tile_x, the same for y) and
// local cell c, packed as (hx + 1) | (hy + 1) << 10 | c << 20.
LOOM_HOST_DEVICE inline std::int32_t pack_halo_cell(int hx, int hy, int c) {
  return (hx + 1) | (hy + 1) << 10 | c << 20;
}
struct HaloCell {
  int hx, hy, c;
};
LOOM_HOST_DEVICE inline HaloCell unpack_halo_cell(std::int32_t code) {
  return {(code & 1023) - 1, ((code >> 10) & 1023) - 1, code >> 20};
}

// The geometry of one launch: the lattice, the tiling and the layer range it updates, and the slot layout.
struct MarchGeometry {
  int cells = 0;  // m_s
  int nx = 0, ny = 0, nz = 0;
  int tile_x = 0, tile_y = 0, segment_layers = 1;
  int first_layer = 0, layers = 0;  // the layers [first_layer, first_layer + layers) are updated
  int stride = 0;                   // slot cells per structure (>= m_s)
  // Cells of a slot: up to the last one a plan's tile or halo uses (at most (tile_x + 2)(tile_y + 2) stride),
  // rounded up to 8 (banks).
  int slot_size = 0;
  int slots = march_slots(1);  // layers in the ring
  int row_pitch = 0;           // cells from one lattice row to the next in memory (>= nx m_s; padding at row ends)

  LOOM_HOST_DEVICE int tiles_x() const { return (nx + tile_x - 1) / tile_x; }
  LOOM_HOST_DEVICE int tiles_y() const { return (ny + tile_y - 1) / tile_y; }
  LOOM_HOST_DEVICE int segments() const { return (layers + segment_layers - 1) / segment_layers; }
  // Work items (one per block): the tile index runs fastest, so the blocks in flight cover neighbouring tiles of
  // the same segment, whose shared halo cells then come from L2.
  LOOM_HOST_DEVICE long long items() const { return (long long)tiles_x() * tiles_y() * segments(); }
  LOOM_HOST_DEVICE int tile_vertices() const { return tile_x * tile_y * cells; }
  // Cells of one layer's slot: the tile and a ring of one structure around it.
  LOOM_HOST_DEVICE int slot_vertices() const { return slot_size; }
  // Position in a slot of the cell in slot position slot_cell (the plan's permutation of the local index) of
  // structure (hx, hy) relative to the tile (-1 <= hx <= tile_x).
  LOOM_HOST_DEVICE int slot_index(int hx, int hy, int slot_cell) const {
    return ((hy + 1) * (tile_x + 2) + hx + 1) * stride + slot_cell;
  }
  // Offset of that cell from the tile's first vertex in a layer of the lattice (in memory: rows row_pitch apart).
  LOOM_HOST_DEVICE int lattice_offset(int hx, int hy, int c) const { return hy * row_pitch + hx * cells + c; }
  // Cells of a layer in memory, and the offset of the item's tile in its layer.
  LOOM_HOST_DEVICE Index layer_cells() const { return Index(ny) * row_pitch; }
  LOOM_HOST_DEVICE Index tile_start(int x0, int y0) const { return Index(y0) * row_pitch + Index(x0) * cells; }

  struct Item {
    int x0, y0;  // the tile's first structure
    int z0, z1;  // the layers [z0, z1) it updates
  };
  LOOM_HOST_DEVICE Item item(long long k) const {
    const int tx = tiles_x(), ty = tiles_y();
    const int tile_i = static_cast<int>(k % tx);
    const long long rest = k / tx;
    const int tile_j = static_cast<int>(rest % ty);
    const int segment = static_cast<int>(rest / ty);
    Item it;
    it.x0 = tile_i * tile_x;
    it.y0 = tile_j * tile_y;
    it.z0 = first_layer + segment * segment_layers;
    const int end = first_layer + layers;
    it.z1 = it.z0 + segment_layers < end ? it.z0 + segment_layers : end;
    return it;
  }
  // The ring slot of layer z for an item starting at z0 (layer z0 - 1 in slot 0).
  LOOM_HOST_DEVICE int slot_of(int z, int z0) const { return (z - z0 + 1) % slots; }

  // Tile vertex k (0 <= k < tile_vertices()): k = (ly tile_x + lx) m_s + c, so consecutive threads take
  // consecutive vertices of a row segment (coalesced).
  struct TileVertex {
    int lx, ly, c;
  };
  LOOM_HOST_DEVICE TileVertex tile_vertex(int k) const {
    const int s = k / cells;
    const int ly = s / tile_x;
    return {s - ly * tile_x, ly, k - s * cells};
  }
};

// Per face slot k = f m_s + c of the SoA tables: the neighbour's position in the slots relative to the vertex's
// own, delta = (dy (tile_x + 2) + dx) stride + p(c') - p(c) (p: the slot permutation), packed with dz as
// delta * 4 + (dz + 1) (dz in -1..1).
LOOM_HOST_DEVICE inline int march_delta(std::int32_t code) { return code >> 2; }  // arithmetic shift
LOOM_HOST_DEVICE inline int march_dz(std::int32_t code) { return (code & 3) - 1; }

// The march kernel's tables for one lattice and tiling: neighbour codes (F x m_s, as the SoA tables) and the
// halo cells the tile's faces reach (sorted by row, so a warp's copies of them fall into few segments).
class MarchPlan {
 public:
  MarchPlan() = default;
  // Throws loom::Error when the stencil reaches past one structure (no such grid exists) and UsageError when the
  // tiling is not positive. psi is stored with rows `row_pitch` cells apart (0: nx m_s, the lattice's layout;
  // the integrator passes march_row_pitch when the tiling asks for pitched rows and it owns the layout).
  MarchPlan(const SoaStencil& soa, const dec::StructureLattice& lattice, MarchTiling tiling, int row_pitch = 0);

  struct View {
    const std::int32_t* neighbour_code = nullptr;  // F x m_s
    const std::int32_t* halo = nullptr;            // halo_cells packed halo cells (lattice positions)
    const std::int32_t* halo_slot = nullptr;       // their positions in a slot
    const std::int32_t* slot_cell = nullptr;       // m_s: the slot position of each local cell
    int halo_cells = 0;
  };
  View view(core::Where where) const {
    const bool halo = !halo_.empty();
    return {codes_.read(where), halo ? halo_.read(where) : nullptr, halo ? halo_slot_.read(where) : nullptr,
            slot_cell_.read(where), static_cast<int>(halo_.size())};
  }
  const MarchTiling& tiling() const { return tiling_; }
  // Cells from one row to the next in the arrays this plan's launches take.
  int row_pitch() const { return row_pitch_; }
  // The geometry of a launch over layers [first_layer, first_layer + layers) with this plan's slot layout, for a
  // device running `resident_blocks` blocks of the kernel at once (what a balanced tiling's segments are cut for;
  // <= 0: unknown, segments of balanced_default_layers).
  MarchGeometry geometry(int first_layer, int layers, long long resident_blocks = 0) const;
  // Bytes of dynamic shared memory a block of this plan needs (the ring of slots).
  std::size_t shared_bytes() const { return shared_bytes_; }
  // The tables on the host (for the emulation and the tests).
  const std::vector<std::int32_t>& host_codes() const { return host_codes_; }
  const std::vector<std::int32_t>& host_halo() const { return host_halo_; }
  const std::vector<std::int32_t>& host_halo_slot() const { return host_halo_slot_; }
  const std::vector<std::int32_t>& host_slot_cell() const { return host_slot_cell_; }
  // Shared-memory wavefronts per quarter-warp 16-byte load of the tile's neighbours (1: no bank conflict), with
  // the chosen layout and with the plain one (identity, stride m_s).
  double wavefronts_per_load() const { return wavefronts_; }
  double plain_wavefronts_per_load() const { return plain_wavefronts_; }

 private:
  MarchTiling tiling_;
  dec::StructureLattice lattice_;
  int stride_ = 0;
  int used_slot_cells_ = 0;  // one past the last slot position of the tile and its halo
  int row_pitch_ = 0;
  std::size_t shared_bytes_ = 0;
  double wavefronts_ = 0, plain_wavefronts_ = 0;
  std::vector<std::int32_t> host_codes_, host_halo_, host_halo_slot_, host_slot_cell_;
  core::Array<std::int32_t> codes_, halo_, halo_slot_, slot_cell_;
};

// The geometry of a launch over `layers` of `lattice` with `tiling`, plain slot layout (stride m_s): the work
// items and the lattice offsets, as with any plan's layout. A balanced tiling's segments are cut for
// `resident_blocks` (see MarchPlan::geometry). `used_slot_cells` > 0 trims the slots to that many cells (rounded up
// to 8): a plan's tile and halo use none beyond.
// `row_pitch` > 0: rows that many cells apart in memory (default nx m_s: the lattice's own layout).
MarchGeometry march_geometry(const dec::StructureLattice& lattice, MarchTiling tiling, int first_layer, int layers,
                             int stride = 0, long long resident_blocks = 0, int used_slot_cells = 0, int row_pitch = 0);

// Segment length of a balanced tiling on a well-filled device (and when `resident_blocks` <= 0, the device unknown:
// host emulation), and the shortest it is cut to.
constexpr int balanced_default_layers = 64;
constexpr int balanced_shortest_layers = 8;
// Rounds of resident blocks a balanced launch is cut to fill at least.
constexpr int balanced_rounds = 4;

// Layers per segment for a launch of `tiles` tiles over `layers` layers on a device that runs `resident_blocks`
// blocks at once: the longest of balanced_shortest_layers .. balanced_default_layers (at most `layers`) that makes
// at least balanced_rounds x resident_blocks work items, else the shortest: long segments are fastest where the
// lattice gives several rounds of blocks, shorter ones keep every SM busy on small lattices
// (docs/performance.md, "GPE: the measurements behind the kernel code's choices", "march segments").
int balanced_segment_layers(long long tiles, int layers, long long resident_blocks);

}  // namespace loom::gpe
