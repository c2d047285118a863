#include "loom/vortex/ranks_run.hpp"

#include <fmt/format.h>

#include <array>
#include <iostream>
#include <span>
#include <vector>

#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/parallel/distributed.hpp"
#include "loom/fmm/parallel/rank_bodies.hpp"
#include "loom/io/run_end.hpp"
#include "loom/io/stop_signal.hpp"
#include "loom/vortex/neutral.hpp"
#include "loom/vortex/run.hpp"

namespace loom::vortex {
namespace {

// A rank's particles and AB2's previous rates travel as RankBodies of 9 strengths a body: alpha, then the
// previous velocity and stretching (zeros when there are none: the broadcast flag says so).
constexpr int carried = 9;

struct Share {
  Particles p;
  Rates previous;  // as distributed; the integrator's own after it steps
  std::vector<Index> id;  // each particle's index in rank 0's order
};

fmm::parallel::RankBodies to_bodies(const Particles& p, const Rates& previous) {
  fmm::parallel::RankBodies b;
  b.ncomp = carried;
  b.x = p.x;
  b.sigma = p.sigma;
  const bool has = !previous.velocity.empty();
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    const Vec3d v = has ? previous.velocity[i] : Vec3d{}, s = has ? previous.stretching[i] : Vec3d{};
    b.strength.insert(b.strength.end(), {p.alpha[i].x, p.alpha[i].y, p.alpha[i].z, v.x, v.y, v.z, s.x, s.y, s.z});
    b.id.push_back(static_cast<Index>(i));
  }
  return b;
}

// Rank 0's particles (and previous rates, where it has them) partitioned over the ranks.
Share distribute(const comm::Communicator& comm, const VortexRun& run) {
  std::array<double, 1> has{run.previous().velocity.empty() ? 0.0 : 1.0};
  comm.broadcast(has);
  fmm::parallel::RankBodies b = comm.is_root() ? to_bodies(run.particles(), run.previous()) : fmm::parallel::RankBodies{};
  b.ncomp = carried;
  const fmm::parallel::RankBodies mine =
      fmm::parallel::partition_and_move(comm, fmm::parallel::scatter_from_root(comm, b));
  Share s;
  s.p.x = mine.x;
  s.p.sigma = mine.sigma;
  s.id = mine.id;
  auto at = [&](std::size_t i, std::size_t k) {
    return Vec3d{mine.strength[carried * i + k], mine.strength[carried * i + k + 1], mine.strength[carried * i + k + 2]};
  };
  for (std::size_t i = 0; i < mine.x.size(); ++i) {
    s.p.alpha.push_back(at(i, 0));
    if (has[0] == 0) continue;
    s.previous.velocity.push_back(at(i, 3));
    s.previous.stretching.push_back(at(i, 6));
  }
  if (mine.x.empty()) throw Error(fmt::format("vortex: rank {} of {} holds no particles", comm.rank(), comm.size()));
  return s;
}

// Every rank's particles and previous rates on rank 0, in rank 0's order of the last distribution.
void gather(const comm::Communicator& comm, const Share& s, const Rates& own, Particles& all, Rates& previous) {
  const bool has_previous = !own.velocity.empty();
  std::vector<double> rows;
  for (std::size_t i = 0; i < s.p.x.size(); ++i) {
    rows.push_back(double(s.id[i]));
    for (const Vec3d v : {s.p.x[i], s.p.alpha[i]}) rows.insert(rows.end(), {v.x, v.y, v.z});
    rows.push_back(s.p.sigma[i]);
    for (const Vec3d v : {has_previous ? own.velocity[i] : Vec3d{}, has_previous ? own.stretching[i] : Vec3d{}})
      rows.insert(rows.end(), {v.x, v.y, v.z});
  }
  constexpr std::size_t width = 14;
  const std::vector<double> got = comm.gather(rows);
  if (!comm.is_root()) return;
  all.resize(static_cast<Index>(got.size() / width));
  previous = {};
  if (has_previous) {
    previous.velocity.resize(all.x.size());
    previous.stretching.resize(all.x.size());
  }
  for (std::size_t at = 0; at < got.size(); at += width) {
    const auto i = static_cast<std::size_t>(got[at]);
    auto v = [&](std::size_t k) { return Vec3d{got[at + k], got[at + k + 1], got[at + k + 2]}; };
    all.x[i] = v(1);
    all.alpha[i] = v(4);
    all.sigma[i] = got[at + 7];
    if (!has_previous) continue;
    previous.velocity[i] = v(8);
    previous.stretching[i] = v(11);
  }
}

// The rates of this rank's particles by the FMM over the ranks (periodic: of the strengths less the mean over
// every rank's particles, neutral.hpp); its phases added to `times`.
void rates_on_ranks(const comm::Communicator& comm, fmm::parallel::RankFmm& fmm, const fmm::Options& o,
                    const Particles& q, Rates& out, StepTimes& times, std::vector<Vec3d>& neutral) {
  std::span<const Vec3d> alpha = q.alpha;
  if (o.periodic) {
    const Vec3d mine = static_cast<double>(q.size()) * mean_strength(q.alpha);
    std::array<double, 4> total{mine.x, mine.y, mine.z, static_cast<double>(q.size())};
    comm.sum_in_rank_order(total);
    subtract_mean(q.alpha, (1.0 / total[3]) * Vec3d{total[0], total[1], total[2]}, neutral);
    alpha = neutral;
  }
  fmm::parallel::RankReport report;
  fmm::BiotSavartResult r = fmm.biot_savart(o, q.x, alpha, q.sigma, &report);
  out.velocity = std::move(r.velocity);
  out.stretching = std::move(r.stretching);
  times.tree += report.tree + report.let_build + report.let_wait;  // let_write: behind the local FMM
  times.lists += report.local_time.traversal;
  times.fmm += report.communication + report.local + report.remote - report.local_time.traversal;
}

// Rank 0's word for every rank: whether its run has work after `step` (a wall-clock checkpoint may be due on it
// alone), and the stop signal.
std::array<double, 2> agree(const comm::Communicator& comm, const VortexRun& run, Index step) {
  std::array<double, 2> flags{run.due(step) ? 1.0 : 0.0, double(io::stop_signal())};
  comm.broadcast(flags);
  return flags;
}

void check_ranks(const comm::Communicator& comm, const VortexConfig& c, Index particles) {
  if (c.stretching == StretchingForm::transpose)
    throw UsageError(fmt::format("stretching = \"transpose\": expected \"classical\" under mpiexec ({} ranks): the "
                                 "transpose form's Gaussian sum runs in one process only",
                                 comm.size()));
  if (particles < 2 * comm.size())
    throw UsageError(fmt::format("mpiexec -n {}: the run has {} particles; expected at most {} ranks (2 particles "
                                 "a rank)",
                                 comm.size(), particles, particles / 2));
}

// The ranks' particles back on rank 0's run, with the seconds spent since the last hand-over.
void hand_back(const comm::Communicator& comm, VortexRun& run, const Share& mine, const Integrator& integrator,
               Index step, StepTimes& spent) {
  Particles all;
  Rates previous;
  gather(comm, mine, integrator.previous(), all, previous);
  if (comm.is_root()) run.adopt(std::move(all), std::move(previous), step, spent);
  spent = {};
}

void add(StepTimes& a, const StepTimes& b) {
  a.tree += b.tree;
  a.lists += b.lists;
  a.fmm += b.fmm;
  a.update += b.update;
}

}  // namespace

