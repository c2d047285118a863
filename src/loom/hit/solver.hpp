// `loom hit`'s integrator: incompressible Navier-Stokes in [0, 2 pi)^3 for the velocity's modes u_hat,
//   d u_hat / dt = P(k) [(u x omega)^] - nu k^2 u_hat,                                         (1)
// the nonlinear term in rotational form evaluated on the grid, projected onto divergence-free fields, dealiased;
// the viscous term by the integrating factor of stages.hpp. The whole step runs on the backend (kernels and
// FFTs queued on the device's default stream; no array crosses the bus inside step()).
#pragma once

#include <limits>
#include <memory>
#include <optional>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/hit/kept_lines.hpp"
#include "loom/hit/model.hpp"
#include "loom/hit/stage_modes.hpp"
#include "loom/hit/stages.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {

// How long a step is: `dt` when it is > 0; otherwise chosen at the step's start so that the Courant number
// dt max(|u| + |v| + |w|) / dx equals `cfl`, but no longer than `dt_cap` (to land on output times).
struct StepRule {
  double dt = 0;
  double cfl = 0.5;
  double dt_cap = std::numeric_limits<double>::infinity();
};

// The transforms of several ranks: FFTW's MPI transforms (the CPU only), or the transposes by MPI_Alltoall between
// 2D and 1D transforms of transforms_slabs.hpp (on the GPU always, on the CPU when asked).
enum class SlabTransform { fftw_mpi, alltoall };

// fft.pruned: the evaluations of N through the pruned transforms of kept_lines.hpp (one rank; several ranks keep
// the plain slab transforms), or through the plain ones; automatic: pruned where measured faster, one rank under
// the 2/3 rule on either backend (uses_pruned_transforms(); the H200 and its host's 16-core FFTW).
enum class Pruning { off, on, automatic };

struct SolverOptions {
  double nu = 0;
  Scheme scheme = Scheme::rk4;
  Dealiasing dealiasing = Dealiasing::two_thirds;
  FftPlanning planning = FftPlanning::estimate;
  SlabTransform slabs = SlabTransform::fftw_mpi;
  // The pointwise work before and after the transforms inside them (stage_modes.hpp): cuFFT's load and store
  // callbacks on one GPU; elsewhere the same functions as passes of their own (the CPU runs them for the tests).
  bool callbacks = false;
  Pruning pruning = Pruning::automatic;
  PrunedForm pruned_form = PrunedForm::columns;  // the faster on the H200 (docs/performance.md, ninth session)
};

// Whether a solver with these options on `ranks` ranks evaluates N through the pruned transforms.
bool uses_pruned_transforms(core::Backend backend, const SolverOptions& options, int ranks);
// Whether it then writes only the kept modes of the fields the inverse transforms read (their reads_kept_input():
// both pruned forms on FFTW, the columns form on cuFFT), and whether its stages' updates write the next
// evaluation's fields themselves (one grid per evaluation: not with phase-shift dealiasing).
bool writes_kept_fields(core::Backend backend, const SolverOptions& options, int ranks);
bool fuses_stages(core::Backend backend, const SolverOptions& options, int ranks);

// On several ranks (a communicator of more than one) each rank holds a slab of the modes and of the grid
// (slab_layout.hpp) and the slab transforms connect them; every array below is then the rank's part.
class Solver {
 public:
  Solver(core::Backend backend, SpectralGrid grid, SolverOptions options,
         std::optional<comm::Communicator> comm = std::nullopt);

  // The state: three components of layout().modes() modes each (x, then y, then z, layout().mode_stride apart),
  // truncated to the kept modes.
  void set_modes(core::Array<Complex> u_hat, double t = 0, Index steps = 0);
  // The same from the velocity on the whole grid (3 components of grid.points() values, on every rank).
  void set_velocity(const core::Array<double>& u, double t = 0);
  // The same from the rank's own points (3 components of layout().point_stride values, stored as the layout
  // stores them: initial fields built on the slab alone).
  void set_local_velocity(const core::Array<double>& u, double t = 0);
  // One time step by `rule`; returns its length.
  double step(const StepRule& rule);

  double time() const { return t_; }
  Index steps() const { return steps_; }
  const core::Array<Complex>& modes() const { return u_; }
  // The modes on the backend for an update between steps (forcing); the caller keeps them divergence-free.
  Complex* modes_for_update() { return u_.read_write(core::where(backend_)); }
  core::Backend backend() const { return backend_; }
  SpectralGrid grid() const { return grid_; }
  const SlabLayout& layout() const { return fft_->layout(); }
  bool distributed() const { return comm_.has_value() && comm_->size() > 1; }
  // Sums and maxima of the ranks' parts (the identity on one rank).
  double sum_over_ranks(double x) const { return distributed() ? comm_->sum(x) : x; }
  double max_over_ranks(double x) const { return distributed() ? comm_->max(x) : x; }
  const std::optional<comm::Communicator>& communicator() const { return comm_; }
  const SolverOptions& options() const { return options_; }

  // The velocity on the grid: the first 3 of the 6 components of the solver's work space (so valid until the next
  // call of anything).
  const core::Array<double>& velocity();
  // max over the grid (all ranks) of |u| + |v| + |w|, for the Courant number.
  double max_speed_sum();
  // Work space for the observables: 6 components of modes and of points (strides as the layout's).
  core::Array<Complex>& spectral_work() { return spectral_; }
  core::Array<double>& physical_work() { return physical_; }
  Transforms& transforms() { return *fft_; }
  // The transforms of the evaluations of N: the pruned ones (fft.pruned) or transforms().
  Transforms& stage_transforms() { return pruned_ ? *pruned_ : *fft_; }
  bool pruned() const { return pruned_ != nullptr; }
  // writes_kept_fields() and fuses_stages() above, for this solver; kept_fields(): the six fields of the last
  // evaluation when writes_kept_fields() (zero outside the kept modes), else empty.
  bool writes_kept_fields() const { return kept_input_; }
  const core::Array<Complex>& kept_fields() const { return kept_; }
  bool fuses_stages() const { return fused_; }

  // The three parts of one evaluation of N in step() (public only because nvcc's extended lambdas need it).
  void to_physical(const Complex* input, int shift);
  void fields_to_grid();
  double cross_product(bool want_speed);
  void finish_stage(const Stage& stage, double h, int shift, int shifts);
  void modes_from_points(double t);

 private:

  core::Backend backend_;
  SpectralGrid grid_;
  SolverOptions options_;
  std::optional<comm::Communicator> comm_;
  std::unique_ptr<Transforms> fft_;
  std::unique_ptr<Transforms> pruned_;  // null: N through fft_
  bool kept_input_ = false, fused_ = false;
  // kept_: the six fields of an evaluation when kept_input_ (zero outside the kept modes, written once); w_, the
  // next stage's input, is not needed when fused_.
  core::Array<Complex> u_, w_, acc_, partial_, spectral_, kept_;
  core::Array<double> physical_;
  double t_ = 0;
  Index steps_ = 0;
};

}  // namespace loom::hit
