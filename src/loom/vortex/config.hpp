// `loom vortex`'s typed configuration: every key declared once in vortex_parameters() (the registry the CLI and
// input files set), read and checked once by make_vortex_config(); past this point there are enums and numbers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "loom/core/backend.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/hit/config.hpp"
#include "loom/io/parameters.hpp"
#include "loom/vortex/integrator.hpp"
#include "loom/vortex/rates.hpp"
#include "loom/vortex/reinit.hpp"
#include "loom/vortex/ring.hpp"

namespace loom::vortex {

// ring: free space; taylor_green, hit (loom hit's seeded random field), file (a loom hit field snapshot): the
// periodic box [0, 2 pi)^3 of loom hit; checkpoint: a checkpoint of loom vortex.
enum class InitialType { ring, taylor_green, hit, file, checkpoint };
std::string_view to_string(InitialType t);

// When the cores spread for the viscous diffusion: at every step (sigma^2 += 2 nu dt, the paper's), or at the
// reinitialisations only, each interval's diffusion split in halves at its two ends (Strang splitting). The cores
// of a step see the diffusion of the particles' own strengths since the last reinitialisation, also of the part
// the stretching made after it: with spreading at steps that part is over-diffused by half the interval on
// average, a damping of the cascade's small scales ~ exp(-nu k^2 T) in E(k) (docs/performance.md, twelfth session).
// physics.spreading = auto (the default) is reinit wherever the run reinitialises, steps where it never does.
enum class Spreading { steps, reinit };

struct VortexConfig {
  core::Backend backend = core::Backend::cpu;
  bool quiet = false;
  InitialType initial = InitialType::ring;
  RingShape ring;
  double ring_spacing = 0.05;  // the ring's particle spacing h
  hit::InitialConfig field;    // taylor_green, hit, file: loom hit's initial-field settings (amplitude, spectrum, seed)
  std::string checkpoint;      // initial.type = checkpoint: its file
  Index grid_n = 32;           // periodic: loom hit's grid n (the initial field's modes, the statistics' grid)
  int refine = 1;              // particles per grid spacing and direction
  Index lattice_n = 32;        // periodic: particles per direction, refine grid_n
  double overlap = 1;          // sigma / h
  double nu = 0;
  Spreading spreading = Spreading::steps;
  double step_nu() const { return spreading == Spreading::steps ? nu : 0.0; }  // the steps' core spreading
  TimeScheme scheme = TimeScheme::ab2;
  StretchingForm stretching = StretchingForm::classical;
  double dt = 0.01, t_end = 0.5;
  int reinit_every = 0;        // steps between reinitialisations (0: never)
  ReinitOptions reinit;
  fmm::Options fmm;            // order, theta, ncrit, backend, precision, periodic box (resolved)
  double rebuild_cost = 1.05;  // the device stepper's tree: re-fitted, rebuilt once its work passed this factor
  struct Output {
    std::filesystem::path dir;
    bool overwrite = false;
    int every = 10;            // steps between rows of series.csv
    int fields_every = 0;      // steps between particle snapshots (0: initial and final)
    double checkpoint_every = 600;
    bool fields = true, plots = true;
  } output;
  std::filesystem::path compare;  // a loom hit run directory to plot against
  bool periodic = false;          // the box [0, box_period)^3 (a checkpoint's own, resolved when it is read)
};

inline constexpr double box_period = 2 * M_PI;  // loom hit's box [0, 2 pi)^3

io::Parameters vortex_parameters();
// Throws UsageError (one line: key, value, what is allowed).
VortexConfig make_vortex_config(const io::Parameters& p);

}  // namespace loom::vortex
