// Field snapshots of `loom hit`: the velocity and the vorticity magnitude on the grid as HDF5 + XDMF for
// ParaView, the velocity in the layout initial.type = file reads back.
#pragma once

#include <filesystem>
#include <string>

#include "loom/hit/solver.hpp"

namespace loom::hit {

// Writes fields/velocity (n x n x n x 3) and fields/vorticity_magnitude; returns the XDMF <Grid> element.
std::string write_field_snapshot(const std::filesystem::path& h5_path, Solver& solver);

}  // namespace loom::hit
