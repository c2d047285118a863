// `loom bench fmm --ranks_bodies M` (issue 22, items 4 and 5 on real ranks): the FMM over the MPI ranks at M
// bodies per rank (weak scaling: the whole set grows with the ranks), generated on rank 0 only and scattered
// from there, partitioned by multisection; then warmup + repeats evaluations, each measuring every body's cost
// (body_cost.hpp) and followed by a repartitioning by those costs when their imbalance exceeds the threshold
// (repartition.hpp). Rank 0 prints every rank's time split of the median evaluation (by step time: the slowest
// rank's wall time of the evaluation) and the step times; --json records them.
#pragma once

#include <iosfwd>
#include <string>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/fmm.hpp"

namespace loom::fmm::parallel {

struct RanksBench {
  Kernel kernel = Kernel::laplace;
  Options options;
  Distribution distribution = Distribution::cube;
  Index bodies_per_rank = 0;
  int warmup = 1, repeats = 3;
  double repartition_threshold = 1.1;
  std::string json;  // empty: none
};

// Collective. Returns 0.
int run_bench_on_ranks(const comm::Communicator& comm, const RanksBench& bench, std::ostream& out);

}  // namespace loom::fmm::parallel
