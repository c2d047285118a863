// A rank's LETs written on a thread of their own while its local FMM runs (issue 22, item 2: the paper's
// communication hidden behind the local work). Started once the LETs are planned (before the local FMM), the
// writer writes every message but its multipoles into the rank's kept send buffer (let.hpp LetPart: the cells'
// centres, radii and counts, and the bodies: most of the bytes need no multipole); once the upward pass hands it
// the multipoles (multipoles_ready, from the evaluation's thread) it fills them in, message by message, and posts
// each receiver's message (comm::MessageExchange::send) as soon as the last of that receiver's messages (27 per
// receiver with periodic images) is complete, so that the first messages travel while the later ones are
// written. The evaluation's thread makes no MPI call from multipoles_ready until join() (MPI_THREAD_SERIALIZED).
// `threads` OpenMP threads write (over the messages): on the GPU backend the host is idle while the device runs
// the local FMM, on the CPU backend the writer takes cores from it (distributed.cpp chooses).
#pragma once

#include <condition_variable>
#include <exception>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "loom/comm/message_exchange.hpp"
#include "loom/fmm/parallel/let_batch.hpp"

namespace loom::fmm::parallel {

class LetWriter {
 public:
  // source: the tree, strengths, sigmas (its multipoles come with multipoles_ready); the messages planned, in
  // the exchange's rank order, at `offsets` (message_offsets) in `buffer`. All must outlive join().
  LetWriter(const LetSource& source, const std::vector<LetMessage>& messages, std::span<const std::size_t> offsets,
            double* buffer, comm::MessageExchange& exchange, int threads);
  ~LetWriter();  // a writer never handed its multipoles (the evaluation failed) is let go and joined
  LetWriter(const LetWriter&) = delete;
  LetWriter& operator=(const LetWriter&) = delete;

  // Every sent cell's multipoles: cell c's at multipoles[slot[c] * per_cell] (slot null: at c * per_cell).
  void multipoles_ready(const detail::C* multipoles, const int* slot);
  // Waits for the writer (rethrows its failure); returns the seconds waited.
  double join();
  // Lets a writer never handed its multipoles go and waits for it, its failure dropped (the evaluation ended
  // early: an exception); nothing once joined.
  void abandon() noexcept;
  // The writer's own seconds (both parts, not its wait for the multipoles).
  double busy_seconds() const { return busy_; }

 private:
  void write();
  void fill_and_send();

  LetSource source_;
  const std::vector<LetMessage>& messages_;
  std::span<const std::size_t> offsets_;
  double* buffer_;
  comm::MessageExchange& exchange_;
  int threads_;
  std::mutex mutex_;
  std::condition_variable ready_;
  bool handed_ = false, cancelled_ = false;
  double busy_ = 0;
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace loom::fmm::parallel
