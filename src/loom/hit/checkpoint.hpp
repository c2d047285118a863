// Checkpoints of `loom hit`: the modes themselves with the time and step, from which a run continues exactly
// (initial.type = checkpoint), and the input that made them.
#pragma once

#include <filesystem>
#include <string>

#include "loom/core/array.hpp"
#include "loom/hit/solver.hpp"

namespace loom::hit {

struct CheckpointHeader {
  Index n = 0;
  double nu = 0, time = 0;
  Index step = 0;
  std::string input;  // the run's input.toml
};

struct Checkpoint : CheckpointHeader {
  core::Array<Complex> modes;  // 3 grid.modes() values, valid on the host
};

// Collective on several ranks: the modes are gathered and rank 0 writes the file a one-rank run writes (`path` is
// used on rank 0 only), so that a run continues on any number of ranks.
void write_checkpoint(const std::filesystem::path& path, const Solver& solver, const std::string& input);
// Throws UsageError naming `key` when the file is missing, is no checkpoint of loom hit or is corrupted (its
// checksum, io/checkpoint_file.hpp, checked in pieces: no whole field is held). Writing refuses non-finite modes
// (loom::Error; the old file stays).
CheckpointHeader read_checkpoint_header(const std::filesystem::path& path, const std::string& key = "initial.file");
// The modes of `layout` (a rank's slab; 3 components mode_stride apart, valid on the host), read by an HDF5
// hyperslab: a rank reads its own modes only. After read_checkpoint_header() of the same file.
core::Array<Complex> read_checkpoint_modes(const std::filesystem::path& path, const SlabLayout& layout,
                                           const std::string& key = "initial.file");
// The header and the whole grid's modes.
Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key = "initial.file");

}  // namespace loom::hit
