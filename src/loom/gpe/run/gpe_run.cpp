#include "loom/gpe/run/gpe_run.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <iostream>

#include "loom/comm/rank_device.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/gpe/parallel/slab_observables.hpp"
#include "loom/gpe/run/checkpoint.hpp"
#include "loom/gpe/run/field_outputs.hpp"
#include "loom/gpe/run/summary.hpp"
#include "loom/gpe/splitting.hpp"
#include "loom/io/plot_script.hpp"

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
  run_ = create_run_directory(config_.output.dir, config_.output.overwrite, config_.effective_input, world_);
  if (slab_.distributed() && root_) reference_global_ = to_vector(s_.reference);
  reference_local_ = slab_.restrict_to_slab(std::move(s_.reference));
  if (!root_) return;
  series_ = run_->open_series(
      {"t", "norm", "energy", "mu", "E", "RMSE", "max_abs_psi", "dominant_mode", "mode_amplitude", "wall_s"});
  fields_.emplace(run_->file("psi.xdmf"));
}

void GpeRun::start() {
  if (config_.initial.type == InitialType::checkpoint) {
    integrator_.set_state(slab_.restrict_to_slab(std::move(s_.previous)), slab_.restrict_to_slab(std::move(s_.current)),
                          s_.t0, s_.dt, s_.step0);
  } else if (config_.time.starter == Starter::exact && config_.initial.perturbation == 0) {
    // The exact time dependence of a stationary state: psi(-dt) = psi(0) e^{+i mu dt} (section 5).
    core::Array<Complex> previous = s_.current.clone();
    const Complex phase = core::polar(1.0, s_.mu_reference * s_.dt);
    Complex* pp = previous.read_write(core::Where::host);
    for (std::size_t i = 0; i < previous.size(); ++i) pp[i] = phase * pp[i];
    s_.starter = config_.initial.type == InitialType::ground ? "discrete ground state, exact phase e^{i mu dt}"
                                                             : "stationary vortex, exact phase e^{i mu dt}";
    integrator_.set_state(slab_.restrict_to_slab(std::move(previous)), slab_.restrict_to_slab(std::move(s_.current)),
                          0.0, s_.dt, 0);
  } else {
    // The continuum stationary state is not stationary on the lattice: its exact phase would start every lattice
    // mode k with the wrong frequency and excite the leapfrog's parasitic (step-to-step alternating) root with
    // amplitude ~ (omega_k - mu) dt. One RK4 step follows the lattice dynamics instead (BCC, 10 edges per
    // wavelength, kappa = 10: norm oscillation 4e-6 instead of 3e-4).
    s_.starter = "one RK4 step backwards from psi(0)";
    integrator_.start_from(slab_.restrict_to_slab(std::move(s_.current)), 0.0, s_.dt);
  }
  h_ = integrator_.hamiltonian();
  host_h_ = s_.domain.hamiltonian(core::Where::host, s_.physics);
  const double t_end = config_.time.t_end, dt = s_.dt;
  const double every = config_.output.every > 0 ? config_.output.every : t_end / 200;
  steps_per_row_ = std::max<std::int64_t>(1, std::llround(every / dt));
  total_steps_ = std::max<std::int64_t>(0, std::llround(std::ceil((t_end - integrator_.time()) / dt - 1e-9)));
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
  if (root_) fields_->add(field_snapshot(*run_, host_h_, psi, integrator_.time(), snapshot_index_));
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

void GpeRun::step_to_end() {
  core::WallTimer since_checkpoint, since_progress, stepping;
  for (std::int64_t done = 0; done < total_steps_;) {
    const std::int64_t chunk =
        std::min(steps_per_row_ - (integrator_.steps_done() % steps_per_row_), total_steps_ - done);
    stepping.start();
    integrator_.step(chunk);
    if (config_.backend == core::Backend::cuda) cuda::synchronize();
    stepping_seconds_ += stepping.seconds();
    done += chunk;
    if (integrator_.steps_done() % steps_per_row_ == 0 || done == total_steps_) record();
    if (steps_per_snapshot_ > 0 && integrator_.steps_done() % steps_per_snapshot_ == 0 && done < total_steps_)
      snapshot();
    // Every rank must agree that a checkpoint is due: the gather is collective.
    const double checkpoint_every = config_.output.checkpoint_every;
    bool checkpoint_due = checkpoint_every > 0 && since_checkpoint.seconds() > checkpoint_every;
    if (slab_.distributed()) checkpoint_due = world_.max(checkpoint_due ? 1.0 : 0.0) > 0;
    if (checkpoint_due) {
      checkpoint();
      since_checkpoint.start();
    }
    if (!quiet_ && (since_progress.seconds() > 2 || done == total_steps_)) {
      const double rate = done / std::max(stepping_seconds_, 1e-9);
      std::cerr << fmt::format("gpe: step {}/{} ({:.0f}%), t = {:.4g}, {:.0f} steps/s, ETA {:.0f} s\n", done,
                               total_steps_, 100.0 * done / std::max<std::int64_t>(total_steps_, 1), integrator_.time(),
                               rate, (total_steps_ - done) / std::max(rate, 1e-9));
      since_progress.start();
    }
  }
}

int GpeRun::run() {
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
  if (root_) series_->close();
  const Observables final = measure(slab_, config_.backend, h_, integrator_.current().read(where));
  snapshot();
  write_slice("slice_z0_final.csv");
  checkpoint();
  const double final_error = 1 - core::abs(inner_product(slab_, config_.backend, h_, reference_local_.read(where),
                                                         integrator_.current().read(where)));
  stepping_seconds_ = world_.max(stepping_seconds_);  // the slowest rank's
  if (root_) summary(final, final_error);
  return 0;
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
                     total_steps_,
                     wall_.seconds(),
                     stepping_seconds_};
  const nlohmann::json j = summary_json(figures);
  run_->write_summary(j);
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
