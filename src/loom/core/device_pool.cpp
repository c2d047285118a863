#include "loom/core/device_pool.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <vector>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"

namespace loom::core {

DevicePool::DevicePool(DeviceMemoryResource& resource, std::size_t high_water_bytes)
    : resource_(resource), high_water_(high_water_bytes) {}

DevicePool::~DevicePool() {
  try {
    release_cached();
  } catch (...) {  // the device may be gone at exit; nothing useful to do
  }
}

void* DevicePool::allocate(std::size_t bytes) {
  const std::size_t size = (std::max<std::size_t>(bytes, 1) + granularity - 1) / granularity * granularity;
  std::lock_guard lock(mutex_);
  const auto limit = static_cast<std::size_t>(static_cast<double>(size) * (1 + max_slack));
  if (auto it = cached_.lower_bound(size); it != cached_.end() && it->first <= limit) {
    void* p = it->second;
    const std::size_t block = it->first;
    cached_.erase(it);
    in_use_.emplace(p, block);
    stats_.bytes_cached -= block;
    stats_.bytes_in_use += block;
    --stats_.blocks_cached;
    ++stats_.blocks_in_use;
    ++stats_.hits;
    return p;
  }
  if (stats_.bytes_in_use + stats_.bytes_cached + size > high_water_ && high_water_ >= size)
    release_largest_until(high_water_ - size);
  void* p = nullptr;
  try {
    p = resource_.allocate(size);
  } catch (const std::exception&) {  // out of memory with blocks cached: free them all and try once more
    if (cached_.empty()) throw;
    release_largest_until(0);
    p = resource_.allocate(size);
  }
  in_use_.emplace(p, size);
  stats_.bytes_in_use += size;
  ++stats_.blocks_in_use;
  ++stats_.misses;
  stats_.peak_bytes = std::max(stats_.peak_bytes, stats_.bytes_in_use + stats_.bytes_cached);
  return p;
}

void DevicePool::deallocate(void* p) {
  if (p == nullptr) return;
  std::lock_guard lock(mutex_);
  const auto it = in_use_.find(p);
  LOOM_REQUIRE(it != in_use_.end(), "DevicePool::deallocate: pointer was not allocated by this pool");
  const std::size_t size = it->second;
  in_use_.erase(it);
  cached_.emplace(size, p);
  stats_.bytes_in_use -= size;
  stats_.bytes_cached += size;
  --stats_.blocks_in_use;
  ++stats_.blocks_cached;
}

void DevicePool::release_largest_until(std::size_t target_total) {
  while (!cached_.empty() && stats_.bytes_in_use + stats_.bytes_cached > target_total) {
    auto last = std::prev(cached_.end());
    resource_.deallocate(last->second, last->first);
    stats_.bytes_cached -= last->first;
    --stats_.blocks_cached;
    ++stats_.releases;
    cached_.erase(last);
  }
}

void DevicePool::release_cached() {
  std::lock_guard lock(mutex_);
  release_largest_until(0);
}

void DevicePool::set_high_water(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  high_water_ = bytes;
  release_largest_until(bytes);
}

std::size_t DevicePool::high_water() const {
  std::lock_guard lock(mutex_);
  return high_water_;
}

PoolStatistics DevicePool::statistics() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

DevicePool& device_pool() {
  // Pools are never destroyed: at exit the CUDA context may already be gone, and the OS reclaims the memory.
  static std::mutex mutex;
  static std::vector<DevicePool*> pools;
  std::lock_guard lock(mutex);
  const int device = cuda::current_device();
  if (pools.size() <= static_cast<std::size_t>(device)) pools.resize(device + 1, nullptr);
  if (pools[device] == nullptr) {
    std::size_t high_water = cuda::device_info(device).total_memory / 100 * 85;
    if (const char* gb = std::getenv("LOOM_POOL_HIGH_WATER_GB"))
      high_water = static_cast<std::size_t>(std::atof(gb) * (1u << 30));
    pools[device] = new DevicePool(cuda_memory_resource(), high_water);
  }
  return *pools[device];
}

}  // namespace loom::core
