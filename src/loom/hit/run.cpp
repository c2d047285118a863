#include "loom/hit/run.hpp"

#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <iostream>

#include "loom/comm/rank_device.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/hit/checkpoint.hpp"
#include "loom/hit/initial.hpp"
#include "loom/hit/memory.hpp"
#include "loom/hit/rank_checks.hpp"
#include "loom/hit/slab_fields.hpp"
#include "loom/hit/snapshot.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/finite_state.hpp"
#include "loom/io/plot_script.hpp"
#include "loom/io/run_end.hpp"
#include "loom/io/stop_signal.hpp"
#include "loom/io/build_identity.hpp"

namespace loom::hit {
namespace {

std::string_view name(InitialType t) {
  switch (t) {
    case InitialType::random: return "random";
    case InitialType::file: return "file";
    case InitialType::checkpoint: return "checkpoint";
    default: return "taylor_green";
  }
}

// The grid a file or checkpoint brings, checked against a grid.n the user gave.
void adopt_grid(HitConfig& c, Index n) {
  if (c.grid_set && c.grid.n != n)
    throw UsageError(fmt::format("grid.n = {}: expected {} as in initial.file \"{}\"", c.grid.n, n, c.initial.file));
  c.grid.n = n;
}

// Before anything of the grid's size is allocated: the ranks (rank_checks.hpp) and the memory.
void check_before_allocating(const HitConfig& c, const comm::Communicator& world) {
  check_ranks(c, world.size());
  // The rank's GPU (ranks share one where there are fewer), current before the memory check asks it.
  if (c.backend == core::Backend::cuda && world.size() > 1) comm::select_rank_device(world);
  const int ranks_per_node = world.size() > 1 ? int(world.max(double(world.local_rank()))) + 1 : 1;
  check_memory(c, world.size(), ranks_per_node);
}

std::unique_ptr<Solver> initial_solver(HitConfig& c, const comm::Communicator& world) {
  if (c.initial.type == InitialType::checkpoint) {
    const CheckpointHeader cp = read_checkpoint_header(c.initial.file);
    adopt_grid(c, cp.n);
    check_before_allocating(c, world);
    auto solver = std::make_unique<Solver>(c.backend, c.grid, c.solver, world);
    solver->set_modes(read_checkpoint_modes(c.initial.file, solver->layout()), cp.time, cp.step);
    return solver;
  }
  if (c.initial.type == InitialType::file) adopt_grid(c, velocity_file_grid(c.initial.file, "initial.file"));
  check_before_allocating(c, world);
  auto solver = std::make_unique<Solver>(c.backend, c.grid, c.solver, world);
  // On several ranks each rank builds its own slab of the analytic fields (initial.hpp); one rank keeps the
  // whole-grid construction (bit for bit the field of earlier versions and of `loom vortex`).
  const bool slabs = solver->distributed();
  if (c.initial.type == InitialType::random && slabs)
    solver->set_modes(random_solenoidal(*solver, c.initial.spectrum, c.initial.k_peak, c.initial.energy,
                                        c.initial.seed));
  else if (c.initial.type == InitialType::random)
    solver->set_modes(random_solenoidal(c.grid, c.solver.dealiasing, c.initial.spectrum, c.initial.k_peak,
                                        c.initial.energy, c.initial.seed));
  else if (c.initial.type == InitialType::file)  // each rank reads its own planes
    solver->set_local_velocity(read_velocity_slab(c.initial.file, solver->layout()));
  else if (slabs)
    solver->set_local_velocity(taylor_green_slab(solver->layout(), c.initial.amplitude));
  else
    solver->set_velocity(taylor_green(c.grid, c.initial.amplitude));
  return solver;
}

nlohmann::json to_json(const Statistics& s) {
  const auto columns = series_columns();
  const auto row = series_row(s, 0, 0, 0);
  nlohmann::json j;
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] != "step" && columns[i] != "dt" && columns[i] != "wall_s") j[columns[i]] = row[i];
  return j;
}

// The stop signal as every rank sees it: a signal may reach some ranks first, and ranks that stepped on alone
// would wait in the next transform's collective forever.
int agreed_stop_signal() {
  const comm::Communicator& world = comm::Communicator::world();
  if (world.size() == 1) return io::stop_signal();
  return static_cast<int>(world.max(static_cast<double>(io::stop_signal())));
}

}  // namespace

