#include "loom/hit/config.hpp"

#include <fmt/format.h>

#include <cmath>

#include "loom/comm/communicator.hpp"
#include "loom/core/error.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/run_directory.hpp"

namespace loom::hit {

void declare_solver_keys(io::Parameters& p, bool both_callbacks) {
  p.add("scheme", "rk4", "time integrator (integrating-factor Runge-Kutta)").one_of({"rk4", "rk2"});
  p.add("dealias", "two_thirds",
        "dealiasing: two_thirds (|k_i| < n/3) or phase_shift (two shifted grids, |k| < sqrt(2) n/3)")
      .one_of({"two_thirds", "phase_shift"});
  p.add("fft.planning", "estimate", "FFTW planning effort (the CPU): estimate or measure").one_of({"estimate", "measure"});
  p.add("fft.slabs", "fftw_mpi",
        "transforms of several ranks on the CPU: fftw_mpi (FFTW's MPI transforms) or alltoall (2D and 1D FFTW "
        "transforms with MPI_Alltoall transposes, the GPU's algorithm; the GPU always uses it)")
      .one_of({"fftw_mpi", "alltoall"});
  p.add("fft.callbacks", "off",
        std::string("the pointwise work before and after the transforms inside them: on (cuFFT's LTO callbacks on one "
                    "GPU; elsewhere the same functions as passes of their own) or off (separate kernels)") +
            (both_callbacks ? "; both: a row of each" : ""))
      .one_of(both_callbacks ? std::vector<std::string>{"off", "on", "both"} : std::vector<std::string>{"off", "on"});
  p.add("fft.pruned", "auto",
        std::string("the transforms of the step as 1D passes that skip the lines of modes the dealiasing drops (one "
                    "rank): on, off, or auto (on where measured faster: one rank under two_thirds, GPU and CPU)") +
            (both_callbacks ? "; both: a row of each" : ""))
      .one_of(both_callbacks ? std::vector<std::string>{"auto", "off", "on", "both"}
                             : std::vector<std::string>{"auto", "off", "on"});
  p.add("fft.pruned_form", "columns",
        std::string("how the pruned passes are grouped: columns (z along the kept ky rows, then y and x as one 2D real "
                    "transform) or planes (z and y as one 2D transform of each plane of kept kx, then x; strided, "
                    "slow on cuFFT)") +
            (both_callbacks ? "; both: a row of each" : ""))
      .one_of(both_callbacks ? std::vector<std::string>{"planes", "columns", "both"}
                             : std::vector<std::string>{"planes", "columns"});
}

SolverOptions solver_options(const io::Parameters& p, double nu) {
  SolverOptions o;
  o.nu = nu;
  o.scheme = p.get_string("scheme") == "rk2" ? Scheme::rk2 : Scheme::rk4;
  o.dealiasing = p.get_string("dealias") == "phase_shift" ? Dealiasing::phase_shift : Dealiasing::two_thirds;
  o.planning = p.get_string("fft.planning") == "measure" ? FftPlanning::measure : FftPlanning::estimate;
  o.slabs = p.get_string("fft.slabs") == "alltoall" ? SlabTransform::alltoall : SlabTransform::fftw_mpi;
  o.callbacks = p.get_string("fft.callbacks") == "on";
  const std::string& pruned = p.get_string("fft.pruned");
  o.pruning = pruned == "on" ? Pruning::on : pruned == "off" ? Pruning::off : Pruning::automatic;
  o.pruned_form = p.get_string("fft.pruned_form") == "planes" ? PrunedForm::planes : PrunedForm::columns;
  return o;
}

io::Parameters hit_parameters() {
  io::Parameters p;
  p.add("backend", "auto", "where to run (auto: cpu under mpiexec with several ranks; cuda takes one GPU per rank, ranks share one "
                               "where there are fewer)")
      .one_of({"auto", "cpu", "cuda"});
  p.add("quiet", false, "no progress lines on stderr");
  p.add("grid.n", 32, "points per direction of the periodic box [0, 2 pi)^3 (even)").at_least(8).at_most(max_grid_n);
  p.add("physics.nu", 0.000625, "kinematic viscosity").greater_than(0).at_most(1e3);
  declare_solver_keys(p);
  p.add("initial.type", "taylor_green",
        "initial field: taylor_green, random (solenoidal, prescribed spectrum, from a seed), file (HDF5 "
        "fields/velocity of shape n x n x n x 3, x fastest, e.g. a field snapshot of loom hit), checkpoint")
      .one_of({"taylor_green", "random", "file", "checkpoint"});
  // A field's size only rescales time (Re follows from it and physics.nu): the bounds keep its square finite.
  p.add("initial.amplitude", 1.0, "Taylor-Green amplitude V0").greater_than(0).at_most(1e6);
  p.add("initial.spectrum", "exponential",
        "random field's spectrum: exponential k^4 exp(-2 (k/k_p)^2) or von_karman (k/k_p)^4 (1 + (k/k_p)^2)^(-17/6)")
      .one_of({"exponential", "von_karman"});
  p.add("initial.k_peak", 4.0, "random field: the spectrum's peak wavenumber k_p").greater_than(0);
  p.add("initial.energy", 0.5, "random field: total kinetic energy 0.5 <|u|^2>").greater_than(0).at_most(1e12);
  p.add("initial.seed", 1, "random field: seed of the random phases").at_least(0);
  p.add("initial.file", "", "HDF5 file for initial.type = file or checkpoint");
  p.add("forcing.k_max", 0.0,
        "hold the energy of the modes with 0 < |k| <= forcing.k_max at its initial value (statistically stationary "
        "runs; the issue's choice is 2); 0: decaying turbulence")
      .at_least(0);
  p.add("time.t_end", 1.0, "end time").greater_than(0);
  p.add("time.dt", 0.0, "fixed time step; 0: from time.cfl at every step").at_least(0);
  p.add("time.cfl", 0.5, "Courant number dt max(|u|+|v|+|w|) / dx when time.dt = 0")
      .greater_than(0)
      .at_most(courant_limit);
  p.add("time.unsafe", false, "allow a fixed time.dt above the Courant limit 1");
  io::declare_run_directory_keys(p, "hit");
  p.add("output.every", 0.0, "time between rows of series.csv and spectra.csv; 0: t_end / 100").at_least(0);
  p.add("output.fields", true, "write HDF5 + XDMF fields (velocity, vorticity magnitude)");
  p.add("output.fields_every", 0.0, "time between field snapshots; 0: initial and final only").at_least(0);
  return p;
}

InitialConfig initial_config(const io::Parameters& p) {
  InitialConfig c;
  const std::string& type = p.get_string("initial.type");
  c.type = type == "random" ? InitialType::random
           : type == "file" ? InitialType::file
           : type == "checkpoint" ? InitialType::checkpoint
                                  : InitialType::taylor_green;
  c.amplitude = p.get_real("initial.amplitude");
  c.spectrum = p.get_string("initial.spectrum") == "von_karman" ? SpectrumShape::von_karman : SpectrumShape::exponential;
  c.k_peak = p.get_real("initial.k_peak");
  c.energy = p.get_real("initial.energy");
  c.seed = static_cast<std::uint64_t>(p.get_int("initial.seed"));
  c.file = p.get_string("initial.file");
  const bool reads_file = c.type == InitialType::file || c.type == InitialType::checkpoint;
  if (reads_file && c.file.empty())
    throw UsageError(fmt::format("initial.file = \"\": initial.type = {} needs an HDF5 file", type));
  if (!reads_file && p.source("initial.file") == io::ParamSource::flag)  // not silently ignored
    throw UsageError(
        io::invalid_value_message("initial.file", c.file, "no value unless initial.type = file or checkpoint"));
  return c;
}

HitConfig make_hit_config(const io::Parameters& p) {
  HitConfig c;
  const bool ranks = comm::Communicator::world().size() > 1;
  c.backend = ranks && p.get_string("backend") == "auto" ? core::Backend::cpu
                                                         : core::parse_backend(p.get_string("backend"), "backend");
  c.quiet = p.get_bool("quiet");
  c.grid.n = p.get_int("grid.n");
  if (c.grid.n % 2 != 0)
    throw UsageError(io::invalid_value_message("grid.n", p.value("grid.n"), "an even integer in [8, " + std::to_string(max_grid_n) + "]"));
  c.grid_set = p.user_set("grid.n");
  c.solver = solver_options(p, p.get_real("physics.nu"));
  c.initial = initial_config(p);
  c.time = {p.get_real("time.t_end"), p.get_real("time.dt"), p.get_real("time.cfl"), p.get_bool("time.unsafe")};
  c.forcing_k = p.get_real("forcing.k_max");
  // Wavenumbers beyond the grid's largest |k| (sqrt(3) n / 2) name modes the grid does not have (a file's grid
  // is known only once it is read).
  const double k_grid = std::sqrt(3.0) * double(c.grid.n) / 2;
  const bool grid_known =
      c.grid_set || c.initial.type == InitialType::taylor_green || c.initial.type == InitialType::random;
  for (const char* key : {"forcing.k_max", "initial.k_peak"})
    if (grid_known && p.get_real(key) > k_grid)
      throw UsageError(io::invalid_value_message(key, p.value(key), fmt::format("at most {:.4g}, the largest |k| of "
                                                                                "grid.n = {}", k_grid, c.grid.n)));
  c.output.dir = p.get_string("output.dir");
  io::check_output_dir("output.dir", c.output.dir);
  c.output.overwrite = p.get_bool("output.overwrite");
  c.output.every = p.get_real("output.every");
  io::check_output_period("output.every", c.output.every, c.time.t_end);
  c.output.fields = p.get_bool("output.fields");
  c.output.fields_every = p.get_real("output.fields_every");
  io::check_output_period("output.fields_every", c.output.fields_every, c.time.t_end);
  c.output.checkpoint_every = p.get_real("output.checkpoint_every");
  c.output.plots = p.get_bool("output.plots");
  return c;
}

}  // namespace loom::hit
