// The execution policy of the backend tree, lists and resident evaluator's thrust calls on the device: temporary
// storage from the device pool (core/device_pool.hpp) instead of a cudaMalloc and a synchronising cudaFree per
// call, and no synchronisation after an algorithm whose result stays on the device (par_nosync: every call and
// kernel runs on the default stream in order; the host reads counts by synchronous copies). CUDA sources only.
#pragma once

#include <thrust/execution_policy.h>

#include <cstddef>

#include "loom/core/device_pool.hpp"

namespace loom::fmm::gpu {

struct PoolAllocator {
  using value_type = char;
  char* allocate(std::ptrdiff_t bytes) {
    return static_cast<char*>(core::device_pool().allocate(static_cast<std::size_t>(bytes)));
  }
  void deallocate(char* p, std::size_t) { core::device_pool().deallocate(p); }
};

inline auto device_policy() {
  static PoolAllocator allocator;  // stateless; the policy keeps a reference to it
  return thrust::cuda::par_nosync(allocator);
}

}  // namespace loom::fmm::gpu
