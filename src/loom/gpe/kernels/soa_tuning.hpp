// Launch choices of the soa kernel (soa.cu), selectable in `loom bench gpe` (--soa_band_rows, --soa_vertices,
// --soa_tiles, --soa_order, --soa_columns).
#pragma once

#include "loom/core/backend.hpp"

namespace loom::gpe {

// The height in rows of structures of the bands the tiles sweep (0: a whole slice, no bands), the vertices each
// thread updates (1 or 2), whether a tile stays inside one row of structures, whether the blocks take tiles in order
// from an atomic counter (else by a grid stride), and the column order.
struct SoaTuning {
  int band_rows = 16;
  int vertices_per_thread = 1;
  bool row_tiles = false;
  bool ordered_tiles = false;
  // > 0: column order (column_tiles.hpp): a block updates band_rows rows (at least 1) of one row segment over this
  // many layers; row_tiles is then implied. Kept for `loom bench gpe`, no default picks it: not measured on a GPU
  // yet (docs/performance.md, "GPE: the measurements behind the kernel code's choices", "soa column order").
  int column_layers = 0;
  friend bool operator==(const SoaTuning&, const SoaTuning&) = default;
};

// The fastest soa launch measured for a grid and size (docs/performance.md, "GPE: the measurements behind the kernel code's choices",
// "soa launch"; scripts/gpu-tune-gpe.sh).
SoaTuning default_soa_tuning(int cells_per_structure, Index dof);

}  // namespace loom::gpe
