// Field snapshots of `loom hit`: the velocity, the vorticity (the spectral curl, for the vortex method's initial
// particles) and its magnitude on the grid as HDF5 + XDMF for ParaView; the velocity in the layout
// initial.type = file reads back.
#pragma once

#include <filesystem>
#include <string>

#include "loom/hit/solver.hpp"

namespace loom::hit {

// The velocity and the vorticity (the spectral curl) on this rank's slab of the grid: 6 components (u, then
// omega) with the layout's point stride, valid on the host, in the solver's work space (so until its next use).
const double* velocity_and_vorticity(Solver& solver);

// Writes fields/velocity and fields/vorticity (n x n x n x 3, x fastest) and fields/vorticity_magnitude; returns
// the XDMF <Grid> element. Collective on several ranks: rank 0 writes the one-rank file, receiving the slabs a
// plane of each rank at a time (`h5_path` is used there only; the others return "").
std::string write_field_snapshot(const std::filesystem::path& h5_path, Solver& solver);

}  // namespace loom::hit
