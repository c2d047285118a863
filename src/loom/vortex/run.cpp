#include "loom/vortex/run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/io/plot_script.hpp"
#include "loom/io/run_end.hpp"
#include "loom/io/stop_signal.hpp"
#include "loom/io/build_identity.hpp"
#include "loom/vortex/memory_need.hpp"
#include "loom/vortex/snapshot.hpp"
#include "loom/vortex/update.hpp"

namespace loom::vortex {
namespace {

const char* const free_columns[] = {"t",          "step",       "dt",         "particles",  "omega_total_x",
                                    "omega_total_y", "omega_total_z", "impulse_x", "impulse_y",  "impulse_z",
                                    "centroid_x", "centroid_y", "centroid_z", "strength",   "wall_s"};
const char* const vortex_columns[] = {"particles", "omega_total_x", "omega_total_y", "omega_total_z"};

nlohmann::json to_json(Vec3d v) { return nlohmann::json::array({v.x, v.y, v.z}); }

nlohmann::json to_json(const hit::Statistics& s) {
  const auto columns = hit::series_columns();
  const auto row = hit::series_row(s, 0, 0, 0);
  nlohmann::json j;
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] != "step" && columns[i] != "dt" && columns[i] != "wall_s") j[columns[i]] = row[i];
  return j;
}

// The particles stay on the device between steps where the FMM runs there with its tree (the device stepper
// covers AB2 with the classical stretching; other schemes and the transpose form step on the host).
bool steps_on_device(const VortexConfig& c) {
  return c.fmm.backend == core::Backend::cuda && c.fmm.tree_on_backend && c.scheme == TimeScheme::ab2 &&
         c.stretching == StretchingForm::classical;
}

bool finite(const Invariants& v) {
  return std::isfinite(v.strength) && std::isfinite(fmm::norm2(v.impulse)) && std::isfinite(fmm::norm2(v.centroid));
}

}  // namespace

VortexRun::VortexRun(VortexConfig config, std::string input) : c_(std::move(config)), input_(std::move(input)) {
  core::WallTimer start;
  core::check_memory(vortex_memory_need(c_), c_.backend == core::Backend::cuda, vortex_memory_setting(c_));
  InitialState s = initial_state(c_);
  p_ = std::move(s.state.particles);
  t_ = t0_ = s.state.time;
  step_ = step0_ = s.state.step;
  initial_cg_ = last_cg_ = s.cg;
  domain_ = c_.periodic ? Domain{true, 0, box_period} : Domain{};
  if (c_.periodic && 5 * c_.overlap * box_period / double(c_.lattice_n) > box_period / 2)
    throw UsageError(fmt::format("particles.n = {}: expected at least {} for particles.overlap = {} (the Gaussian "
                                 "sums' reach of 5 sigma within half the box)",
                                 c_.lattice_n, std::ceil(10 * c_.overlap), c_.overlap));
  const Index steps = step_count(s.state.dt);
  steps_end_ = step_ + steps;
  interval_ = s.state.interval;  // a restart inside an interval goes on with it
  if (interval_.open && !lumped()) {  // ... unless the diffusion is now the cores' own: they take what it owes
    p_ = with_pending_spread();
    interval_ = {};
  }
  rates_ = std::make_unique<RateEvaluator>(c_.fmm, c_.stretching);
  integrator_ = std::make_unique<Integrator>(c_.scheme, c_.step_nu(), domain_);
  if (steps_on_device(c_)) {
    stepper_ = std::make_unique<DeviceStepper>(c_.fmm, c_.step_nu(), domain_, c_.rebuild_cost);
    stepper_->upload(p_);
    if (!s.state.previous.velocity.empty()) stepper_->set_previous(s.state.previous);
  } else if (!s.state.previous.velocity.empty()) {
    integrator_->set_previous(std::move(s.state.previous));
  }
  // on the particle lattice's grid: the modes the particles carry beyond hit's grid (statistics.hpp)
  if (c_.periodic) statistics_.emplace(c_.lattice_n, c_.nu, box_period, c_.backend);
  edges_.start = start.seconds();
}

