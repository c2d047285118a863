// Every rank's time split and LET sizes on rank 0 (issue 22, item 4), printed as a table and as JSON: ranks,
// bodies_per_rank (after partitioning), let_cells_received, let_bodies_received, seconds_per_rank.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <vector>

#include "loom/comm/communicator.hpp"
#include "loom/fmm/parallel/distributed.hpp"

namespace loom::fmm::parallel {

// Collective: each rank's figures (its report and its partitioning seconds), gathered on rank 0 (empty
// elsewhere).
std::vector<double> gather_rank_figures(const comm::Communicator& comm, const RankReport& r, double partition);

// On rank 0: the table on `out`; returns the JSON.
nlohmann::json print_rank_table(std::ostream& out, const std::vector<double>& figures, int ranks);

}  // namespace loom::fmm::parallel
