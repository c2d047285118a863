// Moving bodies to the ranks of their parts after partitioning (MPI_Alltoallv): each body a row of `width`
// doubles (position, strengths, core radius, its index in the input, ...), whatever the caller packs.
#pragma once

#include <span>
#include <vector>

#include "loom/comm/communicator.hpp"

namespace loom::fmm::parallel {

// Row i goes to rank part[i]; returns the rows this rank receives, senders in rank order, each sender's rows in
// its order.
std::vector<double> exchange_rows(const comm::Communicator& comm, std::span<const double> rows, int width,
                                  std::span<const int> part);

}  // namespace loom::fmm::parallel
