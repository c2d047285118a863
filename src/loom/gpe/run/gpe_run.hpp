// `loom gpe`: the DEC Gross-Pitaevskii run of the DEC-GPE paper, from its configuration to the run directory
// (input.toml, series.csv, summary.json, HDF5/XDMF fields, z = 0 slices, checkpoints, plots), on one rank or on
// slabs of the lattice over MPI ranks (section 4.2).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/core/timer.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/observables.hpp"
#include "loom/gpe/parallel/rank_outputs.hpp"
#include "loom/gpe/parallel/slab_domain.hpp"
#include "loom/gpe/run/config.hpp"
#include "loom/gpe/run/initial_setup.hpp"
#include "loom/io/fields.hpp"
#include "loom/io/run_directory.hpp"

namespace loom::gpe {

class GpeRun {
 public:
  // Prepares everything bad input can fail (InitialSetup, the slabs, the kernel) before any output is written.
  // Collective over `world`; every rank prepares the global initial state, as one rank would, and keeps its slab.
  GpeRun(const GpeConfig& config, const comm::Communicator& world);

  // Creates the run directory, starts the leapfrog, steps to time.t_end (record, snapshot, checkpoint on the way)
  // and writes the summary and plots. Collective. Returns the exit code.
  int run();

 private:
  void start();                               // psi(-dt) and psi(0), by the configured starter
  void open_outputs();                        // the run directory, series.csv, psi.xdmf (rank 0)
  Observables record();                       // one row of series.csv; detects the vortex's splitting
  void snapshot();                            // psi into the next HDF5 file
  void write_slice(const std::string& name);  // the z = 0 cross-section
  void checkpoint();                          // both time levels, restartable
  void step_to_end();                         // the time loop with its outputs and progress lines
  std::int64_t next_chunk(std::int64_t done) const;  // steps until the next output, snapshot or stop poll
  void poll_stop(std::int64_t chunk, double seconds);  // a stop signal on any rank; the next chunk's length
  void summary(const Observables& final, double final_error);

  const GpeConfig& config_;
  const comm::Communicator& world_;
  core::WallTimer wall_;
  bool root_, quiet_;
  InitialSetup s_;
  SlabDomain slab_;
  RootView gathered_;
  LeapfrogIntegrator integrator_;
  std::optional<io::RunDirectory> run_;
  // The reference state of E(t) and the RMSE: the slab's part on the backend, the global one on rank 0's host.
  std::vector<Complex> reference_global_;
  core::Array<Complex> reference_local_;
  Hamiltonian h_, host_h_;  // the slab's on the backend, the global lattice's on the host
  std::int64_t steps_per_row_ = 1, total_steps_ = 0, full_steps_ = 0, steps_per_snapshot_ = 0;
  std::int64_t steps_per_poll_ = 1, recorded_step_ = -1;
  int stop_signal_ = 0;  // the signal that stopped the run (io/stop_signal.hpp), or 0
  double slice_half_height_ = 0;
  std::pair<int, int> slice_layers_, ring_layers_;
  std::unique_ptr<io::SeriesWriter> series_;
  std::optional<io::FieldSeries> fields_;
  Observables initial_;
  nlohmann::json splitting_ = {{"detected", false}};
  int snapshot_index_ = 0;
  double stepping_seconds_ = 0;
};

// `loom gpe` with validated parameters: the configuration, then the run. Throws UsageError for bad input before
// anything is written. Returns the exit code.
int run_gpe(const io::Parameters& params);

}  // namespace loom::gpe
