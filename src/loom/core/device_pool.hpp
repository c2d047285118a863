// A caching device allocator (spectral-BH paper, section on memory management; AMReX's arenas): freed blocks
// are kept by size and handed out again, because cudaMalloc/cudaFree cost far more than a time step's kernels.
// Cached blocks are truly freed when the pool would grow past its high-water mark, when an allocation fails,
// or on release_cached().
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <unordered_map>

#include "loom/core/memory_resource.hpp"

namespace loom::core {

struct PoolStatistics {
  std::size_t hits = 0;          // requests served from the cache
  std::size_t misses = 0;        // requests that allocated from the resource
  std::size_t releases = 0;      // cached blocks returned to the resource
  std::size_t bytes_in_use = 0;  // handed out and not yet given back
  std::size_t bytes_cached = 0;  // kept for reuse
  std::size_t peak_bytes = 0;    // largest bytes_in_use + bytes_cached seen
  std::size_t blocks_in_use = 0;
  std::size_t blocks_cached = 0;
};

class DevicePool {
 public:
  // high_water_bytes: in-use plus cached bytes above which cached blocks are freed before allocating more.
  DevicePool(DeviceMemoryResource& resource, std::size_t high_water_bytes);
  ~DevicePool();
  DevicePool(const DevicePool&) = delete;
  DevicePool& operator=(const DevicePool&) = delete;

  void* allocate(std::size_t bytes);
  void deallocate(void* p);
  void release_cached();  // frees every cached block
  void set_high_water(std::size_t bytes);
  std::size_t high_water() const;
  PoolStatistics statistics() const;
  DeviceMemoryResource& resource() { return resource_; }

  // Requests are rounded up to this granularity, so nearby sizes share blocks.
  static constexpr std::size_t granularity = 512;
  // A cached block serves a request when it is at most this fraction larger than the request.
  static constexpr double max_slack = 0.125;

 private:
  void release_largest_until(std::size_t target_total);  // caller holds mutex_
  DeviceMemoryResource& resource_;
  std::size_t high_water_;
  mutable std::mutex mutex_;
  std::multimap<std::size_t, void*> cached_;         // size -> block
  std::unordered_map<void*, std::size_t> in_use_;    // block -> size
  PoolStatistics stats_;
};

// The pool of the current CUDA device (one per device, created on first use with a high-water mark of 85% of
// the device's memory, or LOOM_POOL_HIGH_WATER_GB when set). Throws in a build without CUDA.
DevicePool& device_pool();

}  // namespace loom::core
