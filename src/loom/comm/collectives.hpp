// Collectives over vectors for codes that exchange irregular data (the FMM's partitioning and local essential
// trees): element-wise reductions, an all-gather of variable-length pieces and an all-to-all of variable-length
// pieces, blocking or in flight while the caller works. Without MPI (or on one rank) each is the identity.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "loom/comm/communicator.hpp"

namespace loom::comm {

enum class Reduce { sum, min, max };
// values[k] <- the reduction of values[k] over the ranks (MPI_Allreduce), on every rank.
void all_reduce(const Communicator& c, std::span<double> values, Reduce op);

// Every rank's `local` concatenated in rank order, on every rank (MPI_Allgatherv).
std::vector<double> all_gather(const Communicator& c, std::span<const double> local);

// An all-to-all of doubles: rank r sends send_counts[d] values (taken from `send` in rank order) to each rank d.
// The counts cross first (one int per pair, blocking); the values are then in flight (MPI_Ialltoallv) until
// wait(), so the caller can work meanwhile. Counts are MPI ints: each rank sends and receives < 2^31 values.
class AllToAll {
 public:
  AllToAll(const Communicator& c, std::vector<double> send, std::vector<int> send_counts);
  ~AllToAll();
  AllToAll(const AllToAll&) = delete;
  AllToAll& operator=(const AllToAll&) = delete;
  // The received values, in the senders' rank order (blocks until they are all here).
  std::vector<double>& wait();
  const std::vector<int>& received_counts() const { return receive_counts_; }

 private:
  struct Pending;
  std::vector<double> send_, receive_;
  std::vector<int> send_counts_, receive_counts_, send_offsets_, receive_offsets_;
  std::unique_ptr<Pending> pending_;
};

}  // namespace loom::comm
