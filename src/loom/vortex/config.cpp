#include "loom/vortex/config.hpp"

#include <fmt/format.h>

#include "loom/core/error.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/run_directory.hpp"

namespace loom::vortex {

std::string_view to_string(InitialType t) {
  switch (t) {
    case InitialType::taylor_green: return "taylor_green";
    case InitialType::hit: return "hit";
    case InitialType::file: return "file";
    case InitialType::checkpoint: return "checkpoint";
    default: return "ring";
  }
}

namespace {

void declare_initial_keys(io::Parameters& p) {
  p.add("initial.type", "ring",
        "initial vorticity: ring (free space), taylor_green, hit (loom hit's seeded random field), file (a loom hit "
        "field snapshot, HDF5 fields/velocity), checkpoint (of loom vortex); all but ring in the periodic box "
        "[0, 2 pi)^3")
      .one_of({"ring", "taylor_green", "hit", "file", "checkpoint"});
  p.add("initial.file", "", "HDF5 file for initial.type = file or checkpoint");
  p.add("initial.amplitude", 1.0, "Taylor-Green amplitude V0 (as loom hit)").greater_than(0);
  p.add("initial.spectrum", "exponential", "hit: the random field's spectrum (as loom hit)")
      .one_of({"exponential", "von_karman"});
  p.add("initial.k_peak", 4.0, "hit: the spectrum's peak wavenumber").greater_than(0);
  p.add("initial.energy", 0.5, "hit: total kinetic energy").greater_than(0);
  p.add("initial.seed", 1, "hit: seed of the random phases (the same field as loom hit's)").at_least(0);
  p.add("ring.circulation", 1.0, "ring: circulation Gamma").greater_than(0).at_most(1e6);
  p.add("ring.radius", 1.0, "ring: radius R").greater_than(0).at_most(1e6);
  p.add("ring.core", 0.1, "ring: core a of omega = Gamma / (pi a^2) exp(-s^2 / a^2)").greater_than(0);
  p.add("ring.spacing", 0.05, "ring: particle spacing h (sigma = particles.overlap h < core / sqrt 2)").greater_than(0);
}

void declare_method_keys(io::Parameters& p) {
  p.add("particles.n", 32,
        "periodic box: loom hit's grid n, on which the initial field is made; the particles sit on a lattice of "
        "particles.refine n per direction, whose grid the statistics are measured on")
      .at_least(8)
      .at_most(hit::max_grid_n);
  p.add("particles.refine", 1,
        "periodic box: particles per grid spacing and direction (2: 8 n^3 particles for loom hit's n^3 grid, finer "
        "cores that resolve the grid's modes to its 2/3 cut)")
      .at_least(1)
      .at_most(4);
  p.add("particles.overlap", 1.0, "core radius over spacing, sigma / h").greater_than(0).at_most(4);
  p.add("physics.nu", 0.0, "kinematic viscosity (core spreading sigma^2 += 2 nu dt)").at_least(0).at_most(1e3);
  p.add("physics.spreading", "auto",
        "when the cores spread: reinit (the cores stay particles.overlap h between reinitialisations, and each "
        "interval's 2 nu T is applied at them, half at its start and half at its end: Strang splitting; needs "
        "reinit.every > 0), steps (sigma^2 += 2 nu dt every step, the paper's), or auto (reinit where reinit.every "
        "> 0, else steps)")
      .one_of({"auto", "reinit", "steps"});
  p.add("time.t_end", 0.5, "end time").greater_than(0);
  p.add("time.dt", 0.01, "time step").greater_than(0);
  p.add("time.scheme", "ab2", "time integrator: ab2 (the paper's), rk3, rk4").one_of({"ab2", "rk3", "rk4"});
  p.add("stretching", "classical", "stretching form: classical (alpha . grad) u or transpose (grad u)^T alpha")
      .one_of({"classical", "transpose"});
  p.add("reinit.every", 0, "steps between reinitialisations onto the lattice (0: never)").at_least(0);
  p.add("reinit.tolerance", 1e-6, "conjugate gradients' relative residual").greater_than(0).less_than(1);
  p.add("reinit.max_iterations", 500, "conjugate gradients' most iterations").at_least(1);
  p.add("reinit.threshold", 1e-6, "free space: nodes with |omega| below this fraction of the largest get no particle")
      .at_least(0)
      .less_than(1);
  p.add("fmm.order", 10, "expansion order p").at_least(1).at_most(20);
  p.add("fmm.theta", 0.4, "multipole acceptance angle").greater_than(0).less_than(1);
  p.add("fmm.ncrit", 64, "most particles per leaf").at_least(1);
  p.add("fmm.precision", "single", "the CUDA backend's kernels: single, single-fast, double")
      .one_of({"single", "single-fast", "double"});
  p.add("fmm.tree", "auto",
        "where the tree and the interaction lists are built: host (the CPU's multisection and dual traversal), "
        "backend (the same on the FMM's backend: on the GPU with backend = cuda, where the particles then stay on "
        "the device between steps), or auto (backend where the backend is cuda, else host)")
      .one_of({"auto", "host", "backend"});
  p.add("fmm.rebuild_cost", 1.05,
        "the device stepper's rule: re-fit the tree to the moved particles (its cells measured again, the error "
        "kept), and rebuild it once an evaluation on the re-fitted tree did more than this factor times the work "
        "of the first after the last build (near-field body pairs or M2L pairs; below 1: rebuild every "
        "evaluation; past 10 a useless tree would be kept); rebuilt at once where a re-fitted leaf passed twice the "
        "build's widest (a particle that crossed a periodic face)")
      .at_least(0)
      .at_most(10);
  p.add("fmm.image_levels", 6, "periodic: image levels beyond the 3^3 near images").at_least(0).at_most(12);
}

void declare_output_keys(io::Parameters& p) {
  io::declare_run_directory_keys(p, "vortex");
  p.add("output.every", 10, "steps between rows of series.csv").at_least(1);
  p.add("output.fields", true, "write HDF5 + XDMF particles (positions, strengths, core radii)");
  p.add("output.fields_every", 0, "steps between particle snapshots; 0: initial and final only").at_least(0);
  p.add("compare", "", "a loom hit run directory whose E(t), epsilon(t) and spectra are plotted with this run's");
}

// physics.spreading = reinit lumps the diffusion into the reinitialisations: there must be some.
Spreading spreading(const std::string& s, int reinit_every) {
  if (s == "steps") return Spreading::steps;
  if (s == "auto") return reinit_every > 0 ? Spreading::reinit : Spreading::steps;
  if (reinit_every == 0)
    throw UsageError("physics.spreading = \"reinit\": expected reinit.every > 0 (the diffusion is applied at the "
                     "reinitialisations)");
  return Spreading::reinit;
}

InitialType initial_type(const std::string& s) {
  if (s == "taylor_green") return InitialType::taylor_green;
  if (s == "hit") return InitialType::hit;
  if (s == "file") return InitialType::file;
  if (s == "checkpoint") return InitialType::checkpoint;
  return InitialType::ring;
}

fmm::Options fmm_options(const io::Parameters& p, core::Backend backend, bool periodic) {
  fmm::Options o;
  o.order = static_cast<int>(p.get_int("fmm.order"));
  o.theta = p.get_real("fmm.theta");
  o.ncrit = static_cast<int>(p.get_int("fmm.ncrit"));
  o.backend = backend;
  o.precision = fmm::parse_precision(p.get_string("fmm.precision"));
  o.periodic = periodic;
  o.period = box_period;
  o.box_lower = {0, 0, 0};
  o.image_levels = static_cast<int>(p.get_int("fmm.image_levels"));
  const std::string& tree = p.get_string("fmm.tree");
  o.tree_on_backend = tree == "backend" || (tree == "auto" && backend == core::Backend::cuda);
  return o;
}

void check_compare(const std::filesystem::path& dir) {
  if (!dir.empty() && !std::filesystem::exists(dir / "series.csv"))
    throw UsageError(fmt::format("compare = \"{}\": expected a loom hit run directory (with series.csv)", dir.string()));
}

}  // namespace

io::Parameters vortex_parameters() {
  io::Parameters p;
  p.add("backend", "auto", "where the FMM runs").one_of({"auto", "cpu", "cuda"});
  p.add("quiet", false, "no progress lines on stderr");
  declare_initial_keys(p);
  declare_method_keys(p);
  declare_output_keys(p);
  return p;
}

VortexConfig make_vortex_config(const io::Parameters& p) {
  VortexConfig c;
  c.backend = core::parse_backend(p.get_string("backend"), "backend");
  c.quiet = p.get_bool("quiet");
  c.initial = initial_type(p.get_string("initial.type"));
  if (c.initial != InitialType::taylor_green)
    io::refuse_unread_keys(p, {"initial.amplitude"}, "unless initial.type = taylor_green");
  if (c.initial != InitialType::hit)
    io::refuse_unread_keys(p, {"initial.spectrum", "initial.k_peak", "initial.energy", "initial.seed"},
                           "unless initial.type = hit");
  if (c.initial == InitialType::ring || c.initial == InitialType::taylor_green || c.initial == InitialType::hit)
    io::refuse_unread_keys(p, {"initial.file"}, "unless initial.type is file or checkpoint");
  c.ring = {p.get_real("ring.circulation"), p.get_real("ring.radius"), p.get_real("ring.core")};
  c.ring_spacing = p.get_real("ring.spacing");
  c.field = hit::initial_config(p);  // the same keys; refuses file and checkpoint without initial.file
  c.checkpoint = c.initial == InitialType::checkpoint ? c.field.file : "";
  c.grid_n = p.get_int("particles.n");
  c.refine = static_cast<int>(p.get_int("particles.refine"));
  c.lattice_n = c.refine * c.grid_n;
  if (c.lattice_n > hit::max_grid_n)
    throw UsageError(fmt::format("particles.refine = {}: expected particles.refine particles.n <= {} (particles.n = "
                                 "{})",
                                 c.refine, hit::max_grid_n, c.grid_n));
  c.overlap = p.get_real("particles.overlap");
  c.nu = p.get_real("physics.nu");
  c.dt = p.get_real("time.dt");
  c.t_end = p.get_real("time.t_end");
  if (c.dt > c.t_end)
    throw UsageError(fmt::format("time.dt = {}: expected a number <= time.t_end = {}", c.dt, c.t_end));
  io::checked_step_count(c.t_end, c.dt, "time.t_end", c.t_end);
  const std::string& scheme = p.get_string("time.scheme");
  c.scheme = scheme == "rk3" ? TimeScheme::rk3 : scheme == "rk4" ? TimeScheme::rk4 : TimeScheme::ab2;
  c.stretching = p.get_string("stretching") == "transpose" ? StretchingForm::transpose : StretchingForm::classical;
  c.reinit_every = static_cast<int>(p.get_int("reinit.every"));
  c.spreading = spreading(p.get_string("physics.spreading"), c.reinit_every);
  c.reinit.overlap = c.overlap;
  c.reinit.tolerance = p.get_real("reinit.tolerance");
  c.reinit.max_iterations = static_cast<int>(p.get_int("reinit.max_iterations"));
  c.reinit.threshold = p.get_real("reinit.threshold");
  c.periodic = c.initial != InitialType::ring;
  c.fmm = fmm_options(p, c.backend, c.periodic);
  c.rebuild_cost = p.get_real("fmm.rebuild_cost");
  c.output.dir = p.get_string("output.dir");
  c.output.overwrite = p.get_bool("output.overwrite");
  c.output.every = static_cast<int>(p.get_int("output.every"));
  c.output.fields = p.get_bool("output.fields");
  c.output.fields_every = static_cast<int>(p.get_int("output.fields_every"));
  c.output.checkpoint_every = p.get_real("output.checkpoint_every");
  c.output.plots = p.get_bool("output.plots");
  c.compare = p.get_string("compare");
  check_compare(c.compare);
  return c;
}

}  // namespace loom::vortex
