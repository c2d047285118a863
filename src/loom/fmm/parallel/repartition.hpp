// Repartitioning between evaluations (issue 22, item 1): the bodies stay on their ranks while the costs the last
// evaluation measured (body_cost.hpp) are balanced within a threshold; past it, a new multisection weighted by
// those costs moves them, so that clustered bodies are balanced by work, not by count.
#pragma once

#include <vector>

#include "loom/comm/communicator.hpp"

namespace loom::fmm::parallel {

// Collective. rows: this rank's bodies, `width` doubles each, the position first; cost: one per row. When the
// ranks' cost imbalance exceeds `threshold`, partitions by the costs and moves rows and costs (returns true);
// `imbalance` (if given) gets the imbalance before.
bool repartition(const comm::Communicator& comm, std::vector<double>& rows, int width, std::vector<double>& cost,
                 double threshold, double* imbalance = nullptr);

}  // namespace loom::fmm::parallel