// Uniform steps landing on t_end, none longer than time.dt (AB2 takes a fixed step). A restart keeps its
// checkpoint's step where that lands on t_end too: the same steps as the run it came from, to the bit.
Index VortexRun::step_count(double checkpoint_dt) {
  const double left = c_.t_end - t_;
  if (checkpoint_dt > 0 && checkpoint_dt <= c_.dt * (1 + 1e-9)) {
    const double n = std::round(left / checkpoint_dt);
    if (n >= 1 && std::abs(left / checkpoint_dt - n) < 1e-12 * n) {
      dt_ = checkpoint_dt;
      return Index(n);
    }
  }
  const Index steps = std::max<Index>(1, Index(std::ceil(left / c_.dt - 1e-9)));
  dt_ = left / double(steps);
  return steps;
}

void VortexRun::begin() {
  if (lumped() && !interval_.open) start_interval();
}

std::vector<std::string> VortexRun::columns() const {
  if (!c_.periodic) return {std::begin(free_columns), std::end(free_columns)};
  std::vector<std::string> c = hit::series_columns();
  c.insert(c.end(), std::begin(vortex_columns), std::end(vortex_columns));
  return c;
}

void VortexRun::open_outputs(const io::Parameters& params) {
  const auto dir = c_.output.dir.empty() ? io::RunDirectory::default_path("vortex") : c_.output.dir;
  run_.emplace(io::RunDirectory::create(dir, c_.output.overwrite));
  run_->write_input(params);
  series_ = run_->open_series(columns());
  if (c_.periodic) spectra_ = run_->open_series({"t", "k", "E"}, "spectra.csv");
  if (c_.output.fields) fields_.emplace(run_->file("particles.xdmf"));
  since_checkpoint_.start();
}

void VortexRun::fetch_particles() {
  if (!particles_moved_) return;
  stepper_->download(p_);
  particles_moved_ = false;
}

void VortexRun::reinitialise() {
  core::WallTimer timer;
  if (stepper_ && c_.periodic) {  // where the particles live (device_reinit.hpp)
    last_cg_ = stepper_->reinitialise(periodic_lattice(domain_, c_.lattice_n), c_.reinit);
    particles_moved_ = true;
  } else {
    fetch_particles();
    const double h = c_.periodic ? box_period / double(c_.lattice_n) : c_.ring_spacing;
    ReinitResult r = vortex::reinitialise(p_, domain_, h, c_.lattice_n, c_.reinit);
    p_ = std::move(r.particles);
    last_cg_ = r.cg;
    integrator_->forget();
    if (stepper_) stepper_->upload(p_);
  }
  ++reinits_;
  cg_worst_iterations_ = std::max(cg_worst_iterations_, last_cg_.iterations);
  cg_worst_residual_ = std::max(cg_worst_residual_, last_cg_.residual);
  if (c_.fmm.backend == core::Backend::cuda) cuda::synchronize();  // the reinitialisation's time, not the step's
  times_.reinit += timer.seconds();
}

void VortexRun::diffuse_and_reinitialise(double spread) {
  if (stepper_ && c_.periodic) {  // reinitialise() takes them where they live
    stepper_->spread_cores(spread);
  } else {
    fetch_particles();
    for (double& s : p_.sigma) s = spread_core(s, spread);
  }
  reinitialise();
}

// 2 nu tau for the time tau the interval ran, less its first half (more than the rest only for an interval cut
// short of its plan: a restart with another time.t_end or reinit.every).
double VortexRun::pending_spread() const {
  if (!interval_.open) return 0;
  return std::max(0.0, 2 * c_.nu * (t_ - interval_.start_time) - interval_.spread);
}

Particles VortexRun::with_pending_spread() const {
  Particles q = p_;
  const double owed = pending_spread();
  for (double& s : q.sigma) s = spread_core(s, owed);
  return q;
}

void VortexRun::end_interval() {
  diffuse_and_reinitialise(pending_spread());
  interval_ = {};
}

// Planned to the next reinitialisation step or the run's end (a restart may begin between two).
void VortexRun::start_interval() {
  const Index every = c_.reinit_every;
  const Index next = std::min(steps_end_, (step_ / every + 1) * every);
  interval_ = {true, t_, c_.nu * dt_ * double(next - step_)};
  diffuse_and_reinitialise(interval_.spread);
}

void VortexRun::step() {
  advance();
  after_step();
}

