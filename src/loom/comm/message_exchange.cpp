#include "loom/comm/message_exchange.hpp"

#include <algorithm>
#include <limits>

#include "loom/comm/offsets.hpp"
#include "loom/core/error.hpp"

#if defined(LOOM_HAVE_MPI)
#include "loom/comm/mpi_detail.hpp"
#endif

namespace loom::comm {
using detail::offsets_of;

#if defined(LOOM_HAVE_MPI)

using detail::check;
using detail::native;

struct MessageExchange::Pending {
  std::vector<MPI_Request> requests;  // the receives first, then the sends as they are posted
};

bool mpi_threads_serialized() {
  if (!mpi_active()) return true;
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  return level >= MPI_THREAD_SERIALIZED;
}

#else

struct MessageExchange::Pending {};
bool mpi_threads_serialized() { return true; }

#endif

MessageExchange::MessageExchange() : pending_(std::make_unique<Pending>()) {}

MessageExchange::~MessageExchange() {
  if (!open_) return;
  try {
    finish();
  } catch (...) {  // a destructor during unwinding: the job is failing anyway
  }
}

void MessageExchange::start(const Communicator& c, std::span<const int> send_counts, std::span<const double> send,
                            std::vector<double>& receive) {
  LOOM_REQUIRE(!open_, "comm::MessageExchange: start() before the last exchange finished");
  const auto size = static_cast<std::size_t>(c.size());
  LOOM_REQUIRE(send_counts.size() == size, "comm::MessageExchange: one count per rank");
  comm_.emplace(c);
  send_counts_.assign(send_counts.begin(), send_counts.end());
  send_offsets_ = offsets_of(send_counts_);
  LOOM_REQUIRE(send.size() >= static_cast<std::size_t>(send_offsets_.back() + send_counts_.back()),
               "comm::MessageExchange: the send buffer is shorter than its counts");
  send_ = send;
  receive_counts_ = send_counts_;  // one rank: its message to itself
#if defined(LOOM_HAVE_MPI)
  if (size > 1)
    check(MPI_Alltoall(send_counts_.data(), 1, MPI_INT, receive_counts_.data(), 1, MPI_INT, native(c)),
          "MPI_Alltoall");
#endif
  receive_offsets_ = offsets_of(receive_counts_);
  received_total_ = static_cast<std::size_t>(receive_offsets_.back() + receive_counts_.back());
  if (receive.size() < received_total_) receive.resize(received_total_);  // grown, never shrunk
  receive_ = receive.data();
  held_.assign(size, 0);
  open_ = true;
#if defined(LOOM_HAVE_MPI)
  pending_->requests.clear();
  if (size == 1) return;
  for (std::size_t r = 0; r < size; ++r) {
    if (receive_counts_[r] == 0 || static_cast<int>(r) == c.rank()) continue;
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Irecv(receive_ + receive_offsets_[r], receive_counts_[r], MPI_DOUBLE, static_cast<int>(r), 0,
                    native(c), &request),
          "MPI_Irecv");
    pending_->requests.push_back(request);
  }
#endif
}

void MessageExchange::send(int rank) {
  LOOM_REQUIRE(open_ && rank >= 0 && rank < comm_->size(), "comm::MessageExchange: send() outside an exchange");
  const auto r = static_cast<std::size_t>(rank);
  if (rank == comm_->rank()) {  // to itself: copied
    std::copy_n(send_.data() + send_offsets_[r], send_counts_[r], receive_ + receive_offsets_[r]);
    return;
  }
#if defined(LOOM_HAVE_MPI)
  if (send_counts_[r] == 0) return;
  if (!mpi_threads_serialized()) {
    held_[r] = 1;
    return;
  }
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Isend(send_.data() + send_offsets_[r], send_counts_[r], MPI_DOUBLE, rank, 0, native(*comm_), &request),
        "MPI_Isend");
  pending_->requests.push_back(request);
#endif
}

void MessageExchange::progress() {
#if defined(LOOM_HAVE_MPI)
  if (!open_ || pending_->requests.empty() || !mpi_threads_serialized()) return;
  int done = 0;
  check(MPI_Testall(static_cast<int>(pending_->requests.size()), pending_->requests.data(), &done,
                    MPI_STATUSES_IGNORE),
        "MPI_Testall");
#endif
}

std::span<const double> MessageExchange::finish() {
  LOOM_REQUIRE(open_, "comm::MessageExchange: finish() without start()");
  open_ = false;
#if defined(LOOM_HAVE_MPI)
  for (std::size_t r = 0; r < held_.size(); ++r) {
    if (!held_[r]) continue;
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Isend(send_.data() + send_offsets_[r], send_counts_[r], MPI_DOUBLE, static_cast<int>(r), 0,
                    native(*comm_), &request),
          "MPI_Isend");
    pending_->requests.push_back(request);
  }
  if (!pending_->requests.empty())
    check(MPI_Waitall(static_cast<int>(pending_->requests.size()), pending_->requests.data(), MPI_STATUSES_IGNORE),
          "MPI_Waitall");
  pending_->requests.clear();
#endif
  return {receive_, received_total_};
}

}  // namespace loom::comm
