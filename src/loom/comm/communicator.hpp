// Ranks and collectives. MPI is initialised only when the process was started by an MPI launcher (mpiexec
// sets OMPI_COMM_WORLD_SIZE / PMI_SIZE / PMIX_RANK), so serial runs never pay MPI's start-up or need a
// launcher. Without MPI (not built, or not launched) the world is one rank and every collective is the identity.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace loom::comm {

bool mpi_built();
bool mpi_active();             // MPI_Init has run in this process
std::string mpi_library_version();  // "" without MPI

// Ends every rank of the job with `code` (MPI_Abort): for a failure on some ranks only, which would leave the
// others waiting in a collective. Without MPI, std::exit(code).
[[noreturn]] void abort_job(int code);

// One per process, in main(): initialises MPI when launched under mpiexec, finalises it at scope exit.
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  bool owns_ = false;
};

struct CommHandle;  // the MPI communicator of a split (defined in mpi_detail.hpp); none: MPI_COMM_WORLD

class Communicator {
 public:
  static Communicator world();
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool is_root() const { return rank_ == 0; }

  void barrier() const;
  double sum(double x) const;
  double max(double x) const;
  double min(double x) const;
  std::int64_t sum(std::int64_t x) const;
  // Concatenates every rank's values on `root` in rank order (sizes may differ); other ranks get {}.
  std::vector<double> gather(std::span<const double> local, int root = 0) const;
  void broadcast(std::span<double> values, int root = 0) const;
  // Sends `send` to rank `dest` and receives `receive` from rank `source` (either may be -1: none).
  void send_receive(std::span<const std::byte> send, int dest, std::span<std::byte> receive, int source,
                    int tag = 0) const;

  // Element-wise sums over ranks, added in rank order on every rank: the same bits on every rank and in every
  // run with this many ranks (MPI_Allreduce may add in any order).
  void sum_in_rank_order(std::span<double> values) const;
  // Every rank's `local` concatenated in rank order into `out` on `root` (out.size() = the total there; other
  // ranks pass {}). Point-to-point in pieces below 2^31 elements, so fields of any size can be gathered.
  void gather_into(std::span<const double> local, std::span<double> out, int root = 0) const;
  // The ranks calling with the same `color` (>= 0) as a communicator of their own, ranks ordered as here;
  // collective over this communicator. Benchmarks time 1..N ranks inside one job this way.
  Communicator split(int color) const;
  // This rank's index among the ranks of its node (MPI_COMM_TYPE_SHARED): picks its GPU.
  int local_rank() const;

  const CommHandle* native_handle() const { return handle_.get(); }

 private:
  Communicator(int rank, int size, std::shared_ptr<const CommHandle> handle = {})
      : rank_(rank), size_(size), handle_(std::move(handle)) {}
  int rank_ = 0, size_ = 1;
  std::shared_ptr<const CommHandle> handle_;
};

}  // namespace loom::comm
