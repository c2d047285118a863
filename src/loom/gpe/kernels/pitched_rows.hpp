// psi with the lattice's rows padded in memory (the march kernel's pitched rows, march_tiles.hpp): row r of
// `row_cells` cells (nx m_s) starts at r * pitch instead of r * row_cells. The padding cells hold zeros; no kernel
// reads or writes them.
#pragma once

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/gpe/model/hamiltonian.hpp"

namespace loom::gpe {

struct RowPitch {
  Index rows = 0;     // ny nz (a layer's rows times the layers)
  int row_cells = 0;  // nx m_s
  int pitch = 0;      // >= row_cells
  Index flat_size() const { return rows * row_cells; }
  Index pitched_size() const { return rows * pitch; }
  bool padded() const { return pitch != row_cells; }
};

// flat (rows x row_cells) into pitched (rows x pitch, the padding zeroed), and back, on `backend`.
void pack_rows(core::Backend backend, const RowPitch& p, const core::Array<Complex>& flat,
               core::Array<Complex>& pitched);
void unpack_rows(core::Backend backend, const RowPitch& p, const core::Array<Complex>& pitched,
                 core::Array<Complex>& flat);

}  // namespace loom::gpe
