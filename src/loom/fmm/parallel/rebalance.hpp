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

// Evaluates this rank's bodies with the distributed FMM (its report filled in, and the costs when not null).
using Evaluate = std::function<void(const RankBodies&, RankReport&, BodyCost*)>;

// Collective: one evaluation of `mine` (costs at `rates`; zero: measured), then the repartitioning when the
// imbalance exceeds `threshold` (mine is replaced by the moved bodies). On one rank there is nothing to balance:
// no costs are measured, nothing is partitioned (imbalance 1).
Step rebalanced_step(const comm::Communicator& comm, RankBodies& mine, double threshold, const CostRates& rates,
                     const Evaluate& evaluate);

// The results of the ranks' evaluations, kept by the caller from one to the next (RankFmm's kept results).
struct RankResults {
  LaplaceResult laplace;
  BiotSavartResult biot_savart;
};

// The distributed FMM of `mine` (Laplace for one strength per body, Biot-Savart for three), on `fmm`'s kept
// buffers, into `results`; the costs when `cost` is not null.
void evaluate_bodies(RankFmm& fmm, const Options& o, const RankBodies& mine, RankResults& results,
                     RankReport& report, BodyCost* cost);

// On rank 0: one line per step (step time, cost imbalance, repartitioned); returns them as JSON arrays
// step_seconds, cost_imbalance, repartitioned.
nlohmann::json print_steps(std::ostream& out, const std::vector<Step>& steps);

}  // namespace loom::fmm::parallel
