// `loom hit`'s typed configuration: every key declared once in hit_parameters() (the registry the CLI and input
// files set), read and checked once by make_hit_config(); past this point there are enums and numbers, no keys.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "loom/core/backend.hpp"
#include "loom/hit/solver.hpp"
#include "loom/io/parameters.hpp"

namespace loom::hit {

// The largest grid.n: the FFTs take n^3 points in an int (FFTW's plans and cuFFT's sizes), and 1024^3 is the
// largest power of two that fits (2048^3 does not).
inline constexpr long max_grid_n = 1024;

enum class InitialType { taylor_green, random, file, checkpoint };
// The shapes of the random field's spectrum: k^4 exp(-2 (k/k_p)^2), and von Karman's (k/k_p)^4 / (1 + (k/k_p)^2)^(17/6).
enum class SpectrumShape { exponential, von_karman };

struct InitialConfig {
  InitialType type = InitialType::taylor_green;
  double amplitude = 1;  // Taylor-Green: u = A (sin x cos y cos z, -cos x sin y cos z, 0)
  SpectrumShape spectrum = SpectrumShape::exponential;
  double k_peak = 4;     // random: the spectrum's peak wavenumber
  double energy = 0.5;   // random: the total energy 0.5 <|u|^2>
  std::uint64_t seed = 1;
  std::string file;      // file: HDF5 with fields/velocity (nz, ny, nx, 3); checkpoint: a checkpoint.h5
};

struct TimeConfig {
  double t_end = 1;
  double dt = 0;      // 0: from the Courant number `cfl` each step
  double cfl = 0.5;
  bool unsafe = false;  // allow a fixed dt above the Courant limit
};

struct OutputConfig {
  std::filesystem::path dir;  // empty: runs/hit-<date>-<time>
  bool overwrite = false;
  double every = 0;          // time between rows of series.csv and spectra.csv; 0: t_end / 100
  double fields_every = 0;   // time between field snapshots; 0: initial and final only
  double checkpoint_every = 600;  // wall-clock seconds
  bool fields = true;
  bool plots = true;
};

// The Courant number above which a fixed time step is refused (without time.unsafe): RK4's stability interval on
// the imaginary axis, 2.83, over the largest kept k dx (2 pi / 3 under the 2/3 rule), rounded down.
inline constexpr double courant_limit = 1.0;

struct HitConfig {
  core::Backend backend = core::Backend::cpu;
  bool quiet = false;
  SpectralGrid grid{32};
  bool grid_set = false;  // grid.n given by the user (a file's or checkpoint's grid must then agree)
  SolverOptions solver;   // nu, scheme, dealiasing, FFT planning
  InitialConfig initial;
  TimeConfig time;
  OutputConfig output;
  double forcing_k = 0;  // > 0: hold the energy of the modes 0 < |k| <= forcing_k at its initial value
};

// The solver's keys (scheme, dealias, fft.*), shared by `loom hit` and `loom bench hit` (which may time both
// fft.callbacks values), and their values.
void declare_solver_keys(io::Parameters& p, bool both_callbacks = false);
SolverOptions solver_options(const io::Parameters& p, double nu);

// Every key `loom hit` accepts, with its default, allowed values and help.
io::Parameters hit_parameters();

// The initial.* keys (loom vortex declares the same field keys and starts from the same fields).
InitialConfig initial_config(const io::Parameters& p);

// The typed configuration; throws UsageError (one line: key, value, what is allowed) for bad input.
HitConfig make_hit_config(const io::Parameters& p);

}  // namespace loom::hit
