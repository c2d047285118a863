// Page-locked host memory owned by an object: the staging buffers of MPI transfers of device arrays where the MPI
// library is not CUDA-aware (DMA from and to pinned memory runs at the bus's speed, pageable memory does not).
#pragma once

#include <cstddef>

#include "loom/core/cuda_api.hpp"

namespace loom::core {

class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t bytes) : p_(bytes > 0 ? cuda::allocate_pinned(bytes) : nullptr) {}
  ~PinnedBuffer() {
    try {
      if (p_ != nullptr) cuda::free_pinned(p_);
    } catch (...) {  // no throw from a destructor: a failed free leaks the pages
    }
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* get() const { return p_; }

 private:
  void* p_;
};

}  // namespace loom::core