int run_vortex_on_ranks(const comm::Communicator& comm, const io::Parameters& params) {
  VortexConfig config = make_vortex_config(params);
  const bool tree_on_backend = config.fmm.tree_on_backend;
  // every rank's run holds the particles on the host only: a device stepper would hold all of them on each GPU
  config.fmm.tree_on_backend = false;
  VortexRun run(std::move(config), params.to_toml());
  const VortexConfig& c = run.config();
  fmm::Options ranks_fmm = c.fmm;  // as the initial state resolved it (a checkpoint's box or none)
  ranks_fmm.tree_on_backend = tree_on_backend;
  check_ranks(comm, c, run.particles().size());
  if (comm.is_root()) {
    run.open_outputs(params);
    run.record();
    run.snapshot();
    run.begin();
    if (!c.quiet)
      std::cerr << fmt::format("vortex: {} particles on {} MPI ranks, {} from t = {:.4g} to {:.4g}\n",
                               run.particles().size(), comm.size(), to_string(c.scheme), run.time(), c.t_end);
  }
  const Domain domain = c.periodic ? Domain{true, 0, box_period} : Domain{};
  Integrator integrator(c.scheme, c.step_nu(), domain);
  Share mine = distribute(comm, run);
  integrator.set_previous(mine.previous);
  StepTimes spent;
  fmm::parallel::RankFmm fmm(comm);  // its LET buffers kept from one rate evaluation to the next
  std::vector<Vec3d> neutral;        // periodic: the strengths less their mean
  int stop = 0;
  const io::StopPolling polling;  // a first SIGINT/SIGTERM ends the run after its step, on every rank alike
  Index step = run.steps();
  while (step < run.last_step() && stop == 0) {
    core::WallTimer timer;
    StepTimes t;
    integrator.step(mine.p, run.dt(),
                    [&](const Particles& q, Rates& out) { rates_on_ranks(comm, fmm, ranks_fmm, q, out, t, neutral); });
    t.update = timer.seconds() - t.tree - t.lists - t.fmm;
    add(spent, t);
    ++step;
    const std::array<double, 2> flags = agree(comm, run, step);
    stop = static_cast<int>(flags[1]);
    if (flags[0] == 0) continue;
    hand_back(comm, run, mine, integrator, step, spent);
    if (comm.is_root()) run.after_step();
    mine = distribute(comm, run);  // partitioned afresh: the particles moved, or were replaced
    integrator.set_previous(mine.previous);
  }
  hand_back(comm, run, mine, integrator, step, spent);
  const std::vector<double> counts = comm.gather(std::vector<double>{double(mine.p.size())});
  if (!comm.is_root()) return stop != 0 ? io::stop_exit_code(stop) : 0;
  run.add_to_summary({{"ranks", comm.size()},
                      {"particles_per_rank", counts},
                      {"fmm", {{"tree", ranks_fmm.tree_on_backend ? "backend" : "host"}}}});
  run.finish(stop);
  if (stop != 0) return io::stop_exit_code(stop);
  print_outcome(run);
  return 0;
}

}  // namespace loom::vortex
