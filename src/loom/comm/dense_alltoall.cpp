#include "loom/comm/dense_alltoall.hpp"

#include <cstring>
#include <limits>

#include "loom/core/error.hpp"

#if defined(LOOM_HAVE_MPI)
#include "loom/comm/mpi_detail.hpp"
#endif

namespace loom::comm {
#if defined(LOOM_HAVE_MPI)

void all_to_all(const Communicator& comm, const void* send, void* receive, std::size_t block_bytes) {
  LOOM_REQUIRE(block_bytes % 16 == 0, "comm::all_to_all: blocks of 16-byte values expected");
  if (comm.size() == 1) {
    std::memcpy(receive, send, block_bytes);
    return;
  }
  const std::size_t values = block_bytes / 16;
  LOOM_REQUIRE(values < std::size_t(std::numeric_limits<int>::max()), "comm::all_to_all: a block of 2^31 values");
  MPI_Datatype value = MPI_DATATYPE_NULL;
  detail::check(MPI_Type_contiguous(16, MPI_BYTE, &value), "MPI_Type_contiguous");
  detail::check(MPI_Type_commit(&value), "MPI_Type_commit");
  const int code = MPI_Alltoall(send, int(values), value, receive, int(values), value, detail::native(comm));
  MPI_Type_free(&value);
  detail::check(code, "MPI_Alltoall");
}

#else  // one rank

void all_to_all(const Communicator&, const void* send, void* receive, std::size_t block_bytes) {
  LOOM_REQUIRE(block_bytes % 16 == 0, "comm::all_to_all: blocks of 16-byte values expected");
  std::memcpy(receive, send, block_bytes);
}

#endif

}  // namespace loom::comm
