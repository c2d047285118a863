#include "loom/fmm/parallel/rebalance.hpp"

#include <fmt/format.h>

#include <ostream>
#include <type_traits>

#include "loom/core/timer.hpp"
#include "loom/fmm/parallel/body_cost.hpp"
#include "loom/fmm/parallel/repartition.hpp"

namespace loom::fmm::parallel {

Step rebalanced_step(const comm::Communicator& comm, RankBodies& mine, double threshold, const CostRates& rates,
                     const Evaluate& evaluate) {
  Step s;
  const bool balance = comm.size() > 1;
  BodyCost cost{rates, {}};
  comm.barrier();
  core::WallTimer step;
  evaluate(mine, s.report, balance ? &cost : nullptr);
  s.seconds = comm.max(step.seconds());
  if (!balance) return s;
  core::WallTimer again;
  // the rows (7 doubles a body: 0.9 GB at 1.68e7 Biot-Savart bodies) only when the bodies move
  s.imbalance = cost_imbalance(comm, cost.seconds);
  if (s.imbalance > threshold) {
    std::vector<double> rows = mine.rows();
    s.repartitioned = repartition(comm, rows, mine.width(), cost.seconds, threshold);
    if (s.repartitioned) mine = RankBodies::from_rows(rows, mine.ncomp);
  }
  s.repartition_seconds = again.seconds();
  return s;
}

static_assert(sizeof(Vec3d) == 3 * sizeof(double) && std::is_standard_layout_v<Vec3d>,
              "three strengths a body are one Vec3d");

void evaluate_bodies(RankFmm& fmm, const Options& o, const RankBodies& mine, RankResults& results,
                     RankReport& report, BodyCost* cost) {
  if (mine.ncomp == 1) {
    fmm.laplace(o, mine.x, mine.strength, results.laplace, &report, cost);
    return;
  }
  // the strengths' three doubles a body read in place as Vec3d (was a copy: 400 MB at the paper's load)
  const std::span<const Vec3d> alpha(reinterpret_cast<const Vec3d*>(mine.strength.data()), mine.x.size());
  fmm.biot_savart(o, mine.x, alpha, mine.sigma, results.biot_savart, &report, cost);
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
