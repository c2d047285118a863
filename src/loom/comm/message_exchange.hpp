// An all-to-all of doubles message by message, into buffers the caller keeps across calls (issue 22: a rank's
// local essential trees, hundreds of MB a step, cost more to fault into fresh pages than to write). start() is
// collective: the counts cross (MPI_Alltoall, blocking) and every receive is posted at once into `receive`,
// which grows to the total when it is smaller and is never shrunk (a second call reuses the first one's pages).
// send(rank) posts rank's slice of the send buffer as soon as the caller has written it, so that the first
// messages travel while the later ones are written; from any one thread at a time (MPI_THREAD_SERIALIZED). With
// less thread support than that (an MPI that does not give it), send() only marks the message and finish() posts
// it from the calling thread. finish() completes every send and receive. Without MPI, or on one rank, the one
// message to itself is copied.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "loom/comm/communicator.hpp"

namespace loom::comm {

class MessageExchange {
 public:
  MessageExchange();
  ~MessageExchange();  // completes what is in flight
  MessageExchange(const MessageExchange&) = delete;
  MessageExchange& operator=(const MessageExchange&) = delete;

  // Collective. send_counts[d]: the doubles for rank d, at send[sum of the counts before d]; `send` must stay
  // valid, and each rank's slice unchanged once sent, until finish(). Any earlier exchange must be finished.
  void start(const Communicator& c, std::span<const int> send_counts, std::span<const double> send,
             std::vector<double>& receive);
  void send(int rank);
  void progress();  // lets MPI move the posted messages (MPI_Testall): call between writes
  // Every message sent and received; the received values in the senders' rank order.
  std::span<const double> finish();
  const std::vector<int>& received_counts() const { return receive_counts_; }

 private:
  struct Pending;
  std::unique_ptr<Pending> pending_;
  std::optional<Communicator> comm_;
  std::span<const double> send_;
  double* receive_ = nullptr;
  std::vector<int> send_counts_, receive_counts_, send_offsets_, receive_offsets_;
  std::vector<char> held_;  // sends marked but not posted (without MPI_THREAD_SERIALIZED)
  std::size_t received_total_ = 0;
  bool open_ = false;
};

// Whether MPI lets any one thread at a time call it (MPI_THREAD_SERIALIZED or more); true without MPI.
bool mpi_threads_serialized();

}  // namespace loom::comm
