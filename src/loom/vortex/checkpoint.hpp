// loom vortex's checkpoint: the particles, the time, the step, AB2's previous rates and, with physics.spreading =
// reinit, the interval under way (so that a restart continues the same steps), and the effective input, in one
// HDF5 file.
#pragma once

#include <filesystem>
#include <string>

#include "loom/vortex/particles.hpp"
#include "loom/vortex/rates.hpp"

namespace loom::vortex {

// physics.spreading = reinit's interval between two reinitialisations: open from its first half of the diffusion
// (sigma^2 += spread, folded into the strengths by a reinitialisation at start_time) to its end.
struct SpreadingInterval {
  bool open = false;
  double start_time = 0, spread = 0;
};

struct Checkpoint {
  Particles particles;
  Rates previous;  // empty when the run had none
  double time = 0;
  double dt = 0;  // the step the run took (0 in files written before it)
  Index step = 0;
  bool periodic = false;
  Index lattice_n = 0;  // periodic: particles per direction of the run's lattice
  Index grid_n = 0;     // periodic: the statistics' grid (particles.n; lattice_n in files written before it)
  SpreadingInterval interval;  // closed in files written before it
  std::string input;
};

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c);
// Throws UsageError naming `key` for a missing or foreign file.
Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key = "initial.file");

}  // namespace loom::vortex
