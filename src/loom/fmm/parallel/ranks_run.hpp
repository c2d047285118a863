// `loom fmm` under `mpiexec -n N` (N > 1): rank 0 prepares the bodies (generated, or read from the CSV file) and
// scatters equal slices of them in input order, and the slices are partitioned by multisection and moved;
// the ranks' FMM (distributed.hpp) evaluates; the results are gathered to rank 0 in input order, where the run
// is checked and written as on one rank. Rank 0 also prints each rank's time split and LET sizes, and --json
// records ranks, bodies_per_rank (after partitioning), let_cells_received and let_bodies_received per rank.
// With repeat = K > 1 the bodies are evaluated K times, partitioned again by the measured costs between the
// evaluations whenever their imbalance exceeds repartition_threshold (rebalance.hpp); every evaluation's cost
// imbalance is printed, and the last evaluation's results are checked and written.
#pragma once

#include <iosfwd>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/run/config.hpp"

namespace loom::fmm::parallel {

// Collective.
int run_fmm_on_ranks(const comm::Communicator& comm, const FmmConfig& config, std::ostream& out, std::ostream& log);

}  // namespace loom::fmm::parallel
