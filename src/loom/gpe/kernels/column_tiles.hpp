// The soa kernel's "column" tile order (soa.cu, SoaTuning::column_layers): a block takes a whole
// column, one segment of a row of structures (tile_vertices consecutive vertices) in each of `band_rows` rows, over
// `column_layers` consecutive layers, and updates it layer by layer, row by row. A vertex's +-z and +-y
// neighbours inside the column were then loaded by the same block moments before, so they come from its SM's L1
// instead of the L2, the other orders' limit (docs/performance.md, "GPE: the measurements behind the kernel code's choices").
// Columns are numbered layer segment first, then band of rows, then segment along x, so the blocks in flight hold
// neighbouring columns of one layer segment and share their edge rows through the L2.
#pragma once

#include "loom/core/host_device.hpp"
#include "loom/dec/structure_lattice.hpp"

namespace loom::gpe {

struct ColumnTiles {
  int row_vertices = 0;   // m_s * nx
  int ny = 0;             // rows per layer
  int first_layer = 0;    // the layers [first_layer, first_layer + layers) are updated
  int layers = 0;
  int band_rows = 1;      // rows of a column
  int column_layers = 1;  // layers of a column
  int tile_vertices = 1;  // vertices of a column's row segment (one block's tile)

  LOOM_HOST_DEVICE int segments_per_row() const { return (row_vertices + tile_vertices - 1) / tile_vertices; }
  LOOM_HOST_DEVICE int bands() const { return (ny + band_rows - 1) / band_rows; }
  LOOM_HOST_DEVICE int layer_segments() const { return (layers + column_layers - 1) / column_layers; }
  LOOM_HOST_DEVICE long long columns() const {
    return (long long)segments_per_row() * bands() * layer_segments();
  }
  LOOM_HOST_DEVICE int tiles_per_column() const { return band_rows * column_layers; }

  // Tile k (0 <= k < tiles_per_column()) of column `column`: its layer and row, and the vertex range
  // [begin, end) within that row. active is false for rows or layers past the lattice's end.
  struct Tile {
    int sz, sy, begin, end;
    bool active;
  };
  LOOM_HOST_DEVICE Tile tile(long long column, int k) const {
    const int segments = segments_per_row(), band_count = bands();
    const int segment = static_cast<int>(column % segments);
    const long long rest = column / segments;
    const int band = static_cast<int>(rest % band_count);
    const int layer_segment = static_cast<int>(rest / band_count);
    const int layer = k / band_rows, row = k - layer * band_rows;
    Tile t;
    t.sz = first_layer + layer_segment * column_layers + layer;
    t.sy = band * band_rows + row;
    t.begin = segment * tile_vertices;
    t.end = t.begin + tile_vertices < row_vertices ? t.begin + tile_vertices : row_vertices;
    t.active = t.sy < ny && layer_segment * column_layers + layer < layers;
    return t;
  }
};

// Vertex v of a column tile's row (tile.begin <= v < tile.end): its flat index, local cell and structure, for a
// lattice of `cells` vertices per structure (the kernel's M) and nx by ny structures per layer.
struct RowVertex {
  Index index;
  int cell;
  dec::StructureInstance structure;
};
LOOM_HOST_DEVICE inline RowVertex row_vertex(const ColumnTiles::Tile& tile, int v, int cells, int nx, int ny) {
  const int sx = v / cells;
  return {(Index(tile.sz) * ny + tile.sy) * (Index(cells) * nx) + v, v - sx * cells, {sx, tile.sy, tile.sz}};
}

}  // namespace loom::gpe
