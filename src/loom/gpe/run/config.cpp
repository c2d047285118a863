#include "loom/gpe/run/config.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "loom/core/error.hpp"
#include "loom/dec/grid_key.hpp"
#include "loom/io/derived_checks.hpp"

namespace loom::gpe {

io::Parameters gpe_parameters() {
  io::Parameters p;
  p.add("backend", "auto", "where to run").one_of({"auto", "cpu", "cuda"});
  std::vector<std::string> kernels{"auto"};
  for (const std::string& name : leapfrog_kernel_names()) kernels.push_back(name);
  p.add("kernel", "auto",
        "leapfrog implementation: auto (the fastest measured: on CUDA march for cubic, FCC, BCC, soa for A15, Z, C15; "
        "soa on the CPU), "
        "plain, tuned, shared, soa, march")
      .one_of(kernels);
  p.add("quiet", false, "no progress lines on stderr");
  dec::add_grid_type_key(p, "DEC crystal lattice");
  p.add("grid.scaling", "wavelength",
        "how the lattice is scaled: wavelength (grid.points_per_wavelength dual edges per effective wavelength), "
        "equal_work (grid.work_per_time_unit operations per time unit, Table 1 of the paper), dual_edge "
        "(grid.dual_edge)")
      .one_of({"wavelength", "equal_work", "dual_edge"});
  p.add("grid.points_per_wavelength", 20.0, "mean dual edges per effective wavelength 2 pi / sqrt(<-lap>)")
      .at_least(min_points_per_wavelength);
  p.add("grid.work_per_time_unit", 6e9,
        "operations per time unit for grid.scaling = equal_work, counted by grid.equal_work_rule (the paper: 6e9)")
      .greater_than(0);
  p.add("grid.equal_work_rule", "paper",
        "how equal work is counted (src/loom/dec/equal_work.hpp): paper (its code's step count and one operation "
        "per face: Table 1) or eq11 (sum_i #J_i / dt with dt of eq. 11)")
      .one_of(dec::equal_work_rule_names());
  p.add("grid.dual_edge", 0.1, "mean dual edge length for grid.scaling = dual_edge").greater_than(0);
  p.add("physics.lambda", 1.0, "trap anisotropy: V = (x^2 + y^2 + lambda^2 z^2) / 2").greater_than(0).at_most(100);
  p.add("physics.g", 300.0, "interaction strength (either sign)").at_least(-max_interaction).at_most(max_interaction);
  p.add("initial.type", "vortex",
        "initial state: the stationary vortex of eq. 14, the lattice's ground state, "
        "or a checkpoint")
      .one_of({"vortex", "ground", "checkpoint"});
  p.add("initial.kappa", 1, "winding number of the vortex").at_least(-100).at_most(100);
  p.add("initial.perturbation", 0.0, "relative amplitude of a seeded random perturbation of psi(0)")
      .at_least(0)
      .at_most(1);
  p.add("initial.seed", 1, "seed of the perturbation").at_least(0);
  p.add("initial.checkpoint", "", "checkpoint file to restart from (initial.type = checkpoint)");
  p.add("initial.domain_threshold", 1e-5,
        "the cuboid holds every point where |psi| > threshold max |psi| "
        "(eq. 15)")
      .greater_than(0)
      .less_than(1);
  p.add("initial.ground_tolerance", 1e-8,
        "residual |M psi - mu psi| / mu at which the ground state is "
        "accepted")
      .greater_than(0)
      .less_than(1);
  p.add("initial.ground_iterations", 200000, "iteration limit of the ground-state relaxation").at_least(1);
  p.add("time.t_end", 1.0, "end time (dimensionless)").greater_than(0);
  p.add("time.dt", 0.0, "time step; 0: time.safety times the stability bound of eq. 11").at_least(0);
  p.add("time.safety", 0.9, "fraction of the stability bound used when time.dt = 0").greater_than(0).at_most(1);
  p.add("time.unsafe", false, "allow time.dt above the stability bound");
  p.add("time.starter", "rk4",
        "how psi(-dt) is made: rk4 (one Runge-Kutta step backwards along the lattice dynamics) or exact (the "
        "continuum solution's phase e^{i mu dt}, as the paper; excites the leapfrog's parasitic mode)")
      .one_of({"rk4", "exact"});
  p.add("output.dir", "", "run directory (default runs/gpe-<date>-<time>)");
  p.add("output.overwrite", false, "write into an existing non-empty run directory");
  p.add("output.every", 0.0, "time between rows of series.csv; 0: t_end / 200").at_least(0);
  p.add("output.fields_every", 0.0, "time between HDF5 snapshots of psi; 0: initial and final only").at_least(0);
  p.add("output.checkpoint_every", 600.0, "wall-clock seconds between checkpoints; 0: only at the end")
      .at_least(0)
      .at_most(io::max_wall_seconds);
  p.add("output.plots", true, "make PNG plots at the end (needs /usr/bin/python3 with matplotlib)");
  p.add("mpi.halo_transport", "auto",
        "how halos travel between GPU ranks (mpiexec -n N loom gpe): auto "
        "(CUDA-aware MPI where the library reports it, else staged), staged (through "
        "pinned host buffers), cuda_aware")
      .one_of({"auto", "staged", "cuda_aware"});
  return p;
}

namespace {

std::optional<io::ParamValue> given(const io::Parameters& p, const std::string& key) {
  if (!p.user_set(key)) return std::nullopt;
  return p.value(key);
}

GridScaling grid_scaling(const std::string& text) {
  if (text == "wavelength") return GridScaling::wavelength;
  return text == "dual_edge" ? GridScaling::dual_edge : GridScaling::equal_work;
}

}  // namespace

namespace {

// A flag for a key the chosen grid.scaling or initial.type does not read is refused, not silently ignored (an
// input file may hold every key: input.toml does).
void refuse_unused_flags(const io::Parameters& p) {
  struct Needs {
    const char* key;
    const char* on;
    const char* value;
  };
  const Needs needs[] = {{"grid.points_per_wavelength", "grid.scaling", "wavelength"},
                         {"grid.dual_edge", "grid.scaling", "dual_edge"},
                         {"grid.work_per_time_unit", "grid.scaling", "equal_work"},
                         {"grid.equal_work_rule", "grid.scaling", "equal_work"},
                         {"initial.checkpoint", "initial.type", "checkpoint"}};
  for (const Needs& n : needs)
    if (p.source(n.key) == io::ParamSource::flag && p.get_string(n.on) != n.value)
      throw UsageError(io::invalid_value_message(n.key, p.value(n.key),
                                                 fmt::format("no value unless {} = \"{}\"", n.on, n.value)));
}

}  // namespace

std::string_view to_string(InitialType type) {
  switch (type) {
    case InitialType::vortex:
      return "vortex";
    case InitialType::ground:
      return "ground";
    case InitialType::checkpoint:
      return "checkpoint";
  }
  return "?";
}

namespace {

InitialType initial_type(const std::string& text) {
  for (InitialType t : {InitialType::vortex, InitialType::ground, InitialType::checkpoint})
    if (to_string(t) == text) return t;
  throw Error("initial.type = \"" + text + "\": not validated");
}

}  // namespace

GpeConfig gpe_config(const io::Parameters& p) {
  GpeConfig c;
  c.backend = core::parse_backend(p.get_string("backend"), "backend");
  if (p.get_string("kernel") != "auto") {
    c.kernel = parse_leapfrog_kernel(p.get_string("kernel"), "kernel");
    if (!runs_on_cpu(*c.kernel) && c.backend != core::Backend::cuda)
      throw UsageError(io::invalid_value_message("kernel", p.value("kernel"), "plain, soa or auto on the cpu backend"));
  }
  c.quiet = p.get_bool("quiet");
  c.grid.type = dec::grid_type(p);
  c.grid.scaling = grid_scaling(p.get_string("grid.scaling"));
  c.grid.points_per_wavelength = p.get_real("grid.points_per_wavelength");
  c.grid.work_per_time_unit = p.get_real("grid.work_per_time_unit");
  c.grid.equal_work_rule = dec::parse_equal_work_rule(p.get_string("grid.equal_work_rule"), "grid.equal_work_rule");
  c.grid.dual_edge = p.get_real("grid.dual_edge");
  refuse_unused_flags(p);
  c.physics = {p.get_real("physics.lambda"), p.get_real("physics.g")};
  c.initial.type = initial_type(p.get_string("initial.type"));
  c.initial.kappa = static_cast<int>(p.get_int("initial.kappa"));
  c.initial.perturbation = p.get_real("initial.perturbation");
  c.initial.seed = static_cast<std::uint64_t>(p.get_int("initial.seed"));
  c.initial.checkpoint = p.get_string("initial.checkpoint");
  c.initial.domain_threshold = p.get_real("initial.domain_threshold");
  c.initial.ground_tolerance = p.get_real("initial.ground_tolerance");
  c.initial.ground_iterations = p.get_int("initial.ground_iterations");
  if (c.initial.type == InitialType::checkpoint && !std::filesystem::is_regular_file(c.initial.checkpoint))
    throw UsageError(io::invalid_value_message("initial.checkpoint", c.initial.checkpoint,
                                               "an existing checkpoint file (initial.type = checkpoint)"));
  if (c.initial.type == InitialType::ground && c.initial.kappa != 0)
    throw UsageError(io::invalid_value_message("initial.kappa", p.value("initial.kappa"),
                                               "0 with initial.type = ground (the non-rotating ground state; use "
                                               "initial.type = vortex for kappa != 0)"));
  c.time.t_end = p.get_real("time.t_end");
  c.time.dt = p.get_real("time.dt");
  c.time.safety = p.get_real("time.safety");
  c.time.unsafe = p.get_bool("time.unsafe");
  c.time.starter = p.get_string("time.starter") == "exact" ? Starter::exact : Starter::rk4;
  c.output.dir = p.get_string("output.dir");
  io::check_output_dir("output.dir", c.output.dir);
  if (p.user_set("time.dt") && c.time.dt > 0) io::checked_step_count(c.time.t_end, c.time.dt, "time.dt", c.time.dt);
  c.output.overwrite = p.get_bool("output.overwrite");
  c.output.every = p.get_real("output.every");
  c.output.fields_every = p.get_real("output.fields_every");
  io::check_output_period("output.every", c.output.every, c.time.t_end);
  io::check_output_period("output.fields_every", c.output.fields_every, c.time.t_end);
  c.output.checkpoint_every = p.get_real("output.checkpoint_every");
  c.output.plots = p.get_bool("output.plots");
  c.halo_transport = parse_halo_transport(p.get_string("mpi.halo_transport"), "mpi.halo_transport");
  c.given_grid_type = given(p, "grid.type");
  c.given_lambda = given(p, "physics.lambda");
  c.given_g = given(p, "physics.g");
  c.g_value = p.value("physics.g");
  for (const char* key : {"grid.scaling", "grid.points_per_wavelength", "grid.dual_edge", "grid.work_per_time_unit",
                          "grid.equal_work_rule"})
    if (p.user_set(key)) c.given_resolution.emplace_back(key, p.value(key));
  c.effective_input = p.to_toml();
  return c;
}

}  // namespace loom::gpe