HitRun::HitRun(HitConfig config, std::string input, comm::Communicator world)
    : config_(std::move(config)), input_(std::move(input)), world_(std::move(world)) {
  solver_ = initial_solver(config_, world_);
  const double speed = solver_->max_speed_sum();
  dt_limit_ = speed > 0 ? courant_limit * config_.grid.spacing() / speed : HUGE_VAL;
  if (config_.time.dt > dt_limit_ && !config_.time.unsafe)
    throw UsageError(fmt::format(
        "time.dt = {}: expected a number <= {:.6g}, the Courant limit {} for the initial field (max |u|+|v|+|w| = "
        "{:.6g}, dx = {:.6g}), or set time.unsafe = true",
        config_.time.dt, dt_limit_, courant_limit, speed, config_.grid.spacing()));
  if (solver_->time() >= config_.time.t_end)
    throw UsageError(fmt::format("time.t_end = {}: expected a time after the checkpoint's t = {}", config_.time.t_end,
                                 solver_->time()));
  // The CFL step of the initial field stands for the steps to come (they shrink only as the flow speeds up).
  const double dt = config_.time.dt > 0 ? config_.time.dt : config_.time.cfl * dt_limit_ / courant_limit;
  if (config_.time.dt > 0)
    io::checked_step_count(config_.time.t_end - solver_->time(), dt, "time.dt", config_.time.dt);
  io::checked_step_count(config_.time.t_end - solver_->time(), dt, "time.t_end", config_.time.t_end);
  if (config_.forcing_k > 0) {
    forcing_.emplace(*solver_, config_.forcing_k);
    if (forcing_->target() <= 0)
      throw UsageError(fmt::format("forcing.k_max = {}: the initial field has no energy at 0 < |k| <= {}",
                                   config_.forcing_k, config_.forcing_k));
  }
  every_ = config_.output.every > 0 ? config_.output.every : config_.time.t_end / 100;
  next_output_ = std::min(solver_->time() + every_, config_.time.t_end);
  next_snapshot_ = solver_->time() + config_.output.fields_every;
}

void HitRun::open_outputs(const io::Parameters& params) {
  // Rank 0 makes the directory; every rank learns whether it could, so that all stop together when not.
  std::exception_ptr failure;
  if (root()) try {
      const auto dir = config_.output.dir.empty() ? io::RunDirectory::default_path("hit") : config_.output.dir;
      run_.emplace(io::RunDirectory::create(dir, config_.output.overwrite, "output.dir",
                                            {{"initial.file", config_.initial.file}}));
      run_->write_input(params);
      series_ = run_->open_series(series_columns());
      spectra_ = run_->open_series({"t", "k", "E"}, "spectra.csv");
      if (config_.output.fields) fields_.emplace(run_->file("fields.xdmf"));
    } catch (...) {
      failure = std::current_exception();
    }
  const bool failed = world_.size() > 1 ? world_.max(failure ? 1.0 : 0.0) > 0 : bool(failure);
  if (failure) std::rethrow_exception(failure);
  if (failed) throw UsageError(fmt::format("output.dir = \"{}\": rank 0 could not write the run directory",
                                           config_.output.dir.string()));
  since_checkpoint_.start();
}

bool HitRun::finished() const { return solver_->time() >= config_.time.t_end * (1 - 1e-12); }

bool HitRun::output_due() const { return solver_->time() >= next_output_ - 1e-9 * std::max(last_dt_, 1e-300); }

void HitRun::step() {
  StepRule rule;
  rule.dt = config_.time.dt;
  rule.cfl = config_.time.cfl;
  // Steps land on t_end; output rows fall on the first step at or past each output time, so that a short
  // output.every never shortens the Courant step.
  rule.dt_cap = config_.time.t_end - solver_->time();
  if (rule.dt > 0 && solver_->time() + rule.dt > config_.time.t_end + 1e-9 * rule.dt)
    rule.dt = config_.time.t_end - solver_->time();  // a fixed step that would pass t_end is shortened
  core::WallTimer timer;
  last_dt_ = solver_->step(rule);
  if (forcing_) forcing_energy_ += forcing_->apply(*solver_);
  if (config_.backend == core::Backend::cuda) cuda::synchronize();
  stepping_seconds_ += timer.seconds();
  if (output_due()) {
    record();
    while (next_output_ <= solver_->time() + 1e-9 * last_dt_) next_output_ += every_;
    next_output_ = std::min(next_output_, config_.time.t_end);
  }
  const double fields_every = config_.output.fields_every;
  if (fields_every > 0 && !finished() && solver_->time() >= next_snapshot_ - 1e-9 * last_dt_) {
    snapshot();
    next_snapshot_ += fields_every;
  }
  // The ranks' clocks differ and the checkpoint's gather is collective: every rank takes the decision of any.
  bool checkpoint_due =
      config_.output.checkpoint_every > 0 && since_checkpoint_.seconds() > config_.output.checkpoint_every;
  if (world_.size() > 1) checkpoint_due = world_.max(checkpoint_due ? 1.0 : 0.0) > 0;
  if (checkpoint_due) {
    checkpoint();
    since_checkpoint_.start();
  }
}

Statistics HitRun::record() {
  last_ = measure(*solver_);
  // A non-finite field is never written as a result: the series keeps its good rows, the last checkpoint stays.
  const std::filesystem::path kept = root() ? run_->file("checkpoint.h5") : std::filesystem::path();
  io::require_finite("hit", "the energy", last_.energy, solver_->steps(), last_.t, kept);
  io::require_finite("hit", "the enstrophy", last_.enstrophy, solver_->steps(), last_.t, kept);
  if (solver_->steps() == 0 || rows_ == 0) initial_ = last_;
  ++rows_;
  if (!root()) return last_;
  series_->append(series_row(last_, solver_->steps(), last_dt_, wall_.seconds()));
  for (std::size_t k = 0; k < last_.spectrum.size(); ++k)
    if (k > 0 && last_.spectrum[k] > 0) spectra_->append({last_.t, double(k), last_.spectrum[k]});
  return last_;
}

