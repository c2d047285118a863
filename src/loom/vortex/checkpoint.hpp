// loom vortex's checkpoint: the particles, the time, the step, AB2's previous rates (so that a restart continues
// the same steps) and the effective input, in one HDF5 file.
#pragma once

#include <filesystem>
#include <string>

#include "loom/vortex/particles.hpp"
#include "loom/vortex/rates.hpp"

namespace loom::vortex {

struct Checkpoint {
  Particles particles;
  Rates previous;  // empty when the run had none
  double time = 0;
  Index step = 0;
  bool periodic = false;
  Index lattice_n = 0;  // periodic: particles per direction of the run's lattice
  Index grid_n = 0;     // periodic: the statistics' grid (particles.n; lattice_n in files written before it)
  std::string input;
};

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c);
// Throws UsageError naming `key` for a missing or foreign file.
Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key = "initial.file");

}  // namespace loom::vortex
