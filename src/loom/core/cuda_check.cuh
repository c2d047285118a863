// Checking CUDA calls (include from .cu files only). A failed call throws loom::Error naming the call, the
// CUDA error, the file and the line; LOOM_CUDA_CHECK_LAUNCH() follows every kernel launch.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "loom/core/error.hpp"

namespace loom::cuda::detail {
[[noreturn]] inline void fail(cudaError_t status, const char* call, const char* file, int line) {
  throw_error(std::string(call) + " failed: " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status), file,
              line);
}
}  // namespace loom::cuda::detail

#define LOOM_CUDA_CHECK(call)                                                              \
  do {                                                                                     \
    const cudaError_t loom_status_ = (call);                                               \
    if (loom_status_ != cudaSuccess) ::loom::cuda::detail::fail(loom_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define LOOM_CUDA_CHECK_LAUNCH() LOOM_CUDA_CHECK(cudaPeekAtLastError())