void HitRun::snapshot() {
  if (!config_.output.fields) return;
  const std::string name = fmt::format("fields_{:04d}.h5", snapshots_);
  const std::string grid = write_field_snapshot(root() ? run_->file(name) : std::filesystem::path(name), *solver_);
  if (root()) fields_->add(grid);
  ++snapshots_;
  if (!root()) return;
  series_->flush();  // the rows up to each snapshot are on disk with it
  spectra_->flush();
}

void HitRun::checkpoint() {
  write_checkpoint(root() ? run_->file("checkpoint.h5") : std::filesystem::path(), *solver_, input_);
}

nlohmann::json HitRun::summary() const {
  nlohmann::json j = to_json(last_);
  j["loom"] = loom::io::build_identity();
  j["backend"] = std::string(core::to_string(config_.backend));
  if (config_.backend == core::Backend::cuda) j["device"] = cuda::device_info(cuda::current_device()).name;
  if (config_.backend == core::Backend::cpu) j["cpu_threads"] = core::cpu_threads();
  j["ranks"] = world_.size();
  j["grid"] = {{"n", config_.grid.n}, {"box", "[0, 2 pi)^3"}};
  j["nu"] = config_.solver.nu;
  j["scheme"] = config_.solver.scheme == Scheme::rk4 ? "rk4" : "rk2";
  j["dealias"] = config_.solver.dealiasing == Dealiasing::two_thirds ? "two_thirds" : "phase_shift";
  j["initial_type"] = std::string(name(config_.initial.type));
  if (config_.initial.type == InitialType::random) j["seed"] = config_.initial.seed;
  j["dt"] = config_.time.dt > 0 ? nlohmann::json(config_.time.dt) : nlohmann::json("cfl");
  j["courant_limit_dt"] = dt_limit_;
  if (forcing_)
    j["forcing"] = {{"k_max", config_.forcing_k},
                    {"shell_energy", forcing_->target()},
                    {"energy_added", forcing_energy_},
                    {"mean_power", forcing_energy_ / std::max(solver_->time() - initial_.t, 1e-300)}};
  j["steps"] = solver_->steps();
  j["initial"] = to_json(initial_);
  j["final"] = to_json(last_);
  j["stepping_s"] = stepping_seconds_;
  j["seconds_per_step"] = solver_->steps() > 0 ? stepping_seconds_ / double(solver_->steps()) : 0.0;
  j["wall_s"] = wall_.seconds();
  return j;
}

void HitRun::finish(int stop_signal) {
  if (rows_ == 0 || last_.t != solver_->time()) record();
  snapshot();
  checkpoint();
  if (!root()) return;
  series_->close();
  spectra_->close();
  if (io::write_final_summary(*run_, summary(), stop_signal, "hit", solver_->steps(), solver_->time())) return;
  if (config_.output.plots) {
    const std::string why = io::run_plot_script("plot_hit.py", {run_->path().string()});
    if (!why.empty() && !config_.quiet) std::cerr << why << "\n";
  }
}

int run_hit(const io::Parameters& params) {
  HitRun run(make_hit_config(params), params.to_toml());
  const HitConfig& c = run.config();
  run.open_outputs(params);
  const Statistics s0 = run.record();
  run.snapshot();
  const bool speak = !c.quiet && comm::Communicator::world().is_root();
  if (speak)
    std::cerr << fmt::format("hit: {}^3 on {}, nu = {:.4g}, {} from t = {:.4g} to {:.4g}, Re_lambda = {:.1f}\n",
                             c.grid.n, core::to_string(c.backend), c.solver.nu, name(c.initial.type), s0.t,
                             c.time.t_end, s0.re_lambda);
  core::WallTimer progress;
  const io::StopPolling polling;  // a first SIGINT/SIGTERM ends the run after its step, with its outputs
  while (!run.finished() && agreed_stop_signal() == 0) {
    run.step();
    if (speak && (progress.seconds() > 2 || run.finished())) {
      std::cerr << fmt::format("hit: step {}, t = {:.4g} ({:.0f}%)\n", run.solver().steps(), run.solver().time(),
                               100 * run.solver().time() / c.time.t_end);
      progress.start();
    }
  }
  const int stop = agreed_stop_signal();
  run.finish(stop);
  if (stop != 0) return io::stop_exit_code(stop);
  if (!comm::Communicator::world().is_root()) return 0;
  const nlohmann::json j = run.summary();
  std::cout << fmt::format("hit: {}^3, {} steps to t = {:.4g}: energy {:.9g}, enstrophy {:.9g}, Re_lambda {:.1f}, "
                           "skewness {:.3f}, max |div u| {:.1e}\n",
                           c.grid.n, j["steps"].get<Index>(), run.solver().time(), j["energy"].get<double>(),
                           j["enstrophy"].get<double>(), j["re_lambda"].get<double>(), j["skewness"].get<double>(),
                           j["divergence_max"].get<double>());
  return 0;
}

}  // namespace loom::hit
