#include "loom/fmm/parallel/ranks_run.hpp"

#include <fmt/format.h>

#include <ostream>

#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/parallel/distributed.hpp"
#include "loom/fmm/parallel/rank_bodies.hpp"
#include "loom/fmm/parallel/rank_table.hpp"
#include "loom/fmm/parallel/rebalance.hpp"
#include "loom/fmm/run/fmm_run.hpp"
#include "loom/fmm/run/report.hpp"

namespace loom::fmm::parallel {
namespace {

// Rank 0's input as bodies (the other ranks hold none); the time to scatter, partition and move them to `mine`.
double take_share(const comm::Communicator& comm, const FmmRun& run, int ncomp, RankBodies& mine) {
  core::WallTimer timer;
  RankBodies all;
  all.ncomp = ncomp;
  if (comm.is_root()) {
    const Index n = run.bodies();
    all.x = run.positions();
    for (Index i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      if (ncomp == 1) {
        all.strength.push_back(run.charges()[u]);
      } else {
        all.strength.insert(all.strength.end(), {run.alpha()[u].x, run.alpha()[u].y, run.alpha()[u].z});
      }
      all.sigma.push_back(ncomp == 1 ? 0.0 : run.sigma()[u]);
      all.id.push_back(i);
    }
  }
  mine = partition_and_move(comm, scatter_from_root(comm, all));
  return timer.seconds();
}

// Rows of (input index, outputs) from every rank, on rank 0, into vectors in input order (nout values a body).
std::vector<double> gather_in_input_order(const comm::Communicator& comm, const RankBodies& mine,
                                          const std::vector<double>& outputs, int nout, Index n) {
  std::vector<double> rows;
  for (std::size_t i = 0; i < mine.id.size(); ++i) {
    rows.push_back(double(mine.id[i]));
    for (int k = 0; k < nout; ++k) rows.push_back(outputs[i * static_cast<std::size_t>(nout) + k]);
  }
  const std::vector<double> all = comm.gather(rows);
  std::vector<double> ordered(comm.is_root() ? static_cast<std::size_t>(n * nout) : 0);
  for (std::size_t at = 0; at < all.size(); at += static_cast<std::size_t>(nout + 1))
    for (int k = 0; k < nout; ++k) ordered[static_cast<std::size_t>(all[at]) * static_cast<std::size_t>(nout) + k] = all[at + 1 + k];
  return ordered;
}

std::vector<double> flat(const std::vector<Vec3d>& a, const std::vector<Vec3d>& b) {
  std::vector<double> out;
  for (std::size_t i = 0; i < a.size(); ++i) out.insert(out.end(), {a[i].x, a[i].y, a[i].z, b[i].x, b[i].y, b[i].z});
  return out;
}

// Evaluates this rank's bodies; on rank 0 hands the whole set's results in input order to the run.
void evaluate(RankFmm& fmm, FmmRun& run, const RankBodies& mine, RankReport& report, BodyCost* cost) {
  const comm::Communicator& comm = fmm.communicator();
  Options o = run.config().options;
  o.tree_on_backend = o.tree_on_backend || o.backend == core::Backend::cuda;  // the ranks' tree on the device
  const Index n = static_cast<Index>(comm.sum(std::int64_t(mine.x.size())));
  if (run.config().kernel == Kernel::laplace) {
    LaplaceResult r = fmm.laplace(o, mine.x, mine.strength, &report, cost);
    std::vector<double> out;
    for (std::size_t i = 0; i < mine.x.size(); ++i)
      out.insert(out.end(), {r.potential[i], r.gradient[i].x, r.gradient[i].y, r.gradient[i].z});
    const std::vector<double> all = gather_in_input_order(comm, mine, out, 4, n);
    if (!comm.is_root()) return;
    r.potential.resize(static_cast<std::size_t>(n));
    r.gradient.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
      r.potential[i] = all[4 * i];
      r.gradient[i] = {all[4 * i + 1], all[4 * i + 2], all[4 * i + 3]};
    }
    run.set_result(std::move(r));
    return;
  }
  std::vector<Vec3d> alpha;
  alpha.reserve(mine.x.size());  // one allocation: 400 MB at the paper's load
  for (std::size_t i = 0; i < mine.x.size(); ++i)
    alpha.push_back({mine.strength[3 * i], mine.strength[3 * i + 1], mine.strength[3 * i + 2]});
  BiotSavartResult r = fmm.biot_savart(o, mine.x, alpha, mine.sigma, &report, cost);
  const std::vector<double> all = gather_in_input_order(comm, mine, flat(r.velocity, r.stretching), 6, n);
  if (!comm.is_root()) return;
  r.velocity.resize(static_cast<std::size_t>(n));
  r.stretching.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    r.velocity[i] = {all[6 * i], all[6 * i + 1], all[6 * i + 2]};
    r.stretching[i] = {all[6 * i + 3], all[6 * i + 4], all[6 * i + 5]};
  }
  run.set_result(std::move(r));
}

}  // namespace

int run_fmm_on_ranks(const comm::Communicator& comm, const FmmConfig& config, std::ostream& out, std::ostream& log) {
  FmmRun run(config);
  if (comm.is_root()) run.prepare();  // the input is held whole on rank 0 only
  const int ncomp = config.kernel == Kernel::laplace ? 1 : 3;
  RankBodies mine;
  const double partition = take_share(comm, run, ncomp, mine);
  RankReport report;
  std::vector<Step> steps;
  RankFmm fmm(comm);
  if (config.repeat == 1) {
    evaluate(fmm, run, mine, report, nullptr);
  } else {  // each evaluation measures the costs that the next partitioning weighs
    const Evaluate step = [&](const RankBodies& bodies, RankReport& r, BodyCost* cost) {
      evaluate(fmm, run, bodies, r, cost);
    };
    for (int k = 0; k < config.repeat; ++k)
      steps.push_back(rebalanced_step(comm, mine, config.repartition_threshold, {}, step));
    report = steps.back().report;
  }
  const std::vector<double> f = gather_rank_figures(comm, report, partition);
  if (!comm.is_root()) return 0;
  print_start(out, run);
  out << fmt::format("{} MPI ranks; rank 0's local FMM{}:\n", comm.size(), steps.empty() ? "" : " (the last evaluation)");
  print_evaluation(out, run);
  nlohmann::json ranks = print_rank_table(out, f, comm.size());
  if (!steps.empty()) ranks.update(print_steps(out, steps));
  run.add_to_summary(ranks);
  run.check();
  print_check(out, run);
  run.write(log);
  return 0;
}

}  // namespace loom::fmm::parallel
