// radix_sort.hpp's sort: cub::DeviceRadixSort on double buffers on the device, thrust::stable_sort_by_key on the host.
#include "loom/fmm/gpu/radix_sort.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <utility>

#include "loom/core/cuda_check.cuh"
#include "loom/core/device_pool.hpp"
#include "loom/core/error.hpp"

namespace loom::fmm::gpu {

namespace {

template <class Value>
void sort_pairs(core::Backend b, core::Array<std::uint64_t>& key, core::Array<Value>& value, Index n, int bits) {
  LOOM_REQUIRE(bits >= 1 && bits <= 64, "fmm::gpu::stable_sort_pairs: bits must lie in [1, 64]");
  if (n <= 1) return;
  if (b == core::Backend::cpu) {
    std::uint64_t* k = key.read_write(core::Where::host);
    thrust::stable_sort_by_key(thrust::host, k, k + n, value.read_write(core::Where::host));
    return;
  }
  constexpr core::Where dev = core::Where::device;
  core::Array<std::uint64_t> key2(static_cast<std::size_t>(n));
  core::Array<Value> value2(static_cast<std::size_t>(n));
  cub::DoubleBuffer<std::uint64_t> k(key.read_write(dev), key2.write(dev));
  cub::DoubleBuffer<Value> v(value.read_write(dev), value2.write(dev));
  std::size_t bytes = 0;
  LOOM_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, 0, bits));
  void* temp = core::device_pool().allocate(bytes);
  LOOM_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, n, 0, bits));
  core::device_pool().deallocate(temp);  // reused only by work queued after the sort on the same stream
  if (k.selector == 1) {
    std::swap(key, key2);
    std::swap(value, value2);
  }
}

}  // namespace

void stable_sort_pairs(core::Backend b, core::Array<std::uint64_t>& key, core::Array<Index>& value, Index n,
                       int bits) {
  sort_pairs(b, key, value, n, bits);
}

void stable_sort_pairs(core::Backend b, core::Array<std::uint64_t>& key, core::Array<std::uint32_t>& value, Index n,
                       int bits) {
  sort_pairs(b, key, value, n, bits);
}

}  // namespace loom::fmm::gpu
