#include "loom/fmm/parallel/ranks_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>

#include "loom/core/backend.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/parallel/rank_bodies.hpp"
#include "loom/fmm/parallel/rank_table.hpp"
#include "loom/fmm/parallel/rebalance.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/build_identity.hpp"

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

}  // namespace

int run_bench_on_ranks(const comm::Communicator& comm, const RanksBench& b, std::ostream& out) {
  const int ncomp = b.kernel == Kernel::laplace ? 1 : 3;
  core::WallTimer scatter_timer;
  RankBodies mine = scatter_from_root(comm, generate_on_root(comm, b, ncomp));
  const double scatter = comm.max(scatter_timer.seconds());
  core::WallTimer partition_timer;
  if (comm.size() > 1) mine = partition_and_move(comm, mine);  // one rank: nothing to split
  double partition = partition_timer.seconds();
  std::vector<Step> samples;
  RankFmm fmm(comm);  // its buffers and the results kept from one evaluation to the next, as a time stepper's
  RankResults results;
  const Evaluate evaluate = [&](const RankBodies& bodies, RankReport& report, BodyCost* cost) {
    evaluate_bodies(fmm, b.options, bodies, results, report, cost);
  };
  for (int k = 0; k < b.warmup + b.repeats; ++k) {
    Step s = rebalanced_step(comm, mine, b.repartition_threshold, {}, evaluate);
    std::swap(s.repartition_seconds, partition);  // the partitioning before this evaluation is reported with it
    if (k >= b.warmup) samples.push_back(std::move(s));
  }
  std::vector<Step> by_step = samples;
  std::sort(by_step.begin(), by_step.end(), [](const Step& a, const Step& c) { return a.seconds < c.seconds; });
  const Step& median = by_step[by_step.size() / 2];
  const std::vector<double> figures = gather_rank_figures(comm, median.report, median.repartition_seconds);
  if (!comm.is_root()) return 0;
  const Options& o = b.options;
  out << fmt::format("FMM over {} MPI ranks, {} threads each: {} {} bodies per rank ({} in all), p {}, theta {}, "
                     "ncrit {}, {}, tree built on the {}; scattered from rank 0 in {:.3f} s\n",
                     comm.size(), core::cpu_threads(), to_string(b.distribution), b.bodies_per_rank,
                     b.bodies_per_rank * comm.size(), o.order, o.theta, o.ncrit, core::to_string(o.backend),
                     o.tree_on_backend ? "backend" : "host", scatter);
  out << "the median evaluation, per rank:\n";
  nlohmann::json j = print_rank_table(out, figures, comm.size());
  j.update(print_steps(out, samples));
  out << fmt::format("median step: {:.4f} s\n", median.seconds);
  if (b.json.empty()) return 0;
  j["loom"] = loom::io::build_identity();
  j["kernel"] = std::string(to_string(b.kernel));
  j["distribution"] = std::string(to_string(b.distribution));
  j["bodies_per_rank_generated"] = b.bodies_per_rank;
  j["threads_per_rank"] = core::cpu_threads();
  j["backend"] = std::string(core::to_string(o.backend));
  j["p"] = o.order;
  j["ncrit"] = o.ncrit;
  j["theta"] = o.theta;
  j["tree"] = o.tree_on_backend ? "backend" : "host";
  j["repartition_threshold"] = b.repartition_threshold;
  j["scatter_seconds"] = scatter;
  j["step_median"] = median.seconds;
  io::write_file_atomically(b.json, j.dump(2) + "\n");
  return 0;
}

}  // namespace loom::fmm::parallel
