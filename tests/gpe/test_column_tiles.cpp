// The soa kernel's column tile order (column_tiles.hpp) on the host: over all columns and their tiles, every vertex
// of the updated layers is covered exactly once and nothing outside them, for lattices whose rows, bands and layer
// segments do not divide evenly; and a column's tiles walk its layers in order, rows in order within a layer.
#include <gtest/gtest.h>

#include <vector>

#include "loom/gpe/column_tiles.hpp"

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

}  // namespace
}  // namespace loom::gpe
