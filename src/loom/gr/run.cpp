#include "loom/gr/run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "loom/core/cuda_api.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/core/error.hpp"
#include "loom/gr/characteristics.hpp"
#include "loom/gr/memory_need.hpp"
#include "loom/gr/checkpoint.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/plot_script.hpp"
#include "loom/io/run_end.hpp"
#include "loom/io/stop_signal.hpp"
#include "loom/io/build_identity.hpp"

namespace loom::gr {
namespace {

// series.csv: the norms, then the excision surface's slowest characteristic speed into the hole (the run stops
// when it turns negative: its trend is the margin left, docs/gr.md).
const std::vector<std::string> columns = {"t",         "gauge_constraint", "three_index_constraint", "normalized_constraint",
                                          "psi_error", "pi_error",         "phi_error",              "excision_speed"};

std::vector<double> row(double t, const Norms& n, double speed) {
  return {t, n.gauge, n.three_index, n.normalized, n.psi_error, n.pi_error, n.phi_error, speed};
}

nlohmann::json to_json(const Norms& n) {
  const auto r = row(0, n, 0);
  nlohmann::json j;
  for (std::size_t i = 1; i + 1 < columns.size(); ++i) j[columns[i]] = r[i];
  return j;
}

Norms larger(const Norms& a, const Norms& b) {
  return {std::max(a.gauge, b.gauge),         std::max(a.three_index, b.three_index),
          std::max(a.normalized, b.normalized), std::max(a.psi_error, b.psi_error),
          std::max(a.pi_error, b.pi_error),   std::max(a.phi_error, b.phi_error)};
}

std::string spin_text(const KerrSchild& h) { return fmt::format("({}, {}, {})", h.spin[0], h.spin[1], h.spin[2]); }

}  // namespace

BhRun::BhRun(BhConfig config, std::string input) : config_(std::move(config)), input_(std::move(input)) {
  core::check_memory(bh_memory_need(config_, core::cpu_threads()), config_.backend == core::Backend::cuda,
                     bh_memory_setting(config_));
  system_ = std::make_unique<GhSystem>(config_.hole, config_.geometry, config_.filter, config_.backend);
  system_->set_profiling(config_.profile);
  const State exact = system_->exact_state();
  const double speed = system_->slowest_excision_speed(exact);
  if (speed < -zero_speed)
    throw UsageError(fmt::format(
        "grid.radii = {}: the inner radius {} m leaves excision points where a characteristic speed points into "
        "the domain ({:.3g}); expected an inner radius inside the horizon (r_+ = {:.4g} m for spin {})",
        fmt::join(config_.geometry.radii, ","), config_.geometry.radii.front(), speed,
        kerr_horizon_radius(config_.hole), spin_text(config_.hole)));
  dt_ = config_.time.dt > 0 ? config_.time.dt : config_.time.cfl * system_->smallest_spacing();
  if (config_.initial == InitialType::checkpoint) {
    BhCheckpoint c = read_checkpoint(config_.initial_file, config_, *system_);
    state_ = std::move(c.state);
    time_ = c.time;
    step_ = c.step;
    if (config_.time.dt <= 0) dt_ = c.dt;
  } else {
    state_ = system_->exact_state();
  }
  clock_ = StepClock(time_, dt_, config_.time.t_end);
  if (time_ >= config_.time.t_end)
    throw UsageError(fmt::format("time.t_end = {}: expected a time after the checkpoint's t = {}", config_.time.t_end,
                                 time_));
  check_time_step();
  stepper_ = std::make_unique<DormandPrince>(*system_);
  every_ = config_.output.every > 0 ? config_.output.every : config_.time.t_end / 100;
  next_output_ = std::min(time_ + every_, config_.time.t_end);
  next_snapshot_ = time_ + config_.output.fields_every;
}

// A fixed time.dt above the CFL bound (time.cfl <= 1 of the smallest spacing) or a run of more steps than any
// machine finishes is refused before work, as the other systems refuse them (io::checked_step_count).
void BhRun::check_time_step() const {
  const double bound = system_->smallest_spacing();
  if (config_.time.dt > bound)
    throw UsageError(fmt::format("time.dt = {}: expected a number <= {:.6g}, the smallest grid spacing (time.cfl <= 1)",
                                 config_.time.dt, bound));
  if (config_.time.dt > 0) io::checked_step_count(config_.time.t_end - time_, dt_, "time.dt", config_.time.dt);
  io::checked_step_count(config_.time.t_end - time_, dt_, "time.t_end", config_.time.t_end);
}

void BhRun::open_outputs(const io::Parameters& params) {
  const auto dir = config_.output.dir.empty() ? io::RunDirectory::default_path("bh") : config_.output.dir;
  run_.emplace(io::RunDirectory::create(dir, config_.output.overwrite, "output.dir",
                                        {{"initial.file", config_.initial_file}}));
  run_->write_input(params);
  series_ = run_->open_series(columns);
  if (config_.output.fields) {
    fields_.emplace(run_->file("fields.xdmf"));
    profile_ = run_->open_series({"t", "shell", "radial_index", "r", "gauge_constraint_max",
                                  "three_index_constraint_max", "psi_error_max"},
                                 "radial_profile.csv");
  }
  since_checkpoint_.start();
}

bool BhRun::finished() const { return clock_.finished(); }

bool BhRun::output_due() const { return time_ >= next_output_ - 1e-9 * dt_; }

void BhRun::step() {
  const double h = clock_.next_step();
  core::WallTimer timer;
  stepper_->step(state_, h);
  clock_.advance(h);
  time_ = clock_.time();
  ++step_;
  const double speed = system_->slowest_excision_speed(state_);
  if (config_.backend == core::Backend::cuda) cuda::synchronize();
  stepping_seconds_ += timer.seconds();
  if (!(speed >= -zero_speed))
    throw Error(fmt::format("bh: at step {}, t = {:.6g}, a characteristic speed at the excision surface r = {} "
                            "points into the domain ({:.3g}): excision needs no incoming modes; the run stops, its "
                            "last checkpoint is kept",
                            step_, time_, config_.geometry.radii.front(), speed));
  if (output_due()) {
    record();
    while (next_output_ <= time_ + 1e-9 * dt_) next_output_ += every_;
    next_output_ = std::min(next_output_, config_.time.t_end);
  }
  const double fields_every = config_.output.fields_every;
  if (fields_every > 0 && !finished() && time_ >= next_snapshot_ - 1e-9 * dt_) {
    snapshot();
    next_snapshot_ += fields_every;
  }
  if (config_.output.checkpoint_every > 0 && since_checkpoint_.seconds() > config_.output.checkpoint_every) {
    checkpoint();
    since_checkpoint_.start();
  }
}

Norms BhRun::record() {
  last_ = system_->norms(state_);
  const auto values = row(time_, last_, system_->slowest_excision_speed(state_));
  for (double v : values)
    if (!std::isfinite(v))
      throw Error(fmt::format("bh: the fields are not finite at step {}, t = {:.6g}; the run stops, its last "
                              "checkpoint is kept",
                              step_, time_));
  if (series_->rows() == 0) initial_ = largest_ = last_;
  largest_ = larger(largest_, last_);
  series_->append(values);
  last_time_ = time_;
  return last_;
}

// Each shell as a block of a curvilinear mesh (ParaView draws its surfaces): points (N_r, N_theta, N_phi + 1)
// with the first phi slice repeated at the end so that the surface closes; points run r fastest, so that slice
// is the first N_r N_theta points.
void BhRun::snapshot() {
  if (!fields_) return;
  const auto per_shell = system_->point_fields(state_);
  const auto& names = GhSystem::point_field_names;
  const auto e = config_.geometry.extents;
  const std::size_t slice = std::size_t(e[0]) * e[1];
  std::vector<std::vector<double>> positions(system_->shells());
  std::vector<std::array<std::vector<double>, GhSystem::point_field_names.size()>> values(system_->shells());
  std::vector<io::CurvilinearBlock> blocks;
  for (int s = 0; s < system_->shells(); ++s) {
    const auto x = system_->coordinates(s);
    const Index n = system_->points(s);
    for (Index p = 0; p < n + Index(slice); ++p)
      for (int i = 0; i < 3; ++i) positions[s].push_back(x[i * n + p % n]);
    io::CurvilinearBlock b{fmt::format("shell_{}", s), {std::size_t(e[0]), std::size_t(e[1]), std::size_t(e[2]) + 1},
                           positions[s], {}};
    for (std::size_t k = 0; k < names.size(); ++k) {
      values[s][k] = per_shell[s][k];
      values[s][k].insert(values[s][k].end(), per_shell[s][k].begin(), per_shell[s][k].begin() + slice);
      b.fields.push_back({names[k], values[s][k], 1});
    }
    blocks.push_back(std::move(b));
  }
  fields_->add(io::write_curvilinear_fields(run_->file(fmt::format("fields_{:04d}.h5", snapshots_)), blocks, time_));
  ++snapshots_;
  write_profile(per_shell);
}

// The largest |C_a|, |C_iab| and psi error over the angles at each radius of each shell: where a growing
// constraint lives (docs/gr.md's tables of the late instability), readable without an HDF5 reader.
void BhRun::write_profile(const std::vector<std::array<std::vector<double>, 5>>& per_shell) {
  const int n_r = config_.geometry.extents[0];
  for (int s = 0; s < system_->shells(); ++s) {
    const auto& radii = system_->shell(s).radii();
    const Index angular = system_->points(s) / n_r;
    for (int ir = 0; ir < n_r; ++ir) {
      double largest[3] = {0, 0, 0};  // point_field_names' first three: |C_a|, |C_iab|, the psi error
      for (Index q = 0; q < angular; ++q)
        for (int k = 0; k < 3; ++k) largest[k] = std::max(largest[k], per_shell[s][k][ir + Index{n_r} * q]);
      profile_->append({time_, double(s), double(ir), radii[ir], largest[0], largest[1], largest[2]});
    }
  }
}

void BhRun::checkpoint() {
  write_checkpoint(run_->file("checkpoint.h5"), config_, state_, time_, dt_, step_, input_);
}

nlohmann::json BhRun::summary() const {
  nlohmann::json j = to_json(last_);
  j["loom"] = loom::io::build_identity();
  j["backend"] = std::string(core::to_string(config_.backend));
  if (config_.backend == core::Backend::cuda) j["device"] = cuda::device_info(cuda::current_device()).name;
  if (config_.backend == core::Backend::cpu) j["cpu_threads"] = core::cpu_threads();
  j["mass"] = config_.hole.mass;
  j["spin"] = {config_.hole.spin[0], config_.hole.spin[1], config_.hole.spin[2]};
  j["horizon_radius"] = kerr_horizon_radius(config_.hole);
  j["extents"] = config_.geometry.extents;
  j["radii"] = config_.geometry.radii;
  j["radial_maps"] = map_names(config_.geometry);
  j["points"] = system_->total_points();
  j["strategy"] = std::string(spectral::to_string(system_->strategy()));
  j["interface"] = config_.geometry.interface == InterfaceCoupling::penalty
                       ? "penalty (SAT) on the incoming characteristic rates"
                       : "characteristic upwinding of the time derivatives";
  j["outer_boundary"] =
      config_.geometry.outer == OuterBoundary::bjorhus
          ? "Bjorhus: constraint-preserving u^psi, u^0 and the gauge-constraint part of u^-; the rest frozen"
      : config_.geometry.outer == OuterBoundary::penalty
          ? "incoming characteristic fields pulled towards Kerr-Schild in penalty form"
          : "incoming characteristic fields frozen to Kerr-Schild";
  j["angular_filter"] = std::string(spectral::to_string(config_.geometry.angular_filter));
  const Damping& d = config_.geometry.damping;
  j["damping"] = {{"gamma0_amplitude", d.gamma0}, {"gamma1", d.gamma1}, {"gamma2_amplitude", d.gamma2}};
  j["t"] = time_;
  j["dt"] = dt_;
  j["steps"] = step_;
  j["initial"] = to_json(initial_);
  j["largest"] = to_json(largest_);
  j["final"] = to_json(last_);
  j["stepping_s"] = stepping_seconds_;
  j["seconds_per_step"] = step_ > 0 ? stepping_seconds_ / double(step_) : 0.0;
  if (config_.profile) {
    const ModuleTimes& m = system_->times();
    j["modules_s"] = {{"Jacobian", m.jacobian}, {"Deriv", m.deriv},        {"Filter", m.filter},
                      {"GHEqns", m.gh_eqns},    {"ApplyBCs", m.apply_bcs}, {"Other", stepping_seconds_ - m.total()}};
  }
  j["wall_s"] = wall_.seconds();
  return j;
}

void BhRun::finish(int stop_signal) {
  if (series_->rows() == 0 || last_time_ != time_) record();
  series_->close();
  snapshot();
  if (profile_) profile_->close();
  checkpoint();
  if (io::write_final_summary(*run_, summary(), stop_signal, "bh", step_, time_)) return;
  if (config_.output.plots) {
    const std::string why = io::run_plot_script("plot_bh.py", {run_->path().string()});
    if (!why.empty() && !config_.quiet) std::cerr << why << "\n";
  }
}

int run_bh(const io::Parameters& params) {
  BhRun run(make_bh_config(params), params.to_toml());
  const BhConfig& c = run.config();
  run.open_outputs(params);
  const Norms n0 = run.record();
  run.snapshot();
  if (!c.quiet)
    std::cerr << fmt::format("bh: m = {}, chi = {}, {} shells of {}x{}x{} on {}, dt = {:.4g}, t = {:.4g} to {:.4g}, "
                             "|C_a| = {:.3g}\n",
                             c.hole.mass, spin_text(c.hole), run.system().shells(), c.geometry.extents[0],
                             c.geometry.extents[1], c.geometry.extents[2], core::to_string(c.backend), run.dt(),
                             run.time(), c.time.t_end, n0.gauge);
  core::WallTimer progress;
  const io::StopPolling polling;  // a first SIGINT/SIGTERM ends the run after its step, with its outputs
  while (!run.finished() && io::stop_signal() == 0) {
    run.step();
    if (!c.quiet && (progress.seconds() > 2 || run.finished())) {
      std::cerr << fmt::format("bh: step {}, t = {:.4g} ({:.0f}%)\n", run.steps(), run.time(),
                               100 * run.time() / c.time.t_end);
      progress.start();
    }
  }
  const int stop = io::stop_signal();
  run.finish(stop);
  if (stop != 0) return io::stop_exit_code(stop);
  const nlohmann::json j = run.summary();
  std::cout << fmt::format("bh: {} steps to t = {:.4g}: |C_a| {:.3e}, |C_iab| {:.3e}, normalized {:.3e}, psi error "
                           "{:.3e}, largest normalized {:.3e}\n",
                           run.steps(), run.time(), j["gauge_constraint"].get<double>(),
                           j["three_index_constraint"].get<double>(), j["normalized_constraint"].get<double>(),
                           j["psi_error"].get<double>(), j["largest"]["normalized_constraint"].get<double>());
  return 0;
}

}  // namespace loom::gr
