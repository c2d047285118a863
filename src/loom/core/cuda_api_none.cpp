// The CUDA runtime interface of a CPU-only build: discovery says "no devices", everything else throws.
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"

namespace loom::cuda {
namespace {
[[noreturn]] void not_built(const char* call) {
  throw Error(std::string("cuda::") + call + ": this loom was built without CUDA (configure with -DLOOM_CUDA=ON)");
}
}  // namespace

bool built() { return false; }
int device_count() { return 0; }
DeviceInfo device_info(int) { not_built("device_info"); }
int runtime_version() { return 0; }
int driver_version() { return 0; }
int current_device() { not_built("current_device"); }
void set_device(int) { not_built("set_device"); }
void* allocate_device(std::size_t) { not_built("allocate_device"); }
void free_device(void*) { not_built("free_device"); }
void* allocate_pinned(std::size_t) { not_built("allocate_pinned"); }
void free_pinned(void*) { not_built("free_pinned"); }
void copy_host_to_device(void*, const void*, std::size_t) { not_built("copy_host_to_device"); }
void copy_device_to_host(void*, const void*, std::size_t) { not_built("copy_device_to_host"); }
void copy_device_to_device(void*, const void*, std::size_t) { not_built("copy_device_to_device"); }
void copy_host_to_device_async(void*, const void*, std::size_t) { not_built("copy_host_to_device_async"); }
void copy_device_to_host_async(void*, const void*, std::size_t) { not_built("copy_device_to_host_async"); }
void fill_bytes(void*, int, std::size_t) { not_built("fill_bytes"); }
void synchronize() {}
EventTimer::EventTimer() { not_built("EventTimer"); }
EventTimer::~EventTimer() = default;
void EventTimer::start() {}
double EventTimer::stop() { return 0; }
Event::Event() { not_built("Event"); }
Event::~Event() = default;
void Event::record() {}
void Event::synchronize() {}

}  // namespace loom::cuda
