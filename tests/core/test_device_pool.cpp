// The caching device pool: blocks are reused by size, the high-water mark and release_cached() return them,
// and an allocation failure frees the cache and retries. Runs on a host-emulated device.
#include <gtest/gtest.h>

#include <new>

#include "loom/core/device_pool.hpp"
#include "loom/core/error.hpp"

namespace loom::core {
namespace {

constexpr std::size_t MiB = 1 << 20;

TEST(DevicePool, FreedBlockIsReusedForTheSameSize) {
  HostEmulatedDevice device;
  DevicePool pool(device, 1024 * MiB);
  void* a = pool.allocate(3 * MiB);
  pool.deallocate(a);
  void* b = pool.allocate(3 * MiB);
  EXPECT_EQ(a, b);
  const auto s = pool.statistics();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 1u);
  EXPECT_EQ(device.allocations, 1u);
  EXPECT_EQ(s.bytes_in_use, 3 * MiB);
  EXPECT_EQ(s.bytes_cached, 0u);
  pool.deallocate(b);
}

TEST(DevicePool, OnlyCloseSizesShareABlock) {
  HostEmulatedDevice device;
  DevicePool pool(device, 1024 * MiB);
  void* big = pool.allocate(8 * MiB);
  pool.deallocate(big);
  void* small = pool.allocate(1 * MiB);  // far smaller: must not take the 8 MiB block
  EXPECT_NE(small, big);
  void* near = pool.allocate(8 * MiB - 4096);  // within the slack: reuses it
  EXPECT_EQ(near, big);
  pool.deallocate(small);
  pool.deallocate(near);
  EXPECT_EQ(pool.statistics().blocks_cached, 2u);
}

TEST(DevicePool, HighWaterMarkReleasesCachedBlocks) {
  HostEmulatedDevice device;
  DevicePool pool(device, 10 * MiB);
  void* a = pool.allocate(4 * MiB);
  void* b = pool.allocate(4 * MiB);
  pool.deallocate(a);
  pool.deallocate(b);
  EXPECT_EQ(pool.statistics().bytes_cached, 8 * MiB);
  void* c = pool.allocate(6 * MiB);  // 8 cached + 6 > 10: cached blocks are freed first
  const auto s = pool.statistics();
  EXPECT_LE(s.bytes_in_use + s.bytes_cached, 10 * MiB);
  EXPECT_GE(s.releases, 1u);
  EXPECT_EQ(device.deallocations, s.releases);
  pool.deallocate(c);
  pool.release_cached();
  EXPECT_EQ(pool.statistics().bytes_cached, 0u);
  EXPECT_EQ(device.allocations, device.deallocations);
}

TEST(DevicePool, StatisticsTrackPeak) {
  HostEmulatedDevice device;
  DevicePool pool(device, 1024 * MiB);
  void* a = pool.allocate(MiB);
  void* b = pool.allocate(2 * MiB);
  pool.deallocate(a);
  pool.deallocate(b);
  EXPECT_EQ(pool.statistics().peak_bytes, 3 * MiB);
  EXPECT_EQ(pool.statistics().bytes_in_use, 0u);
}

TEST(DevicePool, ForeignPointerIsAnError) {
  HostEmulatedDevice device;
  DevicePool pool(device, MiB);
  int x = 0;
  EXPECT_THROW(pool.deallocate(&x), Error);
}

// A device with a hard capacity, to see the pool free its cache when an allocation fails.
class SmallDevice final : public DeviceMemoryResource {
 public:
  void* allocate(std::size_t bytes) override {
    if (used + bytes > capacity) throw Error("out of memory");
    used += bytes;
    return inner.allocate(bytes);
  }
  void deallocate(void* p, std::size_t bytes) override {
    used -= bytes;
    inner.deallocate(p, bytes);
  }
  void copy_to_device(void* d, const void* h, std::size_t n) override { inner.copy_to_device(d, h, n); }
  void copy_to_host(void* h, const void* d, std::size_t n) override { inner.copy_to_host(h, d, n); }
  void copy_on_device(void* d, const void* s, std::size_t n) override { inner.copy_on_device(d, s, n); }
  std::string_view name() const override { return "small"; }
  HostEmulatedDevice inner;
  std::size_t capacity = 8 * MiB, used = 0;
};

TEST(DevicePool, AllocationFailureFreesCacheAndRetries) {
  SmallDevice device;
  DevicePool pool(device, 1024 * MiB);  // high-water mark above the device: only the failure path frees
  void* a = pool.allocate(6 * MiB);
  pool.deallocate(a);
  void* b = pool.allocate(4 * MiB);  // 6 cached + 4 > 8: fails once, cache freed, succeeds
  EXPECT_NE(b, nullptr);
  EXPECT_EQ(pool.statistics().bytes_cached, 0u);
  pool.deallocate(b);
  EXPECT_THROW(pool.allocate(9 * MiB), Error);  // still too large: the error reaches the caller
}

}  // namespace
}  // namespace loom::core
