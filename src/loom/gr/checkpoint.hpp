// checkpoint.h5 of `loom bh`: every shell's 50-component state, the time, the step count and the time step, with
// what defines the grid and the hole (a restart refuses a checkpoint of another grid or hole).
#pragma once

#include <filesystem>
#include <string>

#include "loom/gr/config.hpp"
#include "loom/gr/gh_system.hpp"

namespace loom::gr {

struct BhCheckpoint {
  State state;
  double time = 0, dt = 0;
  Index step = 0;
};

void write_checkpoint(const std::filesystem::path& path, const BhConfig& config, const State& state, double time,
                      double dt, Index step, const std::string& input);
// Reads and checks a checkpoint against the configuration's hole and grid; UsageError naming initial.file.
BhCheckpoint read_checkpoint(const std::filesystem::path& path, const BhConfig& config, const GhSystem& system);

}  // namespace loom::gr
