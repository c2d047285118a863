// Checkpoints of `loom hit`: the modes themselves with the time and step, from which a run continues exactly
// (initial.type = checkpoint), and the input that made them.
#pragma once

#include <filesystem>
#include <string>

#include "loom/core/array.hpp"
#include "loom/hit/solver.hpp"

namespace loom::hit {

struct Checkpoint {
  Index n = 0;
  double nu = 0, time = 0;
  Index step = 0;
  core::Array<Complex> modes;  // 3 grid.modes() values, valid on the host
  std::string input;           // the run's input.toml
};

// Collective on several ranks: the modes are gathered and rank 0 writes the file a one-rank run writes (`path` is
// used on rank 0 only), so that a run continues on any number of ranks.
void write_checkpoint(const std::filesystem::path& path, const Solver& solver, const std::string& input);
// Throws UsageError naming `key` when the file is missing, is no checkpoint of loom hit or is corrupted (its
// checksum, io/checkpoint_file.hpp). Writing refuses non-finite modes (loom::Error; the old file stays).
Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key = "initial.file");

}  // namespace loom::hit
