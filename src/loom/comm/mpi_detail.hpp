// Private to src/loom/comm (MPI builds only): the MPI handle behind a Communicator and the error check of
// every MPI call. Nothing outside comm includes mpi.h.
#pragma once

#include <mpi.h>

#include <string>

#include "loom/comm/communicator.hpp"
#include "loom/core/error.hpp"

namespace loom::comm {

struct CommHandle {
  MPI_Comm comm = MPI_COMM_NULL;
  ~CommHandle() {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (comm != MPI_COMM_NULL && !finalised) MPI_Comm_free(&comm);
  }
};

namespace detail {

inline MPI_Comm native(const Communicator& c) {
  return c.native_handle() != nullptr ? c.native_handle()->comm : MPI_COMM_WORLD;
}

inline void check(int code, const char* call) {
  if (code != MPI_SUCCESS) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw Error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
  }
}

}  // namespace detail
}  // namespace loom::comm
