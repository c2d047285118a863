// `loom vortex`: the vortex particle method from the typed configuration to the run directory: input.toml,
// series.csv (free space: the invariants and the vorticity centroid; periodic: loom hit's statistics columns),
// spectra.csv (periodic), summary.json (a ring's measured speed, the time per step split into tree, FMM, update
// and reinitialisation), HDF5 + XDMF particles, checkpoint.h5 and plots.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>

#include "loom/core/timer.hpp"
#include "loom/io/fields.hpp"
#include "loom/io/run_directory.hpp"
#include "loom/vortex/config.hpp"
#include "loom/vortex/device_stepper.hpp"
#include "loom/vortex/diagnostics.hpp"
#include "loom/vortex/initial.hpp"
#include "loom/vortex/integrator.hpp"
#include "loom/vortex/statistics.hpp"

namespace loom::vortex {

// Seconds of the stepping, split as issue 21 asks.
struct StepTimes {
  double tree = 0, lists = 0, fmm = 0, update = 0, reinit = 0;
  double statistics = 0;  // the rows of series.csv: reported beside the steps, not in their total
  double total() const { return tree + lists + fmm + update + reinit; }
};

// The AB2 steps alone (issue 21's step: one Biot-Savart call, the tree, the update), without the midpoint steps
// that restart AB2 after each reinitialisation (two calls) and without the reinitialisations.
struct Ab2Times {
  double tree = 0, lists = 0, fmm = 0, update = 0;
  Index steps = 0;
};

// Wall seconds outside the steps: building the initial particles, and finish()'s last row and checkpoint.
struct EdgeTimes {
  double start = 0, last_row = 0, checkpoint = 0;
};

class VortexRun {
 public:
  // Builds the initial particles and checks what needs them; throws UsageError before anything is written.
  VortexRun(VortexConfig config, std::string input);

  void open_outputs(const io::Parameters& params);
  // After the first row: with physics.spreading = reinit, the first interval's half of the diffusion (none after a
  // checkpoint written inside an interval: the checkpoint carries it, and the restart ends that interval as the
  // run it came from would have).
  void begin();
  bool finished() const { return step_ >= steps_end_; }
  void step();    // one time step, a reinitialisation when due, and the outputs due after it
  // step() in its two halves. The run over ranks (ranks_run.hpp) advances each rank's particles itself; rank 0's
  // run takes them back by adopt() when after_step() has work to do (due()).
  void advance();
  bool due(Index step) const;  // after_step() has work once the run reaches `step`
  void after_step();
  void adopt(Particles p, Rates previous, Index step, const StepTimes& spent);
  Rates previous() const;
  double dt() const { return dt_; }
  Index last_step() const { return steps_end_; }
  void add_to_summary(const nlohmann::json& j) { extra_summary_.update(j, true); }
  void record();  // a row of series.csv (and spectra.csv), of the particles with the pending spread
  void snapshot();
  void checkpoint();
  nlohmann::json summary() const;
  // stop_signal: the signal that ended the stepping early (io/stop_signal.hpp), or 0; the summary says so and no
  // plots are drawn.
  void finish(int stop_signal = 0);

  const Particles& particles() const { return p_; }
  double time() const { return t_; }
  Index steps() const { return step_; }
  const VortexConfig& config() const { return c_; }

 private:
  void reinitialise();
  Index step_count(double checkpoint_dt);  // the steps to time.t_end, and dt_
  // physics.spreading = reinit: sigma^2 += spread on every core, then reinitialise (the diffusion of the lumped
  // intervals: at an interval's start 2 nu T / 2 for the T ahead, at its end the rest of 2 nu tau for the tau it took).
  void diffuse_and_reinitialise(double spread);
  void end_interval();    // its second half: the diffusion still owed for the interval that just ended
  void start_interval();  // its first half, for the interval ahead (to the next reinitialisation or the end)
  bool lumped() const { return c_.spreading == Spreading::reinit && c_.nu > 0; }
  // The sigma^2 an open interval still owes for the time it has run (0 while its first half is ahead of its time):
  // rows, snapshots and a stopped run's last row report the particles with it applied to a copy of their cores,
  // the state a run ending the interval here would have before its reinitialisation.
  double pending_spread() const;
  Particles with_pending_spread() const;
  // What after_step() does once the run reaches `step` (due() is their union).
  bool reinit_due(Index step) const;
  bool record_due(Index step) const;
  bool snapshot_due(Index step) const;
  bool checkpoint_due() const;
  void fetch_particles();  // the device stepper's particles into p_, when they moved since
  void measure(const Particles& p);  // record()'s row of these particles
  std::vector<std::string> columns() const;

  VortexConfig c_;
  std::string input_;
  Particles p_;
  double t_ = 0, t0_ = 0, dt_ = 0;
  Index step_ = 0, step0_ = 0, steps_end_ = 0;
  Domain domain_;
  std::unique_ptr<RateEvaluator> rates_;
  std::unique_ptr<Integrator> integrator_;
  std::unique_ptr<DeviceStepper> stepper_;  // the CUDA backend with the tree there: particles stay on the device
  bool particles_moved_ = false;            // p_ is behind the stepper's particles
  std::optional<TurbulenceStatistics> statistics_;
  Invariants initial_, last_;
  hit::Statistics turbulence0_, turbulence_;
  SpreadingInterval interval_;  // physics.spreading = reinit: the interval under way (checkpoint.hpp)
  CgResult initial_cg_, last_cg_;
  int reinits_ = 0, cg_worst_iterations_ = 0;
  double cg_worst_residual_ = 0;
  StepTimes times_;
  Ab2Times ab2_;
  EdgeTimes edges_;
  std::optional<io::RunDirectory> run_;
  std::unique_ptr<io::SeriesWriter> series_, spectra_;
  std::optional<io::FieldSeries> fields_;
  int snapshots_ = 0;
  core::WallTimer wall_, since_checkpoint_;
  nlohmann::json extra_summary_ = nlohmann::json::object();
};

// The line run_vortex prints at the end of a run that was not stopped.
void print_outcome(const VortexRun& run);

int run_vortex(const io::Parameters& params);

}  // namespace loom::vortex