void VortexRun::advance() {
  DeviceStepTimes d;
  bool ab2 = false;
  if (stepper_) {
    ab2 = stepper_->has_previous();
    stepper_->step(dt_);
    particles_moved_ = true;
    d = stepper_->take_times();
  } else {
    ab2 = c_.scheme == TimeScheme::ab2 && !integrator_->previous().velocity.empty();
    core::WallTimer timer;
    integrator_->step(p_, dt_, [this](const Particles& q, Rates& out) { rates_->evaluate(q, out); });
    const double stepping = timer.seconds();
    const RateTimes rt = rates_->take_times();
    d = {rt.tree, rt.lists, rt.fmm, stepping - rt.tree - rt.lists - rt.fmm};
  }
  times_.tree += d.tree;
  times_.lists += d.lists;
  times_.fmm += d.fmm;
  times_.update += d.update;
  if (ab2) {
    ab2_.tree += d.tree;
    ab2_.lists += d.lists;
    ab2_.fmm += d.fmm;
    ab2_.update += d.update;
    ++ab2_.steps;
  }
  ++step_;
  t_ = t0_ + dt_ * double(step_ - step0_);
}

bool VortexRun::checkpoint_due() const {
  return c_.output.checkpoint_every > 0 && since_checkpoint_.seconds() > c_.output.checkpoint_every;
}

bool VortexRun::reinit_due(Index step) const { return c_.reinit_every > 0 && step % c_.reinit_every == 0; }

// The last step's row and snapshot are finish()'s.
bool VortexRun::record_due(Index step) const { return step % c_.output.every == 0 && step < steps_end_; }

bool VortexRun::snapshot_due(Index step) const {
  return c_.output.fields_every > 0 && step % c_.output.fields_every == 0 && step < steps_end_;
}

bool VortexRun::due(Index step) const {
  return reinit_due(step) || record_due(step) || snapshot_due(step) || checkpoint_due();
}

void VortexRun::after_step() {
  const bool reinit = reinit_due(step_);
  if (reinit && !lumped()) reinitialise();
  if (reinit && lumped()) end_interval();
  if (record_due(step_)) record();  // lumped: on a reinitialisation step between the halves (no pending spread)
  if (snapshot_due(step_)) snapshot();
  if (checkpoint_due()) {  // lumped: with the interval under way, or closed on a reinitialisation step
    checkpoint();
    since_checkpoint_.start();
  }
  if (reinit && lumped() && step_ < steps_end_) start_interval();
}

void VortexRun::adopt(Particles p, Rates previous, Index step, const StepTimes& spent) {
  stepper_.reset();  // the ranks step the particles on the host, each its own
  particles_moved_ = false;
  p_ = std::move(p);
  if (previous.velocity.empty()) {
    integrator_->forget();
  } else {
    integrator_->set_previous(std::move(previous));
  }
  step_ = step;
  t_ = t0_ + dt_ * double(step_ - step0_);
  times_.tree += spent.tree;
  times_.lists += spent.lists;
  times_.fmm += spent.fmm;
  times_.update += spent.update;
  times_.reinit += spent.reinit;
}

Rates VortexRun::previous() const { return stepper_ ? stepper_->previous() : integrator_->previous(); }

void VortexRun::record() {
  fetch_particles();
  if (pending_spread() > 0 && c_.periodic) {  // the statistics depend on the cores (free space's columns do not)
    measure(with_pending_spread());
    return;
  }
  measure(p_);
}

void VortexRun::measure(const Particles& p) {
  last_ = invariants(p);
  if (!finite(last_))
    throw Error(fmt::format("vortex: the particles are not finite at step {}, t = {:.6g}; the run stops, its last "
                            "checkpoint is kept",
                            step_, t_));
  if (series_->rows() == 0) initial_ = last_;
  const double wall = wall_.seconds();
  if (!c_.periodic) {
    const Invariants& v = last_;
    series_->append({t_, double(step_), dt_, double(p.size()), v.total_vorticity.x, v.total_vorticity.y,
                     v.total_vorticity.z, v.impulse.x, v.impulse.y, v.impulse.z, v.centroid.x, v.centroid.y,
                     v.centroid.z, v.strength, wall});
    return;
  }
  core::WallTimer measuring;
  if (stepper_ && &p == &p_ && statistics_->on_grid(p_)) {  // the particles' own velocity is the grid's
    turbulence_ = statistics_->measure_velocity(stepper_->velocity(), t_);
    stepper_->take_times();  // the statistics' evaluation is no part of a step
  } else {
    turbulence_ = statistics_->measure(*rates_, p, t_);
  }
  rates_->take_times();
  times_.statistics += measuring.seconds();
  if (series_->rows() == 0) turbulence0_ = turbulence_;
  std::vector<double> row = hit::series_row(turbulence_, step_, dt_, wall);
  row.insert(row.end(), {double(p.size()), last_.total_vorticity.x, last_.total_vorticity.y, last_.total_vorticity.z});
  series_->append(row);
  for (std::size_t k = 1; k < turbulence_.spectrum.size(); ++k)
    if (turbulence_.spectrum[k] > 0) spectra_->append({t_, double(k), turbulence_.spectrum[k]});
}

