// Repeated evaluations over ranks with the cost-weighted repartitioning between them (issue 22, item 1), as
// `loom bench fmm --ranks_bodies` and `loom fmm --repeat K` under mpiexec run them: each evaluation measures
// every body's cost (body_cost.hpp); when the ranks' cost imbalance exceeds the threshold, the bodies are
// partitioned again by those costs and moved (repartition.hpp), so that the next evaluation is balanced by work.
#pragma once

#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/parallel/distributed.hpp"
#include "loom/fmm/parallel/rank_bodies.hpp"

namespace loom::fmm::parallel {

struct Step {
  double seconds = 0;     // the slowest rank's wall time of the evaluation
  double imbalance = 1;   // the cost imbalance the evaluation measured
  bool repartitioned = false;
  double repartition_seconds = 0;  // this rank's repartitioning after the evaluation
  RankReport report;
};

// Evaluates this rank's bodies with the distributed FMM (its report and costs filled in).
using Evaluate = std::function<void(const RankBodies&, RankReport&, BodyCost&)>;

// Collective: one evaluation of `mine` (costs at `rates`; zero: measured), then the repartitioning when the
// imbalance exceeds `threshold` (mine is replaced by the moved bodies).
Step rebalanced_step(const comm::Communicator& comm, RankBodies& mine, double threshold, const CostRates& rates,
                     const Evaluate& evaluate);

// The distributed FMM of `mine` (Laplace for one strength per body, Biot-Savart for three), on `fmm`'s kept
// buffers.
void evaluate_bodies(RankFmm& fmm, const Options& o, const RankBodies& mine, RankReport& report, BodyCost& cost);

// On rank 0: one line per step (step time, cost imbalance, repartitioned); returns them as JSON arrays
// step_seconds, cost_imbalance, repartitioned.
nlohmann::json print_steps(std::ostream& out, const std::vector<Step>& steps);

}  // namespace loom::fmm::parallel
