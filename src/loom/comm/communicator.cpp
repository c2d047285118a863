#include "loom/comm/communicator.hpp"

#include <cstdlib>
#include <cstring>

#include "loom/core/error.hpp"

#if defined(LOOM_HAVE_MPI)
#include <mpi.h>
#endif

namespace loom::comm {
namespace {
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}
}  // namespace

#if defined(LOOM_HAVE_MPI)

namespace {
void check(int code, const char* call) {
  if (code != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw Error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
  }
}
}  // namespace

bool mpi_built() { return true; }
bool mpi_active() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}
std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string s(text, static_cast<std::size_t>(length));
  if (auto nl = s.find_first_of("\n,"); nl != std::string::npos) s.resize(nl);
  return s;
}

Session::Session(int& argc, char**& argv) {
  if (!launched_by_mpi() || mpi_active()) return;
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  owns_ = true;
}
Session::~Session() {
  if (owns_ && mpi_active()) MPI_Finalize();
}

Communicator Communicator::world() {
  if (!mpi_active()) return {0, 1};
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return {rank, size};
}

void Communicator::barrier() const {
  if (size_ > 1) check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

namespace {
template <class T>
T reduce(T x, MPI_Datatype type, MPI_Op op, int size) {
  if (size == 1) return x;
  T out{};
  check(MPI_Allreduce(&x, &out, 1, type, op, MPI_COMM_WORLD), "MPI_Allreduce");
  return out;
}
}  // namespace

double Communicator::sum(double x) const { return reduce(x, MPI_DOUBLE, MPI_SUM, size_); }
double Communicator::max(double x) const { return reduce(x, MPI_DOUBLE, MPI_MAX, size_); }
double Communicator::min(double x) const { return reduce(x, MPI_DOUBLE, MPI_MIN, size_); }
std::int64_t Communicator::sum(std::int64_t x) const { return reduce(x, MPI_INT64_T, MPI_SUM, size_); }

std::vector<double> Communicator::gather(std::span<const double> local, int root) const {
  if (size_ == 1) return {local.begin(), local.end()};
  int count = static_cast<int>(local.size());
  std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
  check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Gather");
  std::vector<double> out;
  if (rank_ == root) {
    int total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[static_cast<std::size_t>(r)] = total;
      total += counts[static_cast<std::size_t>(r)];
    }
    out.resize(static_cast<std::size_t>(total));
  }
  check(MPI_Gatherv(local.data(), count, MPI_DOUBLE, out.data(), counts.data(), offsets.data(), MPI_DOUBLE, root,
                    MPI_COMM_WORLD),
        "MPI_Gatherv");
  return out;
}

void Communicator::broadcast(std::span<double> values, int root) const {
  if (size_ == 1) return;
  check(MPI_Bcast(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, root, MPI_COMM_WORLD), "MPI_Bcast");
}

void Communicator::send_receive(std::span<const std::byte> send, int dest, std::span<std::byte> receive, int source,
                                int tag) const {
  if (size_ == 1) {
    LOOM_REQUIRE(dest <= 0 && source <= 0, "send_receive: rank out of range");
    if (dest == 0 && source == 0) std::memcpy(receive.data(), send.data(), std::min(send.size(), receive.size()));
    return;
  }
  check(MPI_Sendrecv(send.data(), static_cast<int>(send.size()), MPI_BYTE, dest < 0 ? MPI_PROC_NULL : dest, tag,
                     receive.data(), static_cast<int>(receive.size()), MPI_BYTE, source < 0 ? MPI_PROC_NULL : source,
                     tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "MPI_Sendrecv");
}

#else  // no MPI in this build: one rank

bool mpi_built() { return false; }
bool mpi_active() { return false; }
std::string mpi_library_version() { return ""; }
Session::Session(int&, char**&) {
  if (launched_by_mpi() && std::getenv("OMPI_COMM_WORLD_SIZE") && std::string(std::getenv("OMPI_COMM_WORLD_SIZE")) != "1")
    throw Error("started by mpiexec with several ranks, but this loom was built without MPI");
}
Session::~Session() = default;
Communicator Communicator::world() { return {0, 1}; }
void Communicator::barrier() const {}
double Communicator::sum(double x) const { return x; }
double Communicator::max(double x) const { return x; }
double Communicator::min(double x) const { return x; }
std::int64_t Communicator::sum(std::int64_t x) const { return x; }
std::vector<double> Communicator::gather(std::span<const double> local, int) const { return {local.begin(), local.end()}; }
void Communicator::broadcast(std::span<double>, int) const {}
void Communicator::send_receive(std::span<const std::byte> send, int dest, std::span<std::byte> receive, int source,
                                int) const {
  LOOM_REQUIRE(dest <= 0 && source <= 0, "send_receive: rank out of range");
  if (dest == 0 && source == 0) std::memcpy(receive.data(), send.data(), std::min(send.size(), receive.size()));
}

#endif

}  // namespace loom::comm
