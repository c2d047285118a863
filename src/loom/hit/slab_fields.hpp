// Moving `loom hit`'s fields between the whole grid and the ranks' slabs (slab_layout.hpp): a rank's part of a
// global field, and the whole field assembled on rank 0 from the slabs in rank order (z order). On one rank both
// are copies. Used for the initial fields (every rank builds the global field and keeps its slab) and for the
// outputs rank 0 writes (checkpoints and snapshots, the files of a one-rank run).
#pragma once

#include <vector>

#include "loom/core/array.hpp"
#include "loom/hit/solver.hpp"

namespace loom::hit {

// The rank's modes (3 components, mode_stride apart) of global modes (3 components of grid.modes()), on the host.
core::Array<Complex> restrict_modes(const SlabLayout& layout, const core::Array<Complex>& global);

// The solver's modes, whole (3 components of grid.modes()), on rank 0; {} on the others. Collective.
std::vector<Complex> gather_modes(const Solver& solver);

// `count` components of grid values (stored as the layout stores them, on the host) as whole fields of
// grid.points() values each, without the rows' padding, on rank 0; {} on the others. Collective.
std::vector<double> gather_points(const Solver& solver, const double* local, int count);

}  // namespace loom::hit
