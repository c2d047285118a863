#include "loom/comm/collectives.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

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

struct AllToAll::Pending {
  MPI_Request request = MPI_REQUEST_NULL;
};

void all_reduce(const Communicator& c, std::span<double> values, Reduce op) {
  if (c.size() == 1 || values.empty()) return;
  const MPI_Op mpi_op = op == Reduce::sum ? MPI_SUM : (op == Reduce::min ? MPI_MIN : MPI_MAX);
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, mpi_op, native(c)),
        "MPI_Allreduce");
}

std::vector<double> all_gather(const Communicator& c, std::span<const double> local) {
  if (c.size() == 1) return {local.begin(), local.end()};
  int count = static_cast<int>(local.size());
  std::vector<int> counts(static_cast<std::size_t>(c.size()));
  check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, native(c)), "MPI_Allgather");
  const std::vector<int> offsets = offsets_of(counts);
  std::vector<double> out(static_cast<std::size_t>(offsets.back() + counts.back()));
  check(MPI_Allgatherv(local.data(), count, MPI_DOUBLE, out.data(), counts.data(), offsets.data(), MPI_DOUBLE,
                       native(c)),
        "MPI_Allgatherv");
  return out;
}

AllToAll::AllToAll(const Communicator& c, std::vector<double> send, std::vector<int> send_counts)
    : send_(std::move(send)), send_counts_(std::move(send_counts)), pending_(std::make_unique<Pending>()) {
  const auto size = static_cast<std::size_t>(c.size());
  LOOM_REQUIRE(send_counts_.size() == size, "comm::AllToAll: one count per rank");
  send_offsets_ = offsets_of(send_counts_);
  receive_counts_.assign(size, 0);
  if (size == 1) {
    receive_counts_ = send_counts_;
    receive_offsets_ = send_offsets_;
    receive_ = send_;
    return;
  }
  check(MPI_Alltoall(send_counts_.data(), 1, MPI_INT, receive_counts_.data(), 1, MPI_INT, native(c)), "MPI_Alltoall");
  receive_offsets_ = offsets_of(receive_counts_);
  receive_.resize(static_cast<std::size_t>(receive_offsets_.back() + receive_counts_.back()));
  check(MPI_Ialltoallv(send_.data(), send_counts_.data(), send_offsets_.data(), MPI_DOUBLE, receive_.data(),
                       receive_counts_.data(), receive_offsets_.data(), MPI_DOUBLE, native(c), &pending_->request),
        "MPI_Ialltoallv");
}

AllToAll::~AllToAll() {
  if (pending_ && pending_->request != MPI_REQUEST_NULL) MPI_Wait(&pending_->request, MPI_STATUS_IGNORE);
}

std::vector<double>& AllToAll::wait() {
  if (pending_->request != MPI_REQUEST_NULL) check(MPI_Wait(&pending_->request, MPI_STATUS_IGNORE), "MPI_Wait");
  return receive_;
}

#else  // one rank

struct AllToAll::Pending {};

void all_reduce(const Communicator&, std::span<double>, Reduce) {}
std::vector<double> all_gather(const Communicator&, std::span<const double> local) {
  return {local.begin(), local.end()};
}
AllToAll::AllToAll(const Communicator&, std::vector<double> send, std::vector<int> send_counts)
    : send_(std::move(send)), send_counts_(std::move(send_counts)), pending_(std::make_unique<Pending>()) {
  LOOM_REQUIRE(send_counts_.size() == 1, "comm::AllToAll: one count per rank");
  send_offsets_ = offsets_of(send_counts_);
  receive_counts_ = send_counts_;
  receive_offsets_ = send_offsets_;
  receive_ = send_;
}
AllToAll::~AllToAll() = default;
std::vector<double>& AllToAll::wait() { return receive_; }

#endif

}  // namespace loom::comm
