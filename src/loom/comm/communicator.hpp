// Ranks and collectives. MPI is initialised only when the process was started by an MPI launcher (mpiexec
// sets OMPI_COMM_WORLD_SIZE / PMI_SIZE / PMIX_RANK), so serial runs never pay MPI's start-up or need a
// launcher. Without MPI (not built, or not launched) the world is one rank and every collective is the identity.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace loom::comm {

bool mpi_built();
bool mpi_active();             // MPI_Init has run in this process
std::string mpi_library_version();  // "" without MPI

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

 private:
  Communicator(int rank, int size) : rank_(rank), size_(size) {}
  int rank_ = 0, size_ = 1;
};

}  // namespace loom::comm