void VortexRun::snapshot() {
  if (!fields_) return;
  fetch_particles();
  const auto file = run_->file(fmt::format("particles_{:04d}.h5", snapshots_));
  if (pending_spread() > 0)
    fields_->add(write_particle_snapshot(file, with_pending_spread(), t_));
  else
    fields_->add(write_particle_snapshot(file, p_, t_));
  ++snapshots_;
}

void VortexRun::checkpoint() {
  fetch_particles();
  Checkpoint c{p_, previous(), t_, dt_, step_, c_.periodic, c_.lattice_n, c_.grid_n, interval_, input_};
  write_checkpoint(run_->file("checkpoint.h5"), c);
}

nlohmann::json VortexRun::summary() const {
  nlohmann::json j;
  j["loom"] = loom::io::build_identity();
  j["backend"] = std::string(core::to_string(c_.backend));
  if (c_.backend == core::Backend::cuda) j["device"] = cuda::device_info(cuda::current_device()).name;
  if (c_.backend == core::Backend::cpu) j["cpu_threads"] = core::cpu_threads();
  j["initial_type"] = std::string(to_string(c_.initial));
  j["periodic"] = c_.periodic;
  j["particles"] = p_.size();
  j["nu"] = c_.nu;
  j["scheme"] = std::string(to_string(c_.scheme));
  j["stretching"] = c_.stretching == StretchingForm::transpose ? "transpose" : "classical";
  j["spreading"] = c_.spreading == Spreading::reinit ? "reinit" : "steps";  // physics.spreading
  j["fmm"] = {{"order", c_.fmm.order}, {"theta", c_.fmm.theta}, {"ncrit", c_.fmm.ncrit},
              {"tree", c_.fmm.tree_on_backend ? "backend" : "host"}, {"particles_on_device", stepper_ != nullptr}};
  if (stepper_) {
    j["fmm"]["tree_builds"] = stepper_->fmm().builds();
    j["fmm"]["tree_refits"] = stepper_->fmm().refits();
  }
  j["dt"] = dt_;
  j["t"] = t_;
  j["steps"] = step_ - step0_;
  j["reinit"] = {{"every", c_.reinit_every},          {"count", reinits_},
                 {"cg_worst_iterations", cg_worst_iterations_}, {"cg_worst_residual", cg_worst_residual_},
                 {"initial_cg_iterations", initial_cg_.iterations}, {"initial_cg_residual", initial_cg_.residual}};
  const double steps = std::max(1.0, double(step_ - step0_));
  j["seconds_per_step"] = {{"tree", times_.tree / steps},     {"lists", times_.lists / steps},
                           {"fmm", times_.fmm / steps},
                           {"update", times_.update / steps}, {"reinit", times_.reinit / steps},
                           {"total", times_.total() / steps}, {"statistics", times_.statistics / steps}};
  const double ab2_steps = std::max<double>(1, double(ab2_.steps));
  j["seconds_per_ab2_step"] = {{"steps", ab2_.steps},          {"tree", ab2_.tree / ab2_steps},
                               {"lists", ab2_.lists / ab2_steps}, {"fmm", ab2_.fmm / ab2_steps},
                               {"update", ab2_.update / ab2_steps},
                               {"total", (ab2_.tree + ab2_.lists + ab2_.fmm + ab2_.update) / ab2_steps}};
  j["seconds_outside_steps"] = {{"start", edges_.start}, {"last_row", edges_.last_row},
                                {"checkpoint", edges_.checkpoint}};
  j["invariants"] = {{"initial", {{"total_vorticity", to_json(initial_.total_vorticity)},
                                  {"impulse", to_json(initial_.impulse)}, {"strength", initial_.strength}}},
                     {"final", {{"total_vorticity", to_json(last_.total_vorticity)},
                                {"impulse", to_json(last_.impulse)}, {"strength", last_.strength}}}};
  if (c_.initial == InitialType::ring || !c_.periodic) {
    // the centroid's motion along the ring's axis over the run (issue 21's ring_speed)
    j["ring_speed"] = t_ > t0_ ? (last_.centroid.z - initial_.centroid.z) / (t_ - t0_) : 0.0;
    j["saffman_speed"] = saffman_ring_speed(c_.ring);
    j["ring"] = {{"circulation", c_.ring.circulation}, {"radius", c_.ring.radius}, {"core", c_.ring.core},
                 {"spacing", c_.ring_spacing}};
  }
  if (c_.periodic) {
    j["grid"] = {{"n", c_.grid_n}, {"box", "[0, 2 pi)^3"}, {"particles_per_direction", c_.lattice_n},
                 {"statistics_n", statistics_->n()}};
    j["initial"] = to_json(turbulence0_);
    j["final"] = to_json(turbulence_);
  }
  j["wall_s"] = wall_.seconds();
  j.update(extra_summary_, true);  // merged: a run over ranks adds keys inside "fmm"
  return j;
}

