// `loom bh`: a Kerr-Schild hole evolved by the GH system on nested shells, from the typed configuration to the
// run directory: input.toml, series.csv (constraint norms and errors per output time), summary.json, HDF5 + XDMF
// fields of the shells with radial_profile.csv (where the constraints are: their largest values over the angles
// per shell and radial index, at each snapshot), checkpoint.h5 and the plot of the constraint norms.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>

#include "loom/core/timer.hpp"
#include "loom/gr/config.hpp"
#include "loom/gr/dormand_prince.hpp"
#include "loom/gr/gh_system.hpp"
#include "loom/gr/step_clock.hpp"
#include "loom/io/fields.hpp"
#include "loom/io/run_directory.hpp"
#include "loom/io/series.hpp"

namespace loom::gr {

class BhRun {
 public:
  // Builds the shells and the initial state and checks what needs them (excision at the inner radius, a
  // checkpoint's grid and hole); throws UsageError before anything is written. `input` is the effective input.
  BhRun(BhConfig config, std::string input);

  void open_outputs(const io::Parameters& params);  // the run directory, input.toml, series.csv
  bool finished() const;
  void step();       // one Dormand-Prince step (stops with loom::Error if excision fails or a value is not finite)
  Norms record();    // a row of series.csv
  void snapshot();   // fields_<index>.h5, the XDMF collection and rows of radial_profile.csv
  void checkpoint();
  nlohmann::json summary() const;
  // The last row, snapshot and checkpoint, summary.json and plots; after a stop signal (its number) the summary
  // names it and no plots are made.
  void finish(int stop_signal = 0);

  double time() const { return time_; }
  Index steps() const { return step_; }
  double dt() const { return dt_; }
  const State& state() const { return state_; }
  GhSystem& system() { return *system_; }
  const BhConfig& config() const { return config_; }

 private:
  bool output_due() const;
  void write_profile(const std::vector<std::array<std::vector<double>, 5>>& per_shell);
  void check_time_step() const;

  BhConfig config_;
  std::string input_;
  std::unique_ptr<GhSystem> system_;
  std::unique_ptr<DormandPrince> stepper_;
  State state_;
  double time_ = 0, dt_ = 0, every_ = 0, next_output_ = 0, next_snapshot_ = 0;
  Index step_ = 0;
  StepClock clock_{0, 1, 0};  // time_ is its time after each step
  std::optional<io::RunDirectory> run_;
  std::unique_ptr<io::SeriesWriter> series_;
  std::optional<io::FieldSeries> fields_;
  std::unique_ptr<io::SeriesWriter> profile_;  // radial_profile.csv, with each snapshot
  int snapshots_ = 0;
  Norms initial_, last_, largest_;
  double last_time_ = -1;
  core::WallTimer wall_, since_checkpoint_;
  double stepping_seconds_ = 0;
};

// The whole command: config, prepare, steps with outputs, summary. Returns the exit code.
int run_bh(const io::Parameters& params);

}  // namespace loom::gr
