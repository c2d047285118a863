// The typed configuration of a GPE run (`loom gpe`), built once from the parameter registry (gpe_parameters):
// enums instead of strings, the physics as one value, every check that needs no lattice done here. Past
// gpe_config() nothing reads a parameter by its key.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/dec/crystal.hpp"
#include "loom/dec/equal_work.hpp"
#include "loom/gpe/kernels/registry.hpp"
#include "loom/gpe/model/physics.hpp"
#include "loom/gpe/parallel/slab_exchange.hpp"
#include "loom/io/parameters.hpp"

namespace loom::gpe {

// The coarsest lattice a run accepts: dual edges per effective wavelength 2 pi / sqrt(<-lap>) (any grid.scaling).
inline constexpr double min_points_per_wavelength = 2;
// The largest |physics.g| the stationary vortex of eq. 14 resolves (its basis stops growing beyond).
inline constexpr double max_interaction = 1e4;

// Every key `loom gpe` accepts, with its default, allowed values and help.
io::Parameters gpe_parameters();

enum class GridScaling { wavelength, equal_work, dual_edge };
enum class InitialType { vortex, ground, checkpoint };
std::string_view to_string(InitialType type);  // the value of initial.type
enum class Starter { rk4, exact };

struct GpeConfig {
  core::Backend backend = core::Backend::cpu;
  std::optional<LeapfrogKernel> kernel;  // nullopt: auto (default_leapfrog_kernel once the lattice is known)
  bool quiet = false;
  struct Grid {
    dec::GridType type = dec::GridType::bcc;
    GridScaling scaling = GridScaling::wavelength;
    double points_per_wavelength = 20, work_per_time_unit = 6e9, dual_edge = 0.1;
    dec::EqualWorkRule equal_work_rule = dec::EqualWorkRule::paper;
  } grid;
  Physics physics;
  struct Initial {
    InitialType type = InitialType::vortex;
    int kappa = 1;
    double perturbation = 0;
    std::uint64_t seed = 1;
    std::string checkpoint;
    double domain_threshold = 1e-5, ground_tolerance = 1e-8;
    std::int64_t ground_iterations = 200000;
  } initial;
  struct Time {
    double t_end = 1, dt = 0, safety = 0.9;
    bool unsafe = false;
    Starter starter = Starter::rk4;
  } time;
  struct Output {
    std::string dir;  // "" : runs/gpe-<date>-<time>
    bool overwrite = false;
    double every = 0, fields_every = 0, checkpoint_every = 600;
    bool plots = true;
  } output;
  HaloTransport halo_transport = HaloTransport::automatic;
  // grid.type, physics.lambda and physics.g as given (nullopt: not given), which a checkpoint's must match, and
  // physics.g as messages quote it.
  std::optional<io::ParamValue> given_grid_type, given_lambda, given_g;
  io::ParamValue g_value;
  // The grid.* keys that set the lattice's resolution, as given (input file or flag): a restart must not change them.
  std::vector<std::pair<std::string, io::ParamValue>> given_resolution;
  std::string effective_input;  // the effective input file (TOML): input.toml and checkpoints
};

// The configuration from validated parameters. Throws UsageError (naming the key, the value and what is allowed)
// for what the registry cannot check alone: a kernel this backend lacks, a checkpoint start without a file, a
// ground state with a vortex.
GpeConfig gpe_config(const io::Parameters& p);

}  // namespace loom::gpe
