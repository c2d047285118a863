#include "loom/gpe/experiment.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "loom/comm/communicator.hpp"
#include "loom/comm/rank_device.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"
#include "loom/gpe/checkpoint.hpp"
#include "loom/gpe/ground_state.hpp"
#include "loom/gpe/initial_state.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/observables.hpp"
#include "loom/gpe/rank_outputs.hpp"
#include "loom/gpe/slab_domain.hpp"
#include "loom/gpe/slab_observables.hpp"
#include "loom/gpe/splitting.hpp"
#include "loom/io/fields.hpp"
#include "loom/io/plot_script.hpp"
#include "loom/io/run_directory.hpp"
#include "loom/version_info.hpp"

namespace loom::gpe {

io::Parameters gpe_parameters() {
  io::Parameters p;
  p.add("backend", "auto", "where to run").one_of({"auto", "cpu", "cuda"});
  p.add("kernel", "auto",
        "leapfrog implementation: auto (the fastest measured: on CUDA march for cubic, FCC, BCC, soa for A15, Z, C15; "
        "soa on the CPU), "
        "plain, tuned, shared, soa, march")
      .one_of({"auto", "plain", "tuned", "shared", "soa", "march"});
  p.add("quiet", false, "no progress lines on stderr");
  p.add("grid.type", "bcc", "DEC crystal lattice").one_of(dec::grid_type_names());
  p.add("grid.scaling", "wavelength",
        "how the lattice is scaled: wavelength (grid.points_per_wavelength dual edges per effective wavelength), "
        "equal_work (grid.work_per_time_unit operations per time unit, Table 1 of the paper), dual_edge "
        "(grid.dual_edge)")
      .one_of({"wavelength", "equal_work", "dual_edge"});
  p.add("grid.points_per_wavelength", 20.0, "mean dual edges per effective wavelength 2 pi / sqrt(<-lap>)").at_least(2);
  p.add("grid.work_per_time_unit", 6e9,
        "operations per time unit for grid.scaling = equal_work, counted by grid.equal_work_rule (the paper: 6e9)")
      .greater_than(0);
  p.add("grid.equal_work_rule", "paper",
        "how equal work is counted (src/loom/dec/equal_work.hpp): paper (its code's step count and one operation "
        "per face: Table 1) or eq11 (sum_i #J_i / dt with dt of eq. 11)")
      .one_of(dec::equal_work_rule_names());
  p.add("grid.dual_edge", 0.1, "mean dual edge length for grid.scaling = dual_edge").greater_than(0);
  p.add("physics.lambda", 1.0, "trap anisotropy: V = (x^2 + y^2 + lambda^2 z^2) / 2").greater_than(0);
  p.add("physics.g", 300.0, "interaction strength (either sign)");
  p.add("initial.type", "vortex",
        "initial state: the stationary vortex of eq. 14, the lattice's ground state, "
        "or a checkpoint")
      .one_of({"vortex", "ground", "checkpoint"});
  p.add("initial.kappa", 1, "winding number of the vortex").at_least(-100).at_most(100);
  p.add("initial.perturbation", 0.0, "relative amplitude of a seeded random perturbation of psi(0)").at_least(0);
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
      .greater_than(0);
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
  p.add("output.checkpoint_every", 600.0, "wall-clock seconds between checkpoints; 0: only at the end").at_least(0);
  p.add("output.plots", true, "make PNG plots at the end (needs /usr/bin/python3 with matplotlib)");
  p.add("mpi.halo_transport", "auto",
        "how halos travel between GPU ranks (mpiexec -n N loom gpe): auto "
        "(CUDA-aware MPI where the library reports it, else staged), staged (through "
        "pinned host buffers), cuda_aware")
      .one_of({"auto", "staged", "cuda_aware"});
  return p;
}

namespace {

// Operations per time unit of a structure placed at scale s over the cuboid under `rule`, with the potential term
// bounded by the trap at the lattice's corner plus the peak nonlinear term.
double work_per_time_unit(dec::EqualWorkRule rule, dec::GridType grid, double s, dec::Vec3 half, double lambda,
                          double peak_nonlinear) {
  const auto& unit = dec::replicable_structure(grid);
  auto count = [&](double h, double edge) { return std::max(1.0, std::ceil(2 * h / (s * edge) - 1e-9)); };
  const double nx = count(half.x, unit.size.x), ny = count(half.y, unit.size.y), nz = count(half.z, unit.size.z);
  const double X = 0.5 * nx * s * unit.size.x, Y = 0.5 * ny * s * unit.size.y, Z = 0.5 * nz * s * unit.size.z;
  const double max_potential = 0.5 * (X * X + Y * Y + lambda * lambda * Z * Z) + peak_nonlinear;
  return nx * ny * nz * dec::structure_work_per_time_unit(rule, unit, s, max_potential);
}

double equal_work_scale(dec::EqualWorkRule rule, dec::GridType grid, double target, dec::Vec3 half, double lambda,
                        double peak_nonlinear) {
  double lo = 1e-4, hi = 1e3;  // work falls as the scale grows
  for (int it = 0; it < 200; ++it) {
    const double mid = std::sqrt(lo * hi);
    (work_per_time_unit(rule, grid, mid, half, lambda, peak_nonlinear) > target ? lo : hi) = mid;
  }
  return hi;
}

dec::EqualWorkRule equal_work_rule(const io::Parameters& p) {
  return dec::parse_equal_work_rule(p.get_string("grid.equal_work_rule"), "grid.equal_work_rule");
}

std::vector<Complex> to_vector(const core::Array<Complex>& a) {
  const auto h = a.host();
  return {h.begin(), h.end()};
}

core::Array<Complex> from_vector(const std::vector<Complex>& v) { return core::Array<Complex>::from(v); }

// Everything decided before the run directory exists: bad input must leave nothing behind.
struct Setup {
  core::Backend backend = core::Backend::cpu;
  LeapfrogKernel kernel = LeapfrogKernel::plain;
  std::string initial_type, starter;
  double lambda = 1, g = 0;
  int kappa = 0;
  std::optional<StationaryVortex> vortex;
  double mu_reference = 0;  // psi_exact(t) = reference e^{-i mu_reference t}
  bool reference_is_exact = false;
  LatticeDomain domain;
  core::Array<Complex> reference, previous, current;
  double t0 = 0, dt = 0, dt_bound = 0;
  std::int64_t step0 = 0;
  RelaxationResult relaxation;
  double ring_inner = 0, ring_outer = 0, ring_half_height = 0;
  double work = 0;  // operations per time unit, counted by work_rule
  std::string work_rule;
  std::string previous_input;
};

void check_same(const io::Parameters& p, const std::string& key, double checkpoint_value) {
  if (p.user_set(key) && std::abs(p.get_real(key) - checkpoint_value) > 1e-12 * (1 + std::abs(checkpoint_value)))
    throw UsageError(
        io::invalid_value_message(key, p.value(key), fmt::format("{} as in the checkpoint", checkpoint_value)));
}

Setup prepare(const io::Parameters& p) {
  Setup s;
  s.backend = core::parse_backend(p.get_string("backend"), "backend");
  s.initial_type = p.get_string("initial.type");
  s.lambda = p.get_real("physics.lambda");
  s.g = p.get_real("physics.g");
  s.kappa = static_cast<int>(p.get_int("initial.kappa"));
  const auto where = core::where(s.backend);
  if (p.get_string("kernel") != "auto") {
    s.kernel = parse_leapfrog_kernel(p.get_string("kernel"), "kernel");
    if (!runs_on_cpu(s.kernel) && s.backend != core::Backend::cuda)
      throw UsageError(io::invalid_value_message("kernel", p.value("kernel"), "plain, soa or auto on the cpu backend"));
  } else {
    s.kernel = LeapfrogKernel::plain;  // resolved once the lattice is known
  }
  if (s.initial_type == "checkpoint") {
    const std::string& path = p.get_string("initial.checkpoint");
    if (path.empty()) throw UsageError("initial.checkpoint = \"\": initial.type = checkpoint needs a checkpoint file");
    Checkpoint c = read_checkpoint(path);
    if (p.user_set("grid.type") && p.get_string("grid.type") != c.grid)
      throw UsageError(
          io::invalid_value_message("grid.type", p.value("grid.type"), "\"" + c.grid + "\" as in the checkpoint"));
    check_same(p, "physics.lambda", c.lambda);
    check_same(p, "physics.g", c.g);
    s.lambda = c.lambda;
    s.g = c.g;
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
  } else {
    if (s.initial_type == "ground" && s.kappa != 0)
      throw UsageError(io::invalid_value_message("initial.kappa", p.value("initial.kappa"),
                                                 "0 with initial.type = ground (the non-rotating ground state; use "
                                                 "initial.type = vortex for kappa != 0)"));
    VortexProblem problem;
    problem.lambda = s.lambda;
    problem.g = s.g;
    problem.kappa = s.kappa;
    try {
      s.vortex = StationaryVortex::solve(problem);
    } catch (const Error& e) {
      throw UsageError(std::string("physics.g = ") + io::to_text(p.value("physics.g")) + ": " + e.what());
    }
    const StationaryVortex& v = *s.vortex;
    const double threshold = p.get_real("initial.domain_threshold");
    const dec::Vec3 half{v.rho_extent(threshold), v.rho_extent(threshold), v.z_extent(threshold)};
    const auto grid = dec::parse_grid_type(p.get_string("grid.type"));
    const std::string& scaling = p.get_string("grid.scaling");
    double scale = 0;
    if (scaling == "wavelength")
      scale = scale_for_dual_edge(grid, v.effective_wavelength() / p.get_real("grid.points_per_wavelength"));
    else if (scaling == "dual_edge")
      scale = scale_for_dual_edge(grid, p.get_real("grid.dual_edge"));
    else
      scale = equal_work_scale(equal_work_rule(p), grid, p.get_real("grid.work_per_time_unit"), half, s.lambda,
                               std::abs(s.g) * v.max_f() * v.max_f());
    s.domain = make_lattice_domain(grid, scale, half);
    const dec::Vec3 box = 0.5 * s.domain.extent();
    const VortexTable table(v, 1.02 * std::sqrt(box.x * box.x + box.y * box.y) + 4 * s.domain.edges.max,
                            1.02 * box.z + 4 * s.domain.edges.max, 2048, 2048);
    s.reference = sample_vortex(s.domain, table);
    const Hamiltonian h = s.domain.hamiltonian(where, s.lambda, s.g);
    normalise(s.backend, h, s.reference);
    s.mu_reference = v.chemical_potential();
    s.reference_is_exact = true;
    if (s.initial_type == "ground") {
      s.relaxation = relax_to_ground_state(s.backend, h, s.reference, p.get_real("initial.ground_tolerance"),
                                           p.get_int("initial.ground_iterations"));
      if (!s.relaxation.converged)
        throw UsageError(fmt::format(
            "initial.ground_iterations = {}: the ground state reached a residual of {:.2e} "
            "only (initial.ground_tolerance = {})",
            p.get_int("initial.ground_iterations"), s.relaxation.residual, p.get_real("initial.ground_tolerance")));
      s.mu_reference = s.relaxation.mu;  // the discrete ground state rotates with its own mu
    }
    s.current = s.reference.clone();
    const double amplitude = p.get_real("initial.perturbation");
    if (amplitude > 0) {
      perturb(s.current, amplitude, static_cast<std::uint64_t>(p.get_int("initial.seed")));
      normalise(s.backend, h, s.current);
    }
    // The splitting detector's annulus: around the core edge at z = 0, where f rises to half its peak.
    if (s.kappa != 0) {
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
  }
  // Time step: eq. (11) on the actual M_ii of the initial state.
  {
    LeapfrogIntegrator probe(s.backend, s.domain, s.lambda, s.g);
    probe.set_state(s.current.clone(), s.current.clone(), 0, 0, 0);
    s.dt_bound = probe.stability_bound();
  }
  if (s.initial_type != "checkpoint") {
    const double requested = p.get_real("time.dt");
    if (requested == 0)
      s.dt = p.get_real("time.safety") * s.dt_bound;
    else if (requested > s.dt_bound && !p.get_bool("time.unsafe"))
      throw UsageError(
          fmt::format("time.dt = {}: expected a number <= {:.6g}, the stability bound of eq. 11 on this "
                      "lattice (or set time.unsafe = true)",
                      requested, s.dt_bound));
    else
      s.dt = requested;
    s.t0 = 0;
  }
  if (p.get_string("kernel") == "auto") s.kernel = default_leapfrog_kernel(s.backend, s.domain.lattice.cells);
  s.work_rule = p.get_string("grid.equal_work_rule");
  s.work = work_per_time_unit(equal_work_rule(p), s.domain.grid, s.domain.scale, 0.5 * s.domain.extent(), s.lambda,
                              s.vortex ? std::abs(s.g) * s.vortex->max_f() * s.vortex->max_f() : 0.0);
  return s;
}

// The slab of vertices with |z| below half a structure height, for the z = 0 cross-section plots (Fig. 4, 6).
std::string z0_slice_csv(const Hamiltonian& host_h, const Complex* psi, double half_height) {
  std::string out = "x,y,z,density\n";
  const auto [z_first, z_last] = layers_within(host_h, half_height);
  const Index per_layer = Index(host_h.lattice.cells) * host_h.lattice.nx * host_h.lattice.ny;
  for (Index i = Index(z_first) * per_layer; i < Index(z_last + 1) * per_layer; ++i) {
    const dec::Vec3 r = host_h.position(i);
    if (std::abs(r.z) <= half_height) out += fmt::format("{},{},{},{}\n", r.x, r.y, r.z, core::norm2(psi[i]));
  }
  return out;
}

std::string field_snapshot(const io::RunDirectory& run, const Hamiltonian& host_h, const Complex* psi, double t,
                           int index) {
  const Index n = host_h.lattice.size();
  const auto size = static_cast<std::size_t>(n);
  std::vector<double> xyz(3 * size), density(size), phase(size), re(size), im(size);
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) {
    const dec::Vec3 r = host_h.position(i);
    xyz[3 * std::size_t(i)] = r.x;
    xyz[3 * std::size_t(i) + 1] = r.y;
    xyz[3 * std::size_t(i) + 2] = r.z;
    density[std::size_t(i)] = core::norm2(psi[i]);
    phase[std::size_t(i)] = std::atan2(psi[i].im, psi[i].re);
    re[std::size_t(i)] = psi[i].re;
    im[std::size_t(i)] = psi[i].im;
  }
  return io::write_point_fields(run.file(fmt::format("psi_{:04d}.h5", index)), xyz,
                                {{"density", density, 1}, {"phase", phase, 1}, {"re", re, 1}, {"im", im, 1}}, t);
}

}  // namespace

int run_gpe(const io::Parameters& p) {
  core::WallTimer wall;
  const comm::Communicator world = comm::Communicator::world();
  const bool root = world.is_root();
  if (world.size() > 1) comm::select_rank_device(world);  // before anything is allocated on a device
  Setup s = prepare(p);
  const bool quiet = p.get_bool("quiet") || !root;
  const auto where = core::where(s.backend);

  // Every rank prepared the global initial state (as one rank would, to the bit); each keeps its slab of it. Too
  // many ranks for the layers, or CUDA-aware halos from an MPI without, are bad input: before any output.
  const SlabDomain slab(s.domain, world);
  RootView gathered(slab);
  LeapfrogIntegrator integrator(s.backend, slab, s.lambda, s.g,
                                parse_halo_transport(p.get_string("mpi.halo_transport"), "mpi.halo_transport"));
  integrator.set_kernel(s.kernel);

  // Everything is valid: from here on, outputs are written (by rank 0).
  const std::optional<io::RunDirectory> run = create_run_directory(p, world);
  // The reference state of E(t) and the RMSE: the slab's part on the backend, the global one on rank 0's host.
  std::vector<Complex> reference_global;
  if (slab.distributed() && root) reference_global = to_vector(s.reference);
  const core::Array<Complex> reference_local = slab.restrict_to_slab(std::move(s.reference));
  const Complex* reference_host =
      !slab.distributed() ? reference_local.read(core::Where::host) : reference_global.data();
  if (s.initial_type == "checkpoint") {
    integrator.set_state(slab.restrict_to_slab(std::move(s.previous)), slab.restrict_to_slab(std::move(s.current)),
                         s.t0, s.dt, s.step0);
  } else if (p.get_string("time.starter") == "exact" && p.get_real("initial.perturbation") == 0) {
    // The exact time dependence of a stationary state: psi(-dt) = psi(0) e^{+i mu dt} (section 5).
    core::Array<Complex> previous = s.current.clone();
    const Complex phase = core::polar(1.0, s.mu_reference * s.dt);
    Complex* pp = previous.read_write(core::Where::host);
    for (std::size_t i = 0; i < previous.size(); ++i) pp[i] = phase * pp[i];
    s.starter = s.initial_type == "ground" ? "discrete ground state, exact phase e^{i mu dt}"
                                           : "stationary vortex, exact phase e^{i mu dt}";
    integrator.set_state(slab.restrict_to_slab(std::move(previous)), slab.restrict_to_slab(std::move(s.current)), 0.0,
                         s.dt, 0);
  } else {
    // The continuum stationary state is not stationary on the lattice: its exact phase would start every lattice
    // mode k with the wrong frequency and excite the leapfrog's parasitic (step-to-step alternating) root with
    // amplitude ~ (omega_k - mu) dt. One RK4 step follows the lattice dynamics instead (BCC, 10 edges per
    // wavelength, kappa = 10: norm oscillation 4e-6 instead of 3e-4).
    s.starter = "one RK4 step backwards from psi(0)";
    integrator.start_from(slab.restrict_to_slab(std::move(s.current)), 0.0, s.dt);
  }

  const Hamiltonian h = integrator.hamiltonian();                                     // the slab's, on the backend
  const Hamiltonian host_h = s.domain.hamiltonian(core::Where::host, s.lambda, s.g);  // the global lattice's
  const double t_end = p.get_real("time.t_end");
  const double every = p.get_real("output.every") > 0 ? p.get_real("output.every") : t_end / 200;
  const std::int64_t steps_per_row = std::max<std::int64_t>(1, std::llround(every / s.dt));
  const std::int64_t total_steps =
      std::max<std::int64_t>(0, std::llround(std::ceil((t_end - integrator.time()) / s.dt - 1e-9)));
  const double fields_every = p.get_real("output.fields_every");
  const std::int64_t steps_per_snapshot =
      fields_every > 0 ? std::max<std::int64_t>(1, std::llround(fields_every / s.dt)) : 0;
  const double slice_half_height = 0.6 * s.domain.edges.mean;
  const auto slice_layers = layers_within(host_h, slice_half_height);
  const auto ring_layers = layers_within(host_h, s.ring_half_height);

  std::unique_ptr<io::SeriesWriter> series;
  std::optional<io::FieldSeries> fields;
  if (root) {
    series = run->open_series(
        {"t", "norm", "energy", "mu", "E", "RMSE", "max_abs_psi", "dominant_mode", "mode_amplitude", "wall_s"});
    fields.emplace(run->file("psi.xdmf"));
  }
  const Complex* reference = reference_local.read(where);
  const Observables initial = measure(slab, s.backend, h, integrator.current().read(where));
  nlohmann::json splitting = {{"detected", false}};
  int snapshot_index = 0;

  // Collective; every rank takes the same branches, as the sums in rank order give every rank the same bits.
  auto record = [&]() {
    const Complex* psi = integrator.current().read(where);
    const Observables o = measure(slab, s.backend, h, psi);
    const double t = integrator.time();
    const Complex overlap = inner_product(slab, s.backend, h, reference, psi);
    const double e_error = 1 - core::abs(overlap);
    const double rmse = rms_difference(slab, s.backend, psi, reference, core::polar(1.0, -s.mu_reference * t));
    AzimuthalModes modes;
    if (s.ring_outer > 0) {
      const Complex* near_z0 = gathered.layers(integrator.current(), ring_layers);
      if (root)
        modes = azimuthal_modes(host_h, near_z0, reference_host, s.ring_inner, s.ring_outer, s.ring_half_height);
    }
    if (root)
      series->append({t, o.norm, o.energy(), o.mu(), e_error, rmse, o.max_abs, double(modes.dominant),
                      modes.relative_amplitude, wall.seconds()});
    if (!splitting["detected"].get<bool>() && e_error > 0.01) {
      splitting = {{"detected", true},
                   {"time", t},
                   {"E", e_error},
                   {"dominant_mode", modes.dominant},
                   {"relative_amplitude", modes.relative_amplitude},
                   {"amplitudes", modes.amplitudes}};
      const Complex* near_z0 = gathered.layers(integrator.current(), slice_layers);
      if (root) run->write_text("slice_z0_split.csv", z0_slice_csv(host_h, near_z0, slice_half_height));
    }
    return o;
  };
  auto snapshot = [&]() {
    const Complex* psi = gathered.all(integrator.current());
    if (root) fields->add(field_snapshot(*run, host_h, psi, integrator.time(), snapshot_index));
    ++snapshot_index;
  };
  auto write_slice = [&](const std::string& name) {
    const Complex* near_z0 = gathered.layers(integrator.current(), slice_layers);
    if (root) run->write_text(name, z0_slice_csv(host_h, near_z0, slice_half_height));
  };
  auto checkpoint = [&]() {
    Checkpoint c;
    c.previous = gathered.vector(integrator.previous());
    c.current = gathered.vector(integrator.current());
    if (!root) return;
    c.grid = std::string(dec::to_string(s.domain.grid));
    c.scale = s.domain.scale;
    c.nx = s.domain.lattice.nx;
    c.ny = s.domain.lattice.ny;
    c.nz = s.domain.lattice.nz;
    c.lambda = s.lambda;
    c.g = s.g;
    c.kappa = s.kappa;
    c.time = integrator.time();
    c.dt = integrator.dt();
    c.step = integrator.steps_done();
    c.mu_reference = s.reference_is_exact ? s.mu_reference : 0;
    c.reference = slab.distributed() ? reference_global : to_vector(reference_local);
    c.input = p.to_toml();
    write_checkpoint(run->file("checkpoint.h5"), c);
  };

  if (!quiet) {
    std::cerr << fmt::format(
        "gpe: {} grid, {} dual vertices ({} x {} x {} structures), dual edge {:.4g}, dt {:.4g} "
        "(bound {:.4g}), {} steps on {}\n",
        dec::display_name(s.domain.grid), s.domain.dof(), s.domain.lattice.nx, s.domain.lattice.ny, s.domain.lattice.nz,
        s.domain.edges.mean, s.dt, s.dt_bound, total_steps, core::to_string(s.backend));
    if (slab.distributed())
      std::cerr << fmt::format("gpe: {} MPI ranks, slabs of {}-{} structure layers, halos through {}\n", world.size(),
                               s.domain.lattice.nz / world.size(),
                               (s.domain.lattice.nz + world.size() - 1) / world.size(), integrator.halo_transport());
  }
  record();
  write_slice("slice_z0_initial.csv");
  snapshot();

  core::WallTimer since_checkpoint, since_progress, stepping;
  double stepping_seconds = 0;
  const double checkpoint_every = p.get_real("output.checkpoint_every");
  for (std::int64_t done = 0; done < total_steps;) {
    const std::int64_t chunk = std::min(steps_per_row - (integrator.steps_done() % steps_per_row), total_steps - done);
    stepping.start();
    integrator.step(chunk);
    if (s.backend == core::Backend::cuda) cuda::synchronize();
    stepping_seconds += stepping.seconds();
    done += chunk;
    if (integrator.steps_done() % steps_per_row == 0 || done == total_steps) record();
    if (steps_per_snapshot > 0 && integrator.steps_done() % steps_per_snapshot == 0 && done < total_steps) snapshot();
    // Every rank must agree that a checkpoint is due: the gather is collective.
    bool checkpoint_due = checkpoint_every > 0 && since_checkpoint.seconds() > checkpoint_every;
    if (slab.distributed()) checkpoint_due = world.max(checkpoint_due ? 1.0 : 0.0) > 0;
    if (checkpoint_due) {
      checkpoint();
      since_checkpoint.start();
    }
    if (!quiet && (since_progress.seconds() > 2 || done == total_steps)) {
      const double rate = done / std::max(stepping_seconds, 1e-9);
      std::cerr << fmt::format("gpe: step {}/{} ({:.0f}%), t = {:.4g}, {:.0f} steps/s, ETA {:.0f} s\n", done,
                               total_steps, 100.0 * done / std::max<std::int64_t>(total_steps, 1), integrator.time(),
                               rate, (total_steps - done) / std::max(rate, 1e-9));
      since_progress.start();
    }
  }
  if (root) series->close();
  const Observables final = measure(slab, s.backend, h, integrator.current().read(where));
  snapshot();
  write_slice("slice_z0_final.csv");
  checkpoint();
  const double final_error =
      1 - core::abs(inner_product(slab, s.backend, h, reference, integrator.current().read(where)));
  stepping_seconds = world.max(stepping_seconds);  // the slowest rank's
  if (!root) return 0;

  nlohmann::json j;
  j["loom"] = {{"version", LOOM_VERSION}, {"git_commit", LOOM_GIT_COMMIT}, {"build_type", LOOM_BUILD_TYPE}};
  j["backend"] = std::string(core::to_string(s.backend));
  j["kernel"] = std::string(to_string(s.kernel));
  if (s.backend == core::Backend::cuda) j["device"] = cuda::device_info(cuda::current_device()).name;
  if (s.backend == core::Backend::cuda && s.kernel == LeapfrogKernel::soa) {
    const SoaTuning t = integrator.soa_tuning();
    j["soa_launch"] = {{"band_rows", t.band_rows},
                       {"vertices_per_thread", t.vertices_per_thread},
                       {"row_tiles", t.row_tiles},
                       {"ordered_tiles", t.ordered_tiles},
                       {"column_layers", t.column_layers}};
  }
  if (s.backend == core::Backend::cuda && s.kernel == LeapfrogKernel::march) {
    const MarchTiling t = integrator.march_tiling();
    j["march_launch"] = {
        {"tile_x", t.tile_x}, {"tile_y", t.tile_y}, {"layers_ahead", t.ahead}, {"pitched_rows", t.pitched_rows}};
    if (t.segment_layers > 0)
      j["march_launch"]["segment_layers"] = t.segment_layers;
    else
      j["march_launch"]["segment_layers"] = "balanced";
  }
  j["ranks"] = world.size();
  if (slab.distributed()) j["halo_transport"] = std::string(integrator.halo_transport());
  j["grid"] = std::string(dec::to_string(s.domain.grid));
  j["structures"] = {s.domain.lattice.nx, s.domain.lattice.ny, s.domain.lattice.nz};
  j["dof"] = s.domain.dof();
  j["scale"] = s.domain.scale;
  j["dual_edge"] = {{"min", s.domain.edges.min}, {"mean", s.domain.edges.mean}, {"max", s.domain.edges.max}};
  j["domain_extent"] = {s.domain.extent().x, s.domain.extent().y, s.domain.extent().z};
  j["physics"] = {{"lambda", s.lambda}, {"g", s.g}, {"kappa", s.kappa}};
  j["initial_type"] = s.initial_type;
  j["starter"] = s.starter;
  j["chemical_potential"] = s.mu_reference;
  if (s.vortex) {
    j["effective_wavelength"] = s.vortex->effective_wavelength();
    j["dual_edges_per_wavelength"] = s.vortex->effective_wavelength() / s.domain.edges.mean;
    j["max_dual_edge_over_wavelength"] = s.domain.edges.max / s.vortex->effective_wavelength();
    j["stationary_solver"] = {{"modes", {s.vortex->radial_modes(), s.vortex->axial_modes()}},
                              {"iterations", s.vortex->iterations()},
                              {"residual", s.vortex->residual()}};
  }
  if (s.initial_type == "ground")
    j["ground_state"] = {
        {"mu", s.relaxation.mu}, {"residual", s.relaxation.residual}, {"iterations", s.relaxation.iterations}};
  j["dt"] = s.dt;
  j["dt_bound"] = s.dt_bound;
  j["work_per_time_unit"] = s.work;
  j["equal_work_rule"] = s.work_rule;
  j["steps"] = integrator.steps_done();
  j["t_end"] = integrator.time();
  j["initial"] = {{"norm", initial.norm}, {"energy", initial.energy()}, {"mu", initial.mu()}};
  j["final"] = {{"norm", final.norm}, {"energy", final.energy()}, {"mu", final.mu()}, {"max_abs_psi", final.max_abs}};
  j["norm_drift"] = final.norm / initial.norm - 1;
  j["energy_drift"] = final.energy() / initial.energy() - 1;
  j["splitting"] = splitting;
  j["wall_s"] = wall.seconds();
  j["stepping_s"] = stepping_seconds;
  j["dof_updates_per_s"] = stepping_seconds > 0 ? double(total_steps) * double(s.domain.dof()) / stepping_seconds : 0;
  if (!s.previous_input.empty()) j["restarted_from"] = p.get_string("initial.checkpoint");
  run->write_summary(j);

  if (p.get_bool("output.plots")) {
    const std::string why = io::run_plot_script("plot_gpe.py", {run->path().string()});
    if (!why.empty() && !quiet) std::cerr << why << "\n";
  }
  std::cout << fmt::format(
      "gpe: {} on {}: mu = {:.8g}, {} steps to t = {:.4g}, E = {:.3e}, norm drift {:.2e}, "
      "energy drift {:.2e}\n",
      dec::display_name(s.domain.grid), core::to_string(s.backend), s.mu_reference, integrator.steps_done(),
      integrator.time(), final_error, j["norm_drift"].get<double>(), j["energy_drift"].get<double>());
  std::cout << "outputs: " << run->path().string() << " (series.csv, summary.json, psi.xdmf for ParaView, PNG plots)\n";
  return 0;
}

}  // namespace loom::gpe
