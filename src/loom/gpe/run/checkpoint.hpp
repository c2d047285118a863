// Restartable checkpoints of a GPE run (HDF5, written to a temporary name and renamed): both leapfrog time
// levels, the reference state of E(t), the lattice and the physics needed to continue exactly where it stopped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "loom/core/complex.hpp"

namespace loom::gpe {

struct Checkpoint {
  std::string grid;
  double scale = 1;
  int nx = 0, ny = 0, nz = 0;
  double lambda = 1, g = 0;
  std::int64_t kappa = 0;
  double time = 0, dt = 0;
  std::int64_t step = 0;
  double mu_reference = 0;  // chemical potential of the reference state (phase of the exact solution)
  std::vector<core::Complex> previous, current, reference;
  std::string input;  // the effective input file of the run that wrote it
};

void write_checkpoint(const std::filesystem::path& path, const Checkpoint& c);
// Throws UsageError naming `key` and the file when it is missing, not a loom GPE checkpoint or corrupted (its
// checksum, io/checkpoint_file.hpp). Writing refuses a non-finite state (loom::Error; the old file stays).
Checkpoint read_checkpoint(const std::filesystem::path& path, const std::string& key = "initial.checkpoint");

}  // namespace loom::gpe
