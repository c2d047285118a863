#include "loom/comm/communicator.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "loom/core/error.hpp"

#if defined(LOOM_HAVE_MPI)
#include "loom/comm/mpi_detail.hpp"
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

using detail::check;
using detail::native;

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

void abort_job(int code) {
  if (mpi_active()) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

Session::Session(int& argc, char**& argv) {
  if (!launched_by_mpi() || mpi_active()) return;
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
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
  if (size_ > 1) check(MPI_Barrier(native(*this)), "MPI_Barrier");
}

namespace {
template <class T>
T reduce(T x, MPI_Datatype type, MPI_Op op, const Communicator& c) {
  if (c.size() == 1) return x;
  T out{};
  check(MPI_Allreduce(&x, &out, 1, type, op, native(c)), "MPI_Allreduce");
  return out;
}
}  // namespace

double Communicator::sum(double x) const { return reduce(x, MPI_DOUBLE, MPI_SUM, *this); }
double Communicator::max(double x) const { return reduce(x, MPI_DOUBLE, MPI_MAX, *this); }
double Communicator::min(double x) const { return reduce(x, MPI_DOUBLE, MPI_MIN, *this); }
std::int64_t Communicator::sum(std::int64_t x) const { return reduce(x, MPI_INT64_T, MPI_SUM, *this); }

std::vector<double> Communicator::gather(std::span<const double> local, int root) const {
  if (size_ == 1) return {local.begin(), local.end()};
  int count = static_cast<int>(local.size());
  std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
  check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root, native(*this)), "MPI_Gather");
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
                    native(*this)),
        "MPI_Gatherv");
  return out;
}

void Communicator::broadcast(std::span<double> values, int root) const {
  if (size_ == 1) return;
  check(MPI_Bcast(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, root, native(*this)), "MPI_Bcast");
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
                     tag, native(*this), MPI_STATUS_IGNORE),
        "MPI_Sendrecv");
}

void Communicator::sum_in_rank_order(std::span<double> values) const {
  if (size_ == 1 || values.empty()) return;
  const int n = static_cast<int>(values.size());
  std::vector<double> all(values.size() * static_cast<std::size_t>(size_));
  check(MPI_Allgather(values.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, native(*this)), "MPI_Allgather");
  for (std::size_t k = 0; k < values.size(); ++k) {
    double s = 0;
    for (int r = 0; r < size_; ++r) s += all[static_cast<std::size_t>(r) * values.size() + k];
    values[k] = s;
  }
}

namespace {
constexpr std::size_t piece = std::size_t{1} << 30;  // doubles per message, below MPI's int counts
}  // namespace

void Communicator::gather_into(std::span<const double> local, std::span<double> out, int root) const {
  if (size_ == 1) {
    LOOM_REQUIRE(out.size() == local.size(), "gather_into: output size differs from the total");
    std::copy(local.begin(), local.end(), out.begin());
    return;
  }
  const MPI_Comm c = native(*this);
  std::int64_t count = static_cast<std::int64_t>(local.size());
  std::vector<std::int64_t> counts(static_cast<std::size_t>(size_));
  check(MPI_Gather(&count, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, root, c), "MPI_Gather");
  if (rank_ != root) {
    for (std::size_t at = 0; at < local.size(); at += piece)
      check(MPI_Send(local.data() + at, static_cast<int>(std::min(piece, local.size() - at)), MPI_DOUBLE, root, 7, c),
            "MPI_Send");
    return;
  }
  std::int64_t total = 0;
  for (auto n : counts) total += n;
  LOOM_REQUIRE(out.size() == static_cast<std::size_t>(total), "gather_into: output size differs from the total");
  std::size_t offset = 0;
  for (int r = 0; r < size_; ++r) {
    const auto n = static_cast<std::size_t>(counts[static_cast<std::size_t>(r)]);
    if (r == root) {
      std::copy(local.begin(), local.end(), out.begin() + static_cast<std::ptrdiff_t>(offset));
    } else {
      for (std::size_t at = 0; at < n; at += piece)
        check(MPI_Recv(out.data() + offset + at, static_cast<int>(std::min(piece, n - at)), MPI_DOUBLE, r, 7, c,
                       MPI_STATUS_IGNORE),
              "MPI_Recv");
    }
    offset += n;
  }
}

Communicator Communicator::split(int color) const {
  LOOM_REQUIRE(color >= 0, "Communicator::split: color must be >= 0");
  if (size_ == 1) return *this;
  auto handle = std::make_shared<CommHandle>();
  check(MPI_Comm_split(native(*this), color, rank_, &handle->comm), "MPI_Comm_split");
  int rank = 0, size = 1;
  MPI_Comm_rank(handle->comm, &rank);
  MPI_Comm_size(handle->comm, &size);
  return {rank, size, std::move(handle)};
}

int Communicator::local_rank() const {
  if (size_ == 1) return 0;
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(native(*this), MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int rank = 0;
  MPI_Comm_rank(node, &rank);
  MPI_Comm_free(&node);
  return rank;
}

#else  // no MPI in this build: one rank

bool mpi_built() { return false; }
bool mpi_active() { return false; }
void abort_job(int code) { std::exit(code); }
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
void Communicator::sum_in_rank_order(std::span<double>) const {}
void Communicator::gather_into(std::span<const double> local, std::span<double> out, int) const {
  LOOM_REQUIRE(out.size() == local.size(), "gather_into: output size differs from the total");
  std::copy(local.begin(), local.end(), out.begin());
}
Communicator Communicator::split(int) const { return *this; }
int Communicator::local_rank() const { return 0; }

#endif

}  // namespace loom::comm
