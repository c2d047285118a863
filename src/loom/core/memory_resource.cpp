#include "loom/core/memory_resource.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include "loom/core/cuda_api.hpp"

namespace loom::core {
namespace {

class CudaMemoryResource final : public DeviceMemoryResource {
 public:
  void* allocate(std::size_t bytes) override { return cuda::allocate_device(bytes); }
  void deallocate(void* p, std::size_t) override { cuda::free_device(p); }
  void copy_to_device(void* d, const void* h, std::size_t bytes) override { cuda::copy_host_to_device(d, h, bytes); }
  void copy_to_host(void* h, const void* d, std::size_t bytes) override { cuda::copy_device_to_host(h, d, bytes); }
  void copy_on_device(void* d, const void* s, std::size_t bytes) override { cuda::copy_device_to_device(d, s, bytes); }
  std::string_view name() const override { return "cuda"; }
};

}  // namespace

DeviceMemoryResource& cuda_memory_resource() {
  static CudaMemoryResource resource;
  return resource;
}

void* HostEmulatedDevice::allocate(std::size_t bytes) {
  ++allocations;
  void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void HostEmulatedDevice::deallocate(void* p, std::size_t) {
  ++deallocations;
  std::free(p);
}
void HostEmulatedDevice::copy_to_device(void* d, const void* h, std::size_t bytes) { std::memcpy(d, h, bytes); }
void HostEmulatedDevice::copy_to_host(void* h, const void* d, std::size_t bytes) { std::memcpy(h, d, bytes); }
void HostEmulatedDevice::copy_on_device(void* d, const void* s, std::size_t bytes) { std::memcpy(d, s, bytes); }

}  // namespace loom::core
