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

// Full unrolling of a loop of compile-time trip count in device code (host compilers unroll as they see fit).
#if defined(__CUDA_ARCH__)
#define LOOM_UNROLL _Pragma("unroll")
#else
#define LOOM_UNROLL
#endif

namespace loom {
using Index = std::int64_t;  // element counts and loop indices; arrays past 2^31 elements are routine on an H200
}  // namespace loom
