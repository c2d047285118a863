#include "loom/gpe/run/initial_setup.hpp"

#include <fmt/format.h>

#include <cmath>

#include "loom/core/error.hpp"
#include "loom/dec/grid_key.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/model/initial_state.hpp"
#include "loom/gpe/run/checkpoint.hpp"
#include "loom/gpe/run/grid_scale.hpp"
#include "loom/gpe/run/memory_need.hpp"
#include "loom/io/derived_checks.hpp"

namespace loom::gpe {
namespace {

core::Array<Complex> from_vector(const std::vector<Complex>& v) { return core::Array<Complex>::from(v); }

void check_same(const std::optional<io::ParamValue>& given, double value, const std::string& key,
                double checkpoint_value) {
  if (given && std::abs(value - checkpoint_value) > 1e-12 * (1 + std::abs(checkpoint_value)))
    throw UsageError(io::invalid_value_message(key, *given, fmt::format("{} as in the checkpoint", checkpoint_value)));
}

// The lattice of a checkpoint is its own: a resolution key given now must equal the one in the checkpoint's
// effective input (else input.toml would record a resolution the run does not have).
void check_same_resolution(const GpeConfig& config, const std::string& checkpoint_input, const std::string& path) {
  if (config.given_resolution.empty() || checkpoint_input.empty() || !io::toml_supported()) return;
  io::Parameters previous = gpe_parameters();
  previous.load_toml_text(checkpoint_input, path);
  for (const auto& [key, value] : config.given_resolution)
    if (previous.value(key) != value)
      throw UsageError(io::invalid_value_message(key, value, io::to_text(previous.value(key)) + " as in the checkpoint"));
}

// Both time levels, the lattice, the physics and the reference state of the run that wrote the checkpoint.
void from_checkpoint(const GpeConfig& config, InitialSetup& s) {
  const std::string& path = config.initial.checkpoint;
  Checkpoint c = read_checkpoint(path);
  if (config.given_grid_type && dec::to_string(config.grid.type) != c.grid)
    throw UsageError(
        io::invalid_value_message("grid.type", *config.given_grid_type, "\"" + c.grid + "\" as in the checkpoint"));
  check_same(config.given_lambda, config.physics.lambda, "physics.lambda", c.lambda);
  check_same(config.given_g, config.physics.g, "physics.g", c.g);
  check_same_resolution(config, c.input, path);
  s.physics = {c.lambda, c.g};
  s.kappa = static_cast<int>(c.kappa);
  s.domain = make_lattice_domain(dec::parse_grid_type(c.grid), c.scale, c.nx, c.ny, c.nz);
  if (c.current.size() != std::size_t(s.domain.dof()))
    throw UsageError(fmt::format("initial.checkpoint = \"{}\": {} values for a lattice of {}", path, c.current.size(),
                                 s.domain.dof()));
  s.previous = from_vector(c.previous);
  s.current = from_vector(c.current);
  s.reference = from_vector(c.reference);
  s.mu_reference = c.mu_reference;
  s.reference_is_exact = c.mu_reference != 0;
  s.t0 = c.time;
  s.dt = c.dt;
  s.step0 = c.step;
  s.starter = "checkpoint (both time levels)";
  s.previous_input = c.input;
}

// The structure scale of grid.scaling for the stationary vortex `v` over the cuboid of half extent `half`.
double grid_scale(const GpeConfig& config, const StationaryVortex& v, dec::Vec3 half) {
  const dec::GridType grid = config.grid.type;
  switch (config.grid.scaling) {
    case GridScaling::wavelength:
      return scale_for_dual_edge(grid, v.effective_wavelength() / config.grid.points_per_wavelength);
    case GridScaling::dual_edge:
      return scale_for_dual_edge(grid, config.grid.dual_edge);
    case GridScaling::equal_work:
      break;
  }
  return equal_work_scale(config.grid.equal_work_rule, grid, config.grid.work_per_time_unit, half, config.physics.lambda,
                          std::abs(config.physics.g) * v.max_f() * v.max_f());
}

// The key that sets the lattice's resolution under grid.scaling, and its value: what a message about the
// lattice's size names.
std::pair<std::string_view, double> scaling_setting(const GpeConfig& config) {
  switch (config.grid.scaling) {
    case GridScaling::wavelength: return {"grid.points_per_wavelength", config.grid.points_per_wavelength};
    case GridScaling::dual_edge: return {"grid.dual_edge", config.grid.dual_edge};
    case GridScaling::equal_work: break;
  }
  return {"grid.work_per_time_unit", config.grid.work_per_time_unit};
}

// Before the lattice is built: at least min_points_per_wavelength dual edges per effective wavelength (as
// grid.points_per_wavelength allows; coarser lattices resolve nothing, and their dt of eq. 11 degenerates), and
// the memory its unknowns need.
void check_resolution(const GpeConfig& config, const StationaryVortex& v, double scale, dec::Vec3 half) {
  const auto [key, value] = scaling_setting(config);
  const auto& unit = dec::replicable_structure(config.grid.type);
  const double points = v.effective_wavelength() / (scale * dec::dual_edge_statistics(unit).mean);
  if (!(points >= min_points_per_wavelength * (1 - 1e-9)))
    throw UsageError(io::invalid_value_message(
        key, value,
        fmt::format("a value giving at least {} dual edges per effective wavelength {:.4g} (here {:.3g})",
                    min_points_per_wavelength, v.effective_wavelength(), points)));
  const double dof = lattice_dof(config.grid.type, scale, half);
  core::check_memory(gpe_memory_need(dof), config.backend == core::Backend::cuda,
                     fmt::format("{} = {} ({:.3g} lattice unknowns)", key, io::to_text(value), dof));
}

// The splitting detector's annulus: around the core edge at z = 0, where f rises to half its peak.
void splitting_ring(const StationaryVortex& v, dec::Vec3 half, InitialSetup& s) {
  double peak_rho = 0, peak = 0;
  for (int i = 1; i <= 2000; ++i) {
    const double rho = half.x * i / 2000.0, f = v.f(rho, 0);
    if (f > peak) peak = f, peak_rho = rho;
  }
  double core = peak_rho;
  for (int i = 2000; i >= 1; --i) {
    const double rho = peak_rho * i / 2000.0;
    if (v.f(rho, 0) < 0.5 * peak) {
      core = rho;
      break;
    }
  }
  s.ring_inner = 0.5 * core;
  s.ring_outer = 1.5 * core;
  s.ring_half_height = std::max(0.5 * s.domain.structure.size.z, 2 * s.domain.edges.mean);
}

// The stationary vortex of eq. (14) (or the lattice's ground state) sampled on a lattice over the cuboid of
// eq. (15), perturbed when asked.
void from_vortex(const GpeConfig& config, InitialSetup& s) {
  const auto where = core::where(config.backend);
  VortexProblem problem;
  problem.physics = s.physics;
  problem.kappa = s.kappa;
  try {
    s.vortex = StationaryVortex::solve(problem);
  } catch (const Error& e) {
    throw UsageError(std::string("physics.g = ") + io::to_text(config.g_value) + ": " + e.what());
  }
  const StationaryVortex& v = *s.vortex;
  const double threshold = config.initial.domain_threshold;
  const dec::Vec3 half{v.rho_extent(threshold), v.rho_extent(threshold), v.z_extent(threshold)};
  const double scale = grid_scale(config, v, half);
  check_resolution(config, v, scale, half);
  s.domain = make_lattice_domain(config.grid.type, scale, half);
  const dec::Vec3 box = 0.5 * s.domain.extent();
  const VortexTable table(v, 1.02 * std::sqrt(box.x * box.x + box.y * box.y) + 4 * s.domain.edges.max,
                          1.02 * box.z + 4 * s.domain.edges.max, 2048, 2048);
  s.reference = sample_vortex(s.domain, table);
  const Hamiltonian h = s.domain.hamiltonian(where, s.physics);
  normalise(config.backend, h, s.reference);
  s.mu_reference = v.chemical_potential();
  s.reference_is_exact = true;
  if (config.initial.type == InitialType::ground) {
    s.relaxation = relax_to_ground_state(config.backend, h, s.reference, config.initial.ground_tolerance,
                                         config.initial.ground_iterations);
    if (!s.relaxation.converged)
      throw UsageError(
          fmt::format("initial.ground_iterations = {}: the ground state reached a residual of {:.2e} "
                      "only (initial.ground_tolerance = {})",
                      config.initial.ground_iterations, s.relaxation.residual, config.initial.ground_tolerance));
    s.mu_reference = s.relaxation.mu;  // the discrete ground state rotates with its own mu
  }
  s.current = s.reference.clone();
  if (config.initial.perturbation > 0) {
    perturb(s.current, config.initial.perturbation, config.initial.seed);
    normalise(config.backend, h, s.current);
  }
  if (s.kappa != 0) splitting_ring(v, half, s);
}

// Time step: eq. (11) on the actual M_ii of the initial state; time.dt when given (a checkpoint keeps its own).
void choose_time_step(const GpeConfig& config, InitialSetup& s) {
  {
    LeapfrogIntegrator probe(config.backend, s.domain, s.physics);
    probe.set_state(s.current.clone(), s.current.clone(), 0, 0, 0);
    s.dt_bound = probe.stability_bound();
  }
  if (config.initial.type == InitialType::checkpoint) {
    io::checked_step_count(config.time.t_end - s.t0, s.dt, "time.t_end", config.time.t_end);
    return;
  }
  const double requested = config.time.dt;
  if (requested == 0)
    s.dt = config.time.safety * s.dt_bound;
  else if (requested > s.dt_bound && !config.time.unsafe)
    throw UsageError(
        fmt::format("time.dt = {}: expected a number <= {:.6g}, the stability bound of eq. 11 on this "
                    "lattice (or set time.unsafe = true)",
                    requested, s.dt_bound));
  else
    s.dt = requested;
  s.t0 = 0;
  io::checked_step_count(config.time.t_end, s.dt, requested == 0 ? "time.t_end" : "time.dt",
                         requested == 0 ? config.time.t_end : requested);
}

}  // namespace

InitialSetup prepare_initial(const GpeConfig& config) {
  InitialSetup s;
  s.physics = config.physics;
  s.kappa = config.initial.kappa;
  if (config.initial.type == InitialType::checkpoint)
    from_checkpoint(config, s);
  else
    from_vortex(config, s);
  choose_time_step(config, s);
  s.kernel = config.kernel ? *config.kernel : default_leapfrog_kernel(config.backend, s.domain.lattice.cells);
  s.work_rule = config.grid.equal_work_rule;
  s.work = work_per_time_unit(s.work_rule, s.domain.grid, s.domain.scale, 0.5 * s.domain.extent(), s.physics.lambda,
                              s.vortex ? std::abs(s.physics.g) * s.vortex->max_f() * s.vortex->max_f() : 0.0);
  return s;
}

}  // namespace loom::gpe
