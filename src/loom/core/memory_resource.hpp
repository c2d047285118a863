// Where device memory comes from and how bytes cross between host and device. The CUDA resource is the real
// one; HostEmulatedDevice stands in for a device with plain host memory so that the lazy-array and pool logic
// is tested on machines without a GPU (CI).
#pragma once

#include <cstddef>
#include <string_view>

namespace loom::core {

class DeviceMemoryResource {
 public:
  virtual ~DeviceMemoryResource() = default;
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void deallocate(void* p, std::size_t bytes) = 0;
  virtual void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes) = 0;
  virtual void copy_to_host(void* host_dst, const void* device_src, std::size_t bytes) = 0;
  virtual void copy_on_device(void* device_dst, const void* device_src, std::size_t bytes) = 0;
  virtual std::string_view name() const = 0;
};

// cudaMalloc/cudaFree/cudaMemcpy on the current device; throws loom::Error in a build without CUDA.
DeviceMemoryResource& cuda_memory_resource();

class HostEmulatedDevice final : public DeviceMemoryResource {
 public:
  void* allocate(std::size_t bytes) override;
  void deallocate(void* p, std::size_t bytes) override;
  void copy_to_device(void* device_dst, const void* host_src, std::size_t bytes) override;
  void copy_to_host(void* host_dst, const void* device_src, std::size_t bytes) override;
  void copy_on_device(void* device_dst, const void* device_src, std::size_t bytes) override;
  std::string_view name() const override { return "host-emulated device"; }

  std::size_t allocations = 0, deallocations = 0;  // calls seen, for tests of the pool
};

}  // namespace loom::core
