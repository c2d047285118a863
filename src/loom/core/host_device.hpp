// Portability macros for code shared by the CPU (OpenMP) and CUDA backends: one formula, two backends.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define LOOM_HOST_DEVICE __host__ __device__
#define LOOM_DEVICE __device__
#else
#define LOOM_HOST_DEVICE
#define LOOM_DEVICE
#endif

namespace loom {
using Index = std::int64_t;  // element counts and loop indices; arrays past 2^31 elements are routine on an H200
}  // namespace loom
