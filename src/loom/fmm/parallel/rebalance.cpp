#include "loom/fmm/parallel/rebalance.hpp"

#include <fmt/format.h>

#include <ostream>

#include "loom/core/timer.hpp"
#include "loom/fmm/parallel/repartition.hpp"

namespace loom::fmm::parallel {

Step rebalanced_step(const comm::Communicator& comm, RankBodies& mine, double threshold, const CostRates& rates,
                     const Evaluate& evaluate) {
  Step s;
  BodyCost cost{rates, {}};
  comm.barrier();
  core::WallTimer step;
  evaluate(mine, s.report, cost);
  s.seconds = comm.max(step.seconds());
  core::WallTimer again;
  std::vector<double> rows = mine.rows();
  s.repartitioned = repartition(comm, rows, mine.width(), cost.seconds, threshold, &s.imbalance);
  if (s.repartitioned) mine = RankBodies::from_rows(rows, mine.ncomp);
  s.repartition_seconds = again.seconds();
  return s;
}

void evaluate_bodies(RankFmm& fmm, const Options& o, const RankBodies& mine, RankReport& report, BodyCost& cost) {
  if (mine.ncomp == 1) {
    fmm.laplace(o, mine.x, mine.strength, &report, &cost);
    return;
  }
  std::vector<Vec3d> alpha;
  alpha.reserve(mine.x.size());  // one allocation: 400 MB at the paper's load
  for (std::size_t i = 0; i < mine.x.size(); ++i)
    alpha.push_back({mine.strength[3 * i], mine.strength[3 * i + 1], mine.strength[3 * i + 2]});
  fmm.biot_savart(o, mine.x, alpha, mine.sigma, &report, &cost);
}

nlohmann::json print_steps(std::ostream& out, const std::vector<Step>& steps) {
  nlohmann::json j{{"step_seconds", nlohmann::json::array()}, {"cost_imbalance", nlohmann::json::array()},
                   {"repartitioned", nlohmann::json::array()}};
  out << "evaluation  step (s)  cost imbalance  repartitioned\n";
  for (std::size_t k = 0; k < steps.size(); ++k) {
    out << fmt::format("{:>10} {:>9.4f} {:>15.3f} {:>14}\n", k, steps[k].seconds, steps[k].imbalance,
                       steps[k].repartitioned ? "yes" : "no");
    j["step_seconds"].push_back(steps[k].seconds);
    j["cost_imbalance"].push_back(steps[k].imbalance);
    j["repartitioned"].push_back(steps[k].repartitioned);
  }
  return j;
}

}  // namespace loom::fmm::parallel
