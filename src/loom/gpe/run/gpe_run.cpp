#include "loom/gpe/run/gpe_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "loom/comm/rank_device.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/gpe/parallel/slab_observables.hpp"
#include "loom/gpe/run/checkpoint.hpp"
#include "loom/gpe/run/field_outputs.hpp"
#include "loom/gpe/run/leapfrog_start.hpp"
#include "loom/gpe/run/summary.hpp"
#include "loom/gpe/splitting.hpp"
#include "loom/io/finite_state.hpp"
#include "loom/io/plot_script.hpp"
#include "loom/io/run_end.hpp"
#include "loom/io/stop_signal.hpp"

namespace loom::gpe {
namespace {

std::vector<Complex> to_vector(const core::Array<Complex>& a) {
  const auto h = a.host();
  return {h.begin(), h.end()};
}

}  // namespace

// Too many ranks for the layers, or CUDA-aware halos from an MPI without, are bad input: found here, before any
// output.
GpeRun::GpeRun(const GpeConfig& config, const comm::Communicator& world)
    : config_(config),
      world_(world),
      root_(world.is_root()),
      quiet_(config.quiet || !world.is_root()),
      s_(prepare_initial(config)),
      slab_(s_.domain, world),
      gathered_(slab_),
      integrator_(config.backend, slab_, s_.physics, config.halo_transport) {
  integrator_.set_kernel(s_.kernel);
}

void GpeRun::open_outputs() {
  run_ = create_run_directory(config_.output.dir, config_.output.overwrite, config_.effective_input, world_,
                              {{"initial.checkpoint", config_.initial.checkpoint}});
  if (slab_.distributed() && root_) reference_global_ = to_vector(s_.reference);
  reference_local_ = slab_.restrict_to_slab(std::move(s_.reference));
  if (!root_) return;
  series_ = run_->open_series(
      {"t", "norm", "energy", "mu", "E", "RMSE", "max_abs_psi", "dominant_mode", "mode_amplitude", "wall_s"});
  fields_.emplace(run_->file("psi.xdmf"));
}

void GpeRun::start() {
  start_leapfrog(config_, s_, slab_, integrator_);
  h_ = integrator_.hamiltonian();
  host_h_ = s_.domain.hamiltonian(core::Where::host, s_.physics);
  const double t_end = config_.time.t_end, dt = s_.dt;
  const double every = config_.output.every > 0 ? config_.output.every : t_end / 200;
  steps_per_row_ = std::max<std::int64_t>(1, std::llround(every / dt));
  // Whole steps of dt that fit before t_end, and one shortened last step for the rest (finish_at), so that the
  // run ends at t_end exactly.
  const double span = (t_end - integrator_.time()) / dt;
  full_steps_ = std::max<std::int64_t>(0, std::llround(std::floor(span + 1e-9)));
  total_steps_ = full_steps_ + (span - double(full_steps_) > 1e-9 ? 1 : 0);
  const double fields_every = config_.output.fields_every;
  steps_per_snapshot_ = fields_every > 0 ? std::max<std::int64_t>(1, std::llround(fields_every / dt)) : 0;
  slice_half_height_ = 0.6 * s_.domain.edges.mean;
  slice_layers_ = layers_within(host_h_, slice_half_height_);
  ring_layers_ = layers_within(host_h_, s_.ring_half_height);
}

// Collective; every rank takes the same branches, as the sums in rank order give every rank the same bits.
Observables GpeRun::record() {
  const auto where = core::where(config_.backend);
  const Complex* psi = integrator_.current().read(where);
  const Observables o = measure(slab_, config_.backend, h_, psi);
  const double t = integrator_.time();
  // A non-finite state is never written as a result; every rank sees the same sums and stops alike.
  const auto kept = run_ ? run_->file("checkpoint.h5") : std::filesystem::path();  // rank 0 writes it
  io::require_finite("gpe", "the norm of psi", o.norm, integrator_.steps_done(), t, kept);
  io::require_finite("gpe", "the energy", o.energy(), integrator_.steps_done(), t, kept);
  recorded_step_ = integrator_.steps_done();
  const Complex* reference = reference_local_.read(where);
  const Complex overlap = inner_product(slab_, config_.backend, h_, reference, psi);
  const double e_error = 1 - core::abs(overlap);
  const double rmse = rms_difference(slab_, config_.backend, psi, reference, core::polar(1.0, -s_.mu_reference * t));
  AzimuthalModes modes;
  if (s_.ring_outer > 0) {
    const Complex* near_z0 = gathered_.layers(integrator_.current(), ring_layers_);
    const Complex* reference_host =
        !slab_.distributed() ? reference_local_.read(core::Where::host) : reference_global_.data();
    if (root_)
      modes = azimuthal_modes(host_h_, near_z0, reference_host, s_.ring_inner, s_.ring_outer, s_.ring_half_height);
  }
  if (root_)
    series_->append({t, o.norm, o.energy(), o.mu(), e_error, rmse, o.max_abs, double(modes.dominant),
                     modes.relative_amplitude, wall_.seconds()});
  if (!splitting_["detected"].get<bool>() && e_error > 0.01) {
    splitting_ = {{"detected", true},
                  {"time", t},
                  {"E", e_error},
                  {"dominant_mode", modes.dominant},
                  {"relative_amplitude", modes.relative_amplitude},
                  {"amplitudes", modes.amplitudes}};
    write_slice("slice_z0_split.csv");
  }
  return o;
}

void GpeRun::snapshot() {
  const Complex* psi = gathered_.all(integrator_.current());
  if (root_) {
    fields_->add(field_snapshot(*run_, host_h_, psi, integrator_.time(), snapshot_index_));
    series_->flush();  // the rows up to each snapshot are on disk with it
  }
  ++snapshot_index_;
}

void GpeRun::write_slice(const std::string& name) {
  const Complex* near_z0 = gathered_.layers(integrator_.current(), slice_layers_);
  if (root_) run_->write_text(name, z0_slice_csv(host_h_, near_z0, slice_half_height_));
}

void GpeRun::checkpoint() {
  Checkpoint c;
  c.previous = gathered_.vector(integrator_.previous());
  c.current = gathered_.vector(integrator_.current());
  if (!root_) return;
  c.grid = std::string(dec::to_string(s_.domain.grid));
  c.scale = s_.domain.scale;
  c.nx = s_.domain.lattice.nx;
  c.ny = s_.domain.lattice.ny;
  c.nz = s_.domain.lattice.nz;
  c.lambda = s_.physics.lambda;
  c.g = s_.physics.g;
  c.kappa = s_.kappa;
  c.time = integrator_.time();
  c.dt = integrator_.dt();
  c.step = integrator_.steps_done();
  c.mu_reference = s_.reference_is_exact ? s_.mu_reference : 0;
  c.reference = slab_.distributed() ? reference_global_ : to_vector(reference_local_);
  c.input = config_.effective_input;
  write_checkpoint(run_->file("checkpoint.h5"), c);
}

// How many steps fit before the next output, snapshot or stop poll (every ~0.25 s of stepping, so that a stop
// signal waits for one short chunk; every rank takes the same).
std::int64_t GpeRun::next_chunk(std::int64_t done) const {
  const std::int64_t now = integrator_.steps_done();
  std::int64_t chunk = std::min({steps_per_row_ - now % steps_per_row_, full_steps_ - done, steps_per_poll_});
  if (steps_per_snapshot_ > 0) chunk = std::min(chunk, steps_per_snapshot_ - now % steps_per_snapshot_);
  return chunk;
}

// Every rank learns whether any received a stop signal, and agrees on the next chunk's length.
void GpeRun::poll_stop(std::int64_t chunk, double seconds) {
  double per_poll = std::clamp(0.25 * double(chunk) / std::max(seconds, 1e-9), 1.0, 1e9);
  double signal = io::stop_signal();
  if (slab_.distributed()) {
    per_poll = world_.min(per_poll);
    signal = world_.max(signal);
  }
  steps_per_poll_ = std::llround(per_poll);
  stop_signal_ = static_cast<int>(signal);
}

void GpeRun::step_to_end() {
  core::WallTimer since_checkpoint, since_progress, stepping;
  for (std::int64_t done = 0; done < full_steps_ && stop_signal_ == 0;) {
    const std::int64_t chunk = next_chunk(done);
    stepping.start();
    integrator_.step(chunk);
    if (config_.backend == core::Backend::cuda) cuda::synchronize();
    const double seconds = stepping.seconds();
    stepping_seconds_ += seconds;
    done += chunk;
    if (integrator_.steps_done() % steps_per_row_ == 0 || done == full_steps_) record();
    if (steps_per_snapshot_ > 0 && integrator_.steps_done() % steps_per_snapshot_ == 0 && done < full_steps_)
      snapshot();
    // Every rank must agree that a checkpoint is due: the gather is collective.
    const double checkpoint_every = config_.output.checkpoint_every;
    bool checkpoint_due = checkpoint_every > 0 && since_checkpoint.seconds() > checkpoint_every;
    if (slab_.distributed()) checkpoint_due = world_.max(checkpoint_due ? 1.0 : 0.0) > 0;
    if (checkpoint_due) {
      checkpoint();
      since_checkpoint.start();
    }
    poll_stop(chunk, seconds);
    if (!quiet_ && (since_progress.seconds() > 2 || done == full_steps_)) {
      const double rate = done / std::max(stepping_seconds_, 1e-9);
      std::cerr << fmt::format("gpe: step {}/{} ({:.0f}%), t = {:.4g}, {:.0f} steps/s, ETA {:.0f} s\n", done,
                               total_steps_, 100.0 * done / std::max<std::int64_t>(total_steps_, 1), integrator_.time(),
                               rate, (total_steps_ - done) / std::max(rate, 1e-9));
      since_progress.start();
    }
  }
  // Stopped by a signal: the series ends with the state the checkpoint holds.
  if (stop_signal_ != 0 && recorded_step_ != integrator_.steps_done()) record();
}

int GpeRun::run() {
  const io::StopPolling polling;  // a first SIGINT/SIGTERM ends the run after its step, with its outputs
  // Everything is valid: from here on, outputs are written (by rank 0).
  open_outputs();
  start();
  const auto where = core::where(config_.backend);
  initial_ = measure(slab_, config_.backend, h_, integrator_.current().read(where));
  if (!quiet_) {
    std::cerr << fmt::format(
        "gpe: {} grid, {} dual vertices ({} x {} x {} structures), dual edge {:.4g}, dt {:.4g} "
        "(bound {:.4g}), {} steps on {}\n",
        dec::display_name(s_.domain.grid), s_.domain.dof(), s_.domain.lattice.nx, s_.domain.lattice.ny,
        s_.domain.lattice.nz, s_.domain.edges.mean, s_.dt, s_.dt_bound, total_steps_, core::to_string(config_.backend));
    if (slab_.distributed())
      std::cerr << fmt::format("gpe: {} MPI ranks, slabs of {}-{} structure layers, halos through {}\n", world_.size(),
                               s_.domain.lattice.nz / world_.size(),
                               (s_.domain.lattice.nz + world_.size() - 1) / world_.size(),
                               integrator_.halo_transport());
  }
  record();
  write_slice("slice_z0_initial.csv");
  snapshot();
  step_to_end();
  // The leapfrog pair on the dt grid, from which a restart continues exactly as an unbroken run would.
  checkpoint();
  if (stop_signal_ == 0 && full_steps_ < total_steps_) {
    const core::WallTimer last;
    integrator_.finish_at(config_.time.t_end);  // the shortened last step: the outputs are at t_end exactly
    stepping_seconds_ += last.seconds();
    record();
  }
  if (root_) series_->close();
  const Observables final = measure(slab_, config_.backend, h_, integrator_.current().read(where));
  snapshot();
  write_slice("slice_z0_final.csv");
  const double final_error = 1 - core::abs(inner_product(slab_, config_.backend, h_, reference_local_.read(where),
                                                         integrator_.current().read(where)));
  stepping_seconds_ = world_.max(stepping_seconds_);  // the slowest rank's
  if (root_) summary(final, final_error);
  return stop_signal_ != 0 ? io::stop_exit_code(stop_signal_) : 0;
}

void GpeRun::summary(const Observables& final, double final_error) {
  RunFigures figures{config_,
                     s_,
                     integrator_,
                     initial_,
                     final,
                     splitting_,
                     world_.size(),
                     slab_.distributed(),
                     integrator_.steps_done() - s_.step0,
                     wall_.seconds(),
                     stepping_seconds_};
  const nlohmann::json j = summary_json(figures);
  if (io::write_final_summary(*run_, j, stop_signal_, "gpe", integrator_.steps_done(), integrator_.time())) return;
  if (config_.output.plots) {
    const std::string why = io::run_plot_script("plot_gpe.py", {run_->path().string()});
    if (!why.empty() && !quiet_) std::cerr << why << "\n";
  }
  std::cout << fmt::format(
      "gpe: {} on {}: mu = {:.8g}, {} steps to t = {:.4g}, E = {:.3e}, norm drift {:.2e}, "
      "energy drift {:.2e}\n",
      dec::display_name(s_.domain.grid), core::to_string(config_.backend), s_.mu_reference, integrator_.steps_done(),
      integrator_.time(), final_error, j["norm_drift"].get<double>(), j["energy_drift"].get<double>());
  std::cout << "outputs: " << run_->path().string() << " (series.csv, summary.json, psi.xdmf for ParaView"
            << (config_.output.plots ? ", PNG plots)\n" : ")\n");
}

int run_gpe(const io::Parameters& params) {
  const comm::Communicator world = comm::Communicator::world();
  if (world.size() > 1) comm::select_rank_device(world);  // before anything is allocated on a device
  const GpeConfig config = gpe_config(params);
  GpeRun run(config, world);
  return run.run();
}

}  // namespace loom::gpe
