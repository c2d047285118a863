// The soa kernel's column tile order (column_tiles.hpp) on the host: over all columns and their tiles, every vertex
// of the updated layers is covered exactly once and nothing outside them, for lattices whose rows, bands and layer
// segments do not divide evenly; and a column's tiles walk its layers in order, rows in order within a layer.
#include <gtest/gtest.h>

#include <vector>

#include "gpe/gpe_fixtures.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/kernels/column_tiles.hpp"
#include "loom/gpe/kernels/soa_stencil.hpp"

namespace loom::gpe {
namespace {

TEST(ColumnTiles, EveryVertexOfTheLayersExactlyOnce) {
  struct Case {
    int cells, nx, ny, nz, first, layers, band_rows, column_layers, tile_vertices;
  };
  const Case cases[] = {
      {12, 7, 5, 6, 0, 6, 2, 4, 32},    // rows of 84 vertices in 3 segments, 3 bands (last short), 2 layer segments
      {12, 7, 5, 6, 1, 4, 16, 3, 512},  // a band taller than the lattice, a segment longer than a row
      {1, 9, 4, 3, 2, 1, 1, 1, 4},      // cubic, one layer of a slab
      {136, 2, 3, 5, 0, 5, 2, 2, 256},  // C15-sized structures
  };
  for (const Case& c : cases) {
    const ColumnTiles t{c.cells * c.nx, c.ny, c.first, c.layers, c.band_rows, c.column_layers, c.tile_vertices};
    const long long per_layer = (long long)c.cells * c.nx * c.ny;
    std::vector<int> hits(static_cast<std::size_t>(per_layer * c.nz), 0);
    for (long long column = 0; column < t.columns(); ++column) {
      int last_sz = -1, last_sy = -1;
      for (int k = 0; k < t.tiles_per_column(); ++k) {
        const auto tile = t.tile(column, k);
        if (!tile.active) continue;
        ASSERT_TRUE(tile.sz > last_sz || (tile.sz == last_sz && tile.sy > last_sy)) << "column " << column;
        last_sz = tile.sz;
        last_sy = tile.sy;
        ASSERT_GE(tile.sz, c.first);
        ASSERT_LT(tile.sz, c.first + c.layers);
        ASSERT_LT(tile.sy, c.ny);
        ASSERT_LE(tile.end, c.cells * c.nx);
        for (int v = tile.begin; v < tile.end; ++v)
          ++hits[static_cast<std::size_t>(per_layer * tile.sz + (long long)c.cells * c.nx * tile.sy + v)];
      }
    }
    for (long long i = 0; i < per_layer * c.nz; ++i) {
      const bool inside = i / per_layer >= c.first && i / per_layer < c.first + c.layers;
      ASSERT_EQ(hits[static_cast<std::size_t>(i)], inside ? 1 : 0) << "vertex " << i << ", case m_s " << c.cells;
    }
  }
}

// The column path of the CUDA soa kernel emulated on the host: every column's tiles, each vertex through row_vertex
// and soa_apply as the kernel does, update psi(n-1) into psi(n+1); the result equals the CPU integrator's step on
// every grid, on a whole lattice and on a range of layers (a slab's interior).
TEST(ColumnTiles, EmulatedColumnStepEqualsTheCpuStep) {
  for (dec::GridType grid : dec::all_grid_types()) {
    const auto domain = make_lattice_domain(grid, 0.7, 4, 5, 6);
    const double dt = 1e-3;
    const test::OneStepReference ref = test::one_step_reference(domain, 0.8, 40.0, dt);
    const std::vector<Complex>& now = ref.now;
    const Hamiltonian h = domain.hamiltonian(core::Where::host, {0.8, 40.0});
    const SoaStencil soa(domain.stencil, domain.lattice);
    const SoaStencilView t = soa.view(core::Where::host);
    const int cells = domain.lattice.cells;
    struct Range {
      int first, count;
    };
    for (const Range layers : {Range{0, domain.lattice.nz}, Range{2, 3}})
      for (const int column_layers : {1, 4})
        for (const int band_rows : {2, 16}) {
          const ColumnTiles columns{cells * domain.lattice.nx,
                                    domain.lattice.ny,
                                    layers.first,
                                    layers.count,
                                    band_rows,
                                    std::min(column_layers, layers.count),
                                    64};
          std::vector<Complex> other = ref.before;
          for (long long column = 0; column < columns.columns(); ++column)
            for (int k = 0; k < columns.tiles_per_column(); ++k) {
              const auto tile = columns.tile(column, k);
              if (!tile.active) continue;
              for (int v = tile.begin; v < tile.end; ++v) {
                const RowVertex at = row_vertex(tile, v, cells, domain.lattice.nx, domain.lattice.ny);
                const Complex m_psi = soa_apply<0>(t, domain.lattice, domain.origin, {0.8, 40.0}, now.data(), at.index,
                                                   at.cell, at.structure, h.z_offset);
                other[std::size_t(at.index)] -= (2 * dt) * core::times_i(m_psi);
              }
            }
          const double worst = test::one_step_error(ref, other, domain.lattice.nz, {layers.first, layers.count});
          EXPECT_LT(worst, 1e-13) << dec::to_string(grid) << " layers " << layers.first << "+" << layers.count
                                  << ", columns of " << column_layers << ", bands of " << band_rows;
        }
  }
}

}  // namespace
}  // namespace loom::gpe
