// The march kernel's tiling (march_tiles.hpp) on the host: its work items cover every vertex of the updated layers
// exactly once; and the kernel's whole algorithm emulated with the same index arithmetic (a ring of five or six
// slots per block, slots poisoned with NaN before each item, layers copied in as the kernel copies them, one or two
// layers ahead, the tile's vertices then updated from the slots) equals the CPU integrator's step on every grid, whole
// lattices and layer ranges, tiles that do not divide the lattice and segments of one layer. A halo cell missing from
// the plan would read a NaN; the plan's halo is also checked to hold only cells some face reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "gpe/gpe_fixtures.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/kernels/march_tiles.hpp"
#include "loom/gpe/kernels/pitched_rows.hpp"
#include "loom/gpe/kernels/soa_stencil.hpp"
#include "loom/gpe/model/lattice_domain.hpp"

namespace loom::gpe {
namespace {

TEST(MarchTiles, ItemsCoverEveryVertexOfTheLayersOnce) {
  struct Case {
    int cells, nx, ny, nz, first, layers, tile_x, tile_y, segment;
  };
  const Case cases[] = {
      {12, 7, 5, 6, 0, 6, 3, 2, 4},    // partial tiles in x and y, a short last segment
      {12, 7, 5, 6, 1, 4, 16, 8, 32},  // a tile larger than the lattice (clipped), one segment
      {1, 9, 4, 3, 2, 1, 4, 4, 1},     // cubic, one layer of a slab
      {136, 2, 3, 5, 0, 5, 2, 2, 2},   // C15-sized structures
  };
  for (const Case& c : cases) {
    const dec::StructureLattice lattice{c.cells, c.nx, c.ny, c.nz, false};
    const MarchGeometry geo = march_geometry(lattice, {c.tile_x, c.tile_y, c.segment}, c.first, c.layers);
    const long long per_layer = (long long)c.cells * c.nx * c.ny;
    std::vector<int> hits(static_cast<std::size_t>(per_layer * c.nz), 0);
    for (long long k = 0; k < geo.items(); ++k) {
      const auto it = geo.item(k);
      ASSERT_GE(it.z0, c.first);
      ASSERT_LT(it.z0, it.z1);
      ASSERT_LE(it.z1, c.first + c.layers);
      for (int z = it.z0; z < it.z1; ++z)
        for (int v = 0; v < geo.tile_vertices(); ++v) {
          const auto tv = geo.tile_vertex(v);
          ASSERT_EQ(geo.slot_index(tv.lx, tv.ly, tv.c) / c.cells % (geo.tile_x + 2), tv.lx + 1);
          if (it.x0 + tv.lx >= c.nx || it.y0 + tv.ly >= c.ny) continue;
          const long long i =
              per_layer * z + (long long)c.cells * (it.y0 * c.nx + it.x0) + geo.lattice_offset(tv.lx, tv.ly, tv.c);
          ++hits[static_cast<std::size_t>(i)];
        }
    }
    for (long long i = 0; i < per_layer * c.nz; ++i) {
      const bool inside = i / per_layer >= c.first && i / per_layer < c.first + c.layers;
      ASSERT_EQ(hits[static_cast<std::size_t>(i)], inside ? 1 : 0) << "vertex " << i << ", case m_s " << c.cells;
    }
  }
}

// One step of the march kernel as the device runs it, on the host. Returns the slot cells read, per item's ring
// position (to check that the halo holds nothing unused).
std::set<int> march_emulated_step(const SoaStencilView& t, const MarchPlan& plan, const Hamiltonian& h,
                                  const Complex* now, Complex* other, double dt, LayerRange layers,
                                  long long resident_blocks = 0) {
  const MarchGeometry geo = plan.geometry(layers.first, layers.count, resident_blocks);
  const int m = geo.cells, sv = geo.slot_vertices();
  const auto& codes = plan.host_codes();
  const auto& halo = plan.host_halo();
  const auto& slot_cell = plan.host_slot_cell();
  const Index layer_vertices = geo.layer_cells();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Complex> ring(std::size_t(geo.slots) * sv);
  std::set<int> read;
  for (long long k = 0; k < geo.items(); ++k) {
    const auto it = geo.item(k);
    std::fill(ring.begin(), ring.end(), Complex{nan, nan});
    const Index tile_start = geo.tile_start(it.x0, it.y0);
    auto copy = [&](int z, int hx, int hy, int c, int slot_position) {
      const bool inside =
          z >= 0 && z < geo.nz && unsigned(it.x0 + hx) < unsigned(geo.nx) && unsigned(it.y0 + hy) < unsigned(geo.ny);
      ring[std::size_t(geo.slot_of(z, it.z0) * sv + slot_position)] =
          inside ? now[Index(z) * layer_vertices + tile_start + geo.lattice_offset(hx, hy, c)] : Complex{};
    };
    // The layer each slot holds. The kernel copies layer z + 1 + ahead while slower threads may still update layer
    // z - 1, reading z - 2: the slot written must hold nothing newer than z - 3.
    std::vector<int> held(std::size_t(geo.slots), std::numeric_limits<int>::min());
    auto load_layer = [&](int z, int updating) {
      int& evicted = held[std::size_t(geo.slot_of(z, it.z0))];
      EXPECT_LT(evicted, updating - 2) << "layer " << z << " overwrites layer " << evicted << " while layer "
                                       << updating - 1 << " may still be updated";
      evicted = z;
      for (int v = 0; v < geo.tile_vertices(); ++v) {
        const auto tv = geo.tile_vertex(v);
        copy(z, tv.lx, tv.ly, tv.c, geo.slot_index(tv.lx, tv.ly, slot_cell[std::size_t(tv.c)]));
      }
      for (std::size_t i = 0; i < halo.size(); ++i) {
        const HaloCell c = unpack_halo_cell(halo[i]);
        copy(z, c.hx, c.hy, c.c, plan.host_halo_slot()[i]);
      }
    };
    const int ahead = plan.tiling().ahead;
    for (int z = it.z0 - 1; z <= it.z0 + ahead && z <= it.z1; ++z) load_layer(z, it.z0);
    for (int z = it.z0; z < it.z1; ++z) {
      if (z + 1 + ahead <= it.z1) load_layer(z + 1 + ahead, z);
      const int here = geo.slot_of(z, it.z0);
      for (int v = 0; v < geo.tile_vertices(); ++v) {
        const auto tv = geo.tile_vertex(v);
        const int sx = it.x0 + tv.lx, sy = it.y0 + tv.ly;
        if (sx >= geo.nx || sy >= geo.ny) continue;
        const int at = geo.slot_index(tv.lx, tv.ly, slot_cell[std::size_t(tv.c)]);
        const Complex center = ring[std::size_t(here * sv + at)];
        Complex sum{};
        for (int f = 0; f < t.faces; ++f) {
          const int e = f * m + tv.c;
          const int neighbour = at + march_delta(codes[std::size_t(e)]);
          EXPECT_TRUE(neighbour >= 0 && neighbour < sv) << "slot position " << neighbour << " outside the slot";
          const int layer = (here + march_dz(codes[std::size_t(e)]) + geo.slots) % geo.slots;
          read.insert(neighbour);
          sum += t.weight[e] * (ring[std::size_t(layer * sv + neighbour)] - center);
        }
        const Complex m_psi = soa_row(t, h.origin, h.physics, center, sum, tv.c, {sx, sy, z}, h.z_offset);
        Complex& out = other[Index(z) * layer_vertices + tile_start + geo.lattice_offset(tv.lx, tv.ly, tv.c)];
        out = out - (2 * dt) * core::times_i(m_psi);
      }
    }
  }
  return read;
}

TEST(MarchTiles, EmulatedMarchStepEqualsTheCpuStep) {
  for (dec::GridType grid : dec::all_grid_types()) {
    const auto domain = make_lattice_domain(grid, 0.7, 5, 4, 7);
    const double dt = 1e-3;
    const test::OneStepReference ref = test::one_step_reference(domain, 0.8, 40.0, dt);
    const Hamiltonian h = domain.hamiltonian(core::Where::host, {0.8, 40.0});
    const SoaStencil soa(domain.stencil, domain.lattice);
    const SoaStencilView t = soa.view(core::Where::host);
    for (const LayerRange layers : {LayerRange{0, domain.lattice.nz}, LayerRange{2, 3}, LayerRange{6, 1}})
      for (const MarchTiling tiling :
           {default_march_tiling(domain.lattice.cells), MarchTiling{2, 3, 2}, MarchTiling{1, 1, 1},
            MarchTiling{4, 4, 3}, MarchTiling{2, 2, 0}, MarchTiling{3, 2, 2, 2}, MarchTiling{2, 2, 1, 2}})
        for (const bool pitched : {false, true}) {
          // Pitched: rows padded past whole lines (8 more cells than march_row_pitch, so that every grid pads), psi
          // packed in, the step's result unpacked.
          const dec::StructureLattice& lattice = domain.lattice;
          const RowPitch rows{Index(lattice.ny) * lattice.nz, lattice.nx * lattice.cells,
                              pitched ? march_row_pitch(lattice.nx, lattice.cells) + 8 : lattice.nx * lattice.cells};
          const MarchPlan plan(soa, lattice, tiling, rows.pitch);
          core::Array<Complex> now, other;
          pack_rows(core::Backend::cpu, rows, core::Array<Complex>::from(ref.now), now);
          pack_rows(core::Backend::cpu, rows, core::Array<Complex>::from(ref.before), other);
          // A balanced tiling for a device of 5 resident blocks (one segment here: none is cut below 8 layers).
          const long long resident = tiling.segment_layers == 0 && tiling.tile_x == 2 ? 5 : 0;
          const std::set<int> read = march_emulated_step(t, plan, h, now.read(core::Where::host),
                                                         other.read_write(core::Where::host), dt, layers, resident);
          core::Array<Complex> result;
          unpack_rows(core::Backend::cpu, rows, other, result);
          const std::vector<Complex> flat(result.host().begin(), result.host().end());
          const double worst = test::one_step_error(ref, flat, domain.lattice.nz, layers);
          const std::string label = std::string(dec::to_string(grid)) + " layers " + std::to_string(layers.first) +
                                    "+" + std::to_string(layers.count) + ", tile " +
                                    std::to_string(plan.tiling().tile_x) + "x" + std::to_string(plan.tiling().tile_y) +
                                    ", segments of " + std::to_string(tiling.segment_layers) + ", " +
                                    std::to_string(tiling.ahead) + " ahead, row pitch " + std::to_string(rows.pitch);
          EXPECT_LT(worst, 1e-13) << label;
          // Every halo cell of the plan is read by some face (none fetched in vain), and the slot layout is a
          // permutation of the cells.
          for (std::size_t i = 0; i < plan.host_halo().size(); ++i)
            EXPECT_TRUE(read.count(plan.host_halo_slot()[i])) << label << ": halo cell " << i << " never read";
          std::vector<std::int32_t> cells = plan.host_slot_cell();
          std::sort(cells.begin(), cells.end());
          for (int c = 0; c < domain.lattice.cells; ++c) ASSERT_EQ(cells[std::size_t(c)], c) << label;
          EXPECT_LE(plan.wavefronts_per_load(), plan.plain_wavefronts_per_load()) << label;
        }
  }
}

// Pitched rows: packing puts row r's cells at r pitch and zeros in the padding; unpacking gives the flat array back.
TEST(MarchTiles, PitchedRowsRoundTrip) {
  const RowPitch rows{6, 36, march_row_pitch(3, 12)};  // BCC rows of 3 structures: 36 cells, padded to 40
  ASSERT_EQ(rows.pitch, 40);
  ASSERT_EQ(march_row_pitch(2, 12), 24);  // already whole lines
  ASSERT_EQ(march_row_pitch(465, 1), 472);
  std::vector<Complex> values(std::size_t(rows.flat_size()));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = {double(i) + 1, -double(i)};
  core::Array<Complex> pitched, back;
  pack_rows(core::Backend::cpu, rows, core::Array<Complex>::from(values), pitched);
  ASSERT_EQ(pitched.size(), std::size_t(rows.pitched_size()));
  const auto p = pitched.host();
  for (Index r = 0; r < rows.rows; ++r)
    for (int c = 0; c < rows.pitch; ++c) {
      const Complex want = c < rows.row_cells ? values[std::size_t(r * rows.row_cells + c)] : Complex{};
      ASSERT_EQ(p[std::size_t(r * rows.pitch + c)].re, want.re) << r << " " << c;
      ASSERT_EQ(p[std::size_t(r * rows.pitch + c)].im, want.im) << r << " " << c;
    }
  unpack_rows(core::Backend::cpu, rows, pitched, back);
  ASSERT_EQ(back.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(back.host()[i].re, values[i].re) << i;
}

// A balanced tiling's segments: 64 layers where the lattice gives enough blocks (BCC 203^3 in 8 x 8 tiles on 264
// resident blocks), shorter on a small lattice (cubic 271^3 in 32 x 16 tiles, 153 of them, on 396: 27 layers make
// 11 segments, 1683 items >= 4 x 396, 28 would make 10), never below 8 layers; and on assorted launches the
// longest length of 8..64 that fills balanced_rounds rounds.
TEST(MarchTiles, BalancedSegmentsFillTheDevice) {
  EXPECT_EQ(balanced_segment_layers(26 * 26, 203, 264), 64);
  EXPECT_EQ(balanced_segment_layers(9 * 17, 271, 396), 27);
  EXPECT_EQ(balanced_segment_layers(1, 1000, 396), balanced_shortest_layers);
  EXPECT_EQ(balanced_segment_layers(26 * 26, 203, 0), balanced_default_layers);
  EXPECT_EQ(balanced_segment_layers(100, 7, 0), 7);
  EXPECT_EQ(balanced_segment_layers(100, 5, 1000), 5);
  auto fills = [](long long tiles, int layers, long long resident, int length) {
    return tiles * ((layers + length - 1) / length) >= balanced_rounds * resident;
  };
  for (const long long tiles : {1ll, 17ll, 153ll, 676ll, 1156ll, 4096ll})
    for (const int layers : {1, 2, 15, 64, 119, 203, 270, 302, 1000})
      for (const long long resident : {1ll, 132ll, 264ll, 396ll, 100000ll}) {
        const int chosen = balanced_segment_layers(tiles, layers, resident);
        const int longest = std::min(layers, balanced_default_layers);
        const int shortest = std::min(layers, balanced_shortest_layers);
        const std::string label = std::to_string(tiles) + " tiles, " + std::to_string(layers) + " layers, " +
                                  std::to_string(resident) + " resident: " + std::to_string(chosen);
        ASSERT_GE(chosen, shortest) << label;
        ASSERT_LE(chosen, longest) << label;
        if (chosen > shortest) {
          EXPECT_TRUE(fills(tiles, layers, resident, chosen)) << label;
        }
        for (int length = chosen + 1; length <= longest; ++length)
          EXPECT_FALSE(fills(tiles, layers, resident, length)) << label << " against " << length;
      }
}

// The halo's size on the default tiles, against the tile (what the kernel copies beyond the tile itself), and the
// bank conflicts of the slot layout.
TEST(MarchTiles, HaloIsASmallFractionOfTheDefaultTile) {
  for (dec::GridType grid : dec::all_grid_types()) {
    const auto domain = make_lattice_domain(grid, 0.7, 70, 70, 3);
    const SoaStencil soa(domain.stencil, domain.lattice);
    const MarchPlan plan(soa, domain.lattice, default_march_tiling(domain.lattice.cells));
    const MarchGeometry geo = plan.geometry(0, 3);
    const double fraction = double(plan.host_halo().size()) / geo.tile_vertices();
    std::printf(
        "%-5s tile %dx%d: %d vertices, halo %zu cells (%.0f%%), ring %zu KiB, stride %d, %.2f wavefronts per "
        "16-byte load (plain layout %.2f)\n",
        dec::to_string(grid).data(), geo.tile_x, geo.tile_y, geo.tile_vertices(), plan.host_halo().size(),
        100 * fraction, plan.shared_bytes() / 1024, geo.stride, plan.wavefronts_per_load(),
        plan.plain_wavefronts_per_load());
    // A whole ring of structures would be ((tx + 2)(ty + 2) - tx ty) / (tx ty) of the tile.
    const double ring =
        double((geo.tile_x + 2) * (geo.tile_y + 2) - geo.tile_x * geo.tile_y) / (geo.tile_x * geo.tile_y);
    EXPECT_LT(fraction, ring) << dec::to_string(grid);
  }
}

}  // namespace
}  // namespace loom::gpe
