// `loom bh`'s typed configuration: every key declared once in bh_parameters() (the registry the CLI and input
// files set), read and checked once by make_bh_config(); past this point there are numbers and enums, no keys.
#pragma once

#include <filesystem>
#include <string>

#include "loom/core/backend.hpp"
#include "loom/gr/gh_system.hpp"
#include "loom/gr/kerr_schild.hpp"
#include "loom/io/parameters.hpp"
#include "loom/spectral/topology.hpp"

namespace loom::gr {

// The smallest extents the shells take: enough Chebyshev points for the radial filter and Y_lm up to l = 4.
inline constexpr int min_radial_points = 5, min_theta_points = 5;
// The largest: the S2 tables index N_theta^3 values with an int, and 200 already needs about 13 GB per shell.
inline constexpr int max_radial_points = 200, max_theta_points = 200;

enum class InitialType { kerr_schild, checkpoint };

struct BhTime {
  double t_end = 10;
  double cfl = 0.25;  // dt = cfl * the smallest grid spacing
  double dt = 0;      // > 0: this fixed step instead
};

struct BhOutput {
  std::filesystem::path dir;  // empty: runs/bh-<date>-<time>
  bool overwrite = false;
  double every = 0;             // time between rows of series.csv; 0: t_end / 100
  bool fields = true;
  double fields_every = 0;      // time between field snapshots; 0: initial and final only
  double checkpoint_every = 600;  // wall-clock seconds
  bool plots = true;
};

struct BhConfig {
  core::Backend backend = core::Backend::cpu;
  bool quiet = false;
  bool profile = false;  // per-module times (the GPU waits after each module)
  KerrSchild hole;
  GhGeometry geometry;
  spectral::FilterSpec filter;
  InitialType initial = InitialType::kerr_schild;
  std::string initial_file;  // a checkpoint.h5 of loom bh
  BhTime time;
  BhOutput output;
};

// Every key `loom bh` accepts, with its default, allowed values and help.
io::Parameters bh_parameters();

// The typed configuration; throws UsageError (one line: key, value, what is allowed) for bad input.
BhConfig make_bh_config(const io::Parameters& p);

}  // namespace loom::gr
