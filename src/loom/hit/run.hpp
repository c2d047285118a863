// `loom hit`: decaying (or Taylor-Green) isotropic turbulence by the pseudo-spectral solver, from the typed
// configuration to the run directory: input.toml, series.csv (one row of statistics per output time),
// spectra.csv (E(k) per output time), summary.json, HDF5 + XDMF fields, checkpoint.h5 and plots.
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>

#include "loom/comm/communicator.hpp"
#include "loom/core/timer.hpp"
#include "loom/hit/config.hpp"
#include "loom/hit/forcing.hpp"
#include "loom/hit/observables.hpp"
#include "loom/hit/solver.hpp"
#include "loom/io/fields.hpp"
#include "loom/io/run_directory.hpp"

namespace loom::hit {

// On several ranks (mpiexec) every rank runs its slab and every output call is collective; rank 0 writes the
// files a one-rank run writes.
class HitRun {
 public:
  // Checks the ranks and the memory the run needs, builds the initial field and checks everything that needs it
  // (the Courant number of a fixed time.dt, a file's grid); throws UsageError before anything is written.
  // `input` is the effective input.toml.
  HitRun(HitConfig config, std::string input, comm::Communicator world = comm::Communicator::world());

  void open_outputs(const io::Parameters& params);  // the run directory, input.toml, the series files (rank 0)
  bool finished() const;
  void step();        // one time step, landing on the next output time
  Statistics record();  // a row of series.csv and of spectra.csv
  void snapshot();    // fields_<index>.h5 and the XDMF collection
  void checkpoint();  // checkpoint.h5
  nlohmann::json summary() const;
  // Closes the series, the final snapshot and checkpoint, summary.json and plots; after a stop signal (its
  // number, io/stop_signal.hpp) the summary says so and no plots are drawn.
  void finish(int stop_signal = 0);

  Solver& solver() { return *solver_; }
  const HitConfig& config() const { return config_; }

 private:
  bool output_due() const;

  bool root() const { return world_.is_root(); }

  HitConfig config_;
  std::string input_;
  comm::Communicator world_;
  Index rows_ = 0;  // rows of series.csv so far
  std::unique_ptr<Solver> solver_;
  std::optional<ShellEnergyForcing> forcing_;
  double forcing_energy_ = 0;  // energy the forcing added over the run
  double dt_limit_ = 0;  // the Courant limit of a fixed step for the initial field
  double every_ = 0, next_output_ = 0, next_snapshot_ = 0, last_dt_ = 0;
  std::optional<io::RunDirectory> run_;
  std::unique_ptr<io::SeriesWriter> series_, spectra_;
  std::optional<io::FieldSeries> fields_;
  int snapshots_ = 0;
  Statistics initial_, last_;
  core::WallTimer wall_, since_checkpoint_;
  double stepping_seconds_ = 0;
};

// The whole command: config, prepare, steps with outputs, summary. Returns the exit code.
int run_hit(const io::Parameters& params);

}  // namespace loom::hit
