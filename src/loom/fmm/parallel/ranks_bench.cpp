#include "loom/fmm/parallel/ranks_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>

#include "loom/core/backend.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/parallel/rank_bodies.hpp"
#include "loom/fmm/parallel/rank_table.hpp"
#include "loom/fmm/parallel/repartition.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/version_info.hpp"

namespace loom::fmm::parallel {
namespace {

// Rank 0's generated bodies (the other ranks' are empty): strengths uniform in [-1, 1), Biot-Savart's core
// radius the mean spacing 2 / n^(1/3).
RankBodies generate_on_root(const comm::Communicator& comm, const RanksBench& b, int ncomp) {
  RankBodies all;
  all.ncomp = ncomp;
  if (!comm.is_root()) return all;
  const Index n = b.bodies_per_rank * comm.size();
  all.x = make_positions(b.distribution, n, 1);
  all.strength = make_uniform(n * ncomp, -1, 1, 2);
  all.sigma.assign(static_cast<std::size_t>(n), ncomp == 1 ? 0.0 : 2 / std::cbrt(double(n)));
  for (Index i = 0; i < n; ++i) all.id.push_back(i);
  return all;
}

void evaluate(const comm::Communicator& comm, const Options& o, const RankBodies& mine, RankReport& report,
              BodyCost& cost) {
  if (mine.ncomp == 1) {
    laplace(comm, o, mine.x, mine.strength, &report, &cost);
    return;
  }
  std::vector<Vec3d> alpha;
  for (std::size_t i = 0; i < mine.x.size(); ++i)
    alpha.push_back({mine.strength[3 * i], mine.strength[3 * i + 1], mine.strength[3 * i + 2]});
  biot_savart(comm, o, mine.x, alpha, mine.sigma, &report, &cost);
}

struct Sample {
  double step = 0, partition = 0, imbalance = 1;
  bool repartitioned = false;
  RankReport report;
};

}  // namespace

int run_bench_on_ranks(const comm::Communicator& comm, const RanksBench& b, std::ostream& out) {
  const int ncomp = b.kernel == Kernel::laplace ? 1 : 3;
  core::WallTimer scatter_timer;
  RankBodies mine = scatter_from_root(comm, generate_on_root(comm, b, ncomp));
  const double scatter = comm.max(scatter_timer.seconds());
  core::WallTimer partition_timer;
  mine = partition_and_move(comm, mine);
  double partition = partition_timer.seconds();
  std::vector<Sample> samples;
  for (int k = 0; k < b.warmup + b.repeats; ++k) {
    Sample s;
    s.partition = partition;
    BodyCost cost;
    comm.barrier();
    core::WallTimer step;
    evaluate(comm, b.options, mine, s.report, cost);
    s.step = comm.max(step.seconds());
    core::WallTimer again;
    std::vector<double> rows = mine.rows();
    s.repartitioned = repartition(comm, rows, mine.width(), cost.seconds, b.repartition_threshold, &s.imbalance);
    if (s.repartitioned) mine = RankBodies::from_rows(rows, ncomp);
    partition = again.seconds();
    if (k >= b.warmup) samples.push_back(std::move(s));
  }
  std::vector<Sample> by_step = samples;
  std::sort(by_step.begin(), by_step.end(), [](const Sample& a, const Sample& c) { return a.step < c.step; });
  const Sample& median = by_step[by_step.size() / 2];
  const std::vector<double> figures = gather_rank_figures(comm, median.report, median.partition);
  if (!comm.is_root()) return 0;
  const Options& o = b.options;
  out << fmt::format("FMM over {} MPI ranks, {} threads each: {} {} bodies per rank ({} in all), p {}, theta {}, "
                     "ncrit {}, {}; scattered from rank 0 in {:.3f} s\n",
                     comm.size(), core::cpu_threads(), to_string(b.distribution), b.bodies_per_rank,
                     b.bodies_per_rank * comm.size(), o.order, o.theta, o.ncrit, core::to_string(o.backend), scatter);
  out << "the median evaluation, per rank:\n";
  nlohmann::json j = print_rank_table(out, figures, comm.size());
  nlohmann::json steps = nlohmann::json::array(), imbalance = nlohmann::json::array(),
                 moved = nlohmann::json::array();
  out << "evaluation  step (s)  cost imbalance  repartitioned\n";
  for (std::size_t k = 0; k < samples.size(); ++k) {
    out << fmt::format("{:>10} {:>9.4f} {:>15.3f} {:>14}\n", k, samples[k].step, samples[k].imbalance,
                       samples[k].repartitioned ? "yes" : "no");
    steps.push_back(samples[k].step);
    imbalance.push_back(samples[k].imbalance);
    moved.push_back(samples[k].repartitioned);
  }
  out << fmt::format("median step: {:.4f} s\n", median.step);
  if (b.json.empty()) return 0;
  j["loom"] = {{"version", LOOM_VERSION}, {"git_commit", LOOM_GIT_COMMIT}};
  j["kernel"] = std::string(to_string(b.kernel));
  j["distribution"] = std::string(to_string(b.distribution));
  j["bodies_per_rank_generated"] = b.bodies_per_rank;
  j["threads_per_rank"] = core::cpu_threads();
  j["backend"] = std::string(core::to_string(o.backend));
  j["p"] = o.order;
  j["ncrit"] = o.ncrit;
  j["repartition_threshold"] = b.repartition_threshold;
  j["scatter_seconds"] = scatter;
  j["step_seconds"] = steps;
  j["step_median"] = median.step;
  j["cost_imbalance"] = imbalance;
  j["repartitioned"] = moved;
  io::write_file_atomically(b.json, j.dump(2) + "\n");
  return 0;
}

}  // namespace loom::fmm::parallel