void VortexRun::finish(int stop_signal) {
  // the last interval's second half; a run stopped inside an interval keeps it open (its last row, snapshot and
  // checkpoint carry the diffusion it owes, and a restart ends it as this run would have)
  if (interval_.open && finished()) end_interval();
  core::WallTimer timer;
  record();
  edges_.last_row = timer.seconds();
  series_->close();
  if (spectra_) spectra_->close();
  snapshot();
  timer.start();
  checkpoint();
  edges_.checkpoint = timer.seconds();
  if (io::write_final_summary(*run_, summary(), stop_signal, "vortex", step_, t_)) return;
  if (c_.output.plots) {
    std::vector<std::string> args{run_->path().string()};
    if (!c_.compare.empty()) args.push_back(c_.compare.string());
    const std::string why = io::run_plot_script("plot_vortex.py", args);
    if (!why.empty() && !c_.quiet) std::cerr << why << "\n";
  }
}

int run_vortex(const io::Parameters& params) {
  VortexRun run(make_vortex_config(params), params.to_toml());
  const VortexConfig& c = run.config();
  run.open_outputs(params);
  run.record();
  run.snapshot();
  run.begin();
  if (!c.quiet)
    std::cerr << fmt::format("vortex: {} particles ({}{}) on {}, {} from t = {:.4g} to {:.4g}\n", run.particles().size(),
                             to_string(c.initial), c.periodic ? ", periodic" : ", free space",
                             core::to_string(c.backend), to_string(c.scheme), run.time(), c.t_end);
  core::WallTimer progress;
  const io::StopPolling polling;  // a first SIGINT/SIGTERM ends the run after its step, with its outputs
  while (!run.finished() && io::stop_signal() == 0) {
    run.step();
    if (!c.quiet && (progress.seconds() > 2 || run.finished())) {
      std::cerr << fmt::format("vortex: step {}, t = {:.4g} ({:.0f}%)\n", run.steps(), run.time(),
                               100 * run.time() / c.t_end);
      progress.start();
    }
  }
  const int stop = io::stop_signal();
  run.finish(stop);
  if (stop != 0) return io::stop_exit_code(stop);
  print_outcome(run);
  return 0;
}

void print_outcome(const VortexRun& run) {
  const nlohmann::json j = run.summary();
  if (j.contains("ring_speed"))
    std::cout << fmt::format("vortex: {} particles, {} steps to t = {:.4g}: ring speed {:.6g} (Saffman {:.6g})\n",
                             run.particles().size(), j["steps"].get<Index>(), run.time(), j["ring_speed"].get<double>(),
                             j["saffman_speed"].get<double>());
  else
    std::cout << fmt::format("vortex: {} particles, {} steps to t = {:.4g}: energy {:.9g}, dissipation {:.6g}, "
                             "skewness {:.3f}\n",
                             run.particles().size(), j["steps"].get<Index>(), run.time(),
                             j["final"]["energy"].get<double>(), j["final"]["dissipation"].get<double>(),
                             j["final"]["skewness"].get<double>());
}

}  // namespace loom::vortex
