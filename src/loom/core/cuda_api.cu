#include <cuda_runtime.h>

#include "loom/core/cuda_api.hpp"
#include "loom/core/cuda_check.cuh"

namespace loom::cuda {

bool built() { return true; }

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();  // no driver or no device: not an error for discovery
    return 0;
  }
  return n;
}

DeviceInfo device_info(int device) {
  cudaDeviceProp p{};
  LOOM_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  DeviceInfo info;
  info.index = device;
  info.name = p.name;
  info.compute_major = p.major;
  info.compute_minor = p.minor;
  info.multiprocessors = p.multiProcessorCount;
  info.total_memory = p.totalGlobalMem;
  info.l2_cache = static_cast<std::size_t>(p.l2CacheSize);
  info.shared_memory_per_block_optin = p.sharedMemPerBlockOptin;
  int clock = 0;
  if (cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, device) == cudaSuccess) info.clock_khz = clock;
  (void)cudaGetLastError();
  int previous = 0;
  LOOM_CUDA_CHECK(cudaGetDevice(&previous));
  LOOM_CUDA_CHECK(cudaSetDevice(device));
  std::size_t free_bytes = 0, total_bytes = 0;
  LOOM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  info.free_memory = free_bytes;
  LOOM_CUDA_CHECK(cudaSetDevice(previous));
  return info;
}

int runtime_version() {
  int v = 0;
  LOOM_CUDA_CHECK(cudaRuntimeGetVersion(&v));
  return v;
}

int driver_version() {
  int v = 0;
  if (cudaDriverGetVersion(&v) != cudaSuccess) return 0;
  return v;
}

int current_device() {
  int d = 0;
  LOOM_CUDA_CHECK(cudaGetDevice(&d));
  return d;
}

void set_device(int device) { LOOM_CUDA_CHECK(cudaSetDevice(device)); }

void* allocate_device(std::size_t bytes) {
  void* p = nullptr;
  LOOM_CUDA_CHECK(cudaMalloc(&p, bytes));
  return p;
}

void free_device(void* p) { LOOM_CUDA_CHECK(cudaFree(p)); }

void* allocate_pinned(std::size_t bytes) {
  void* p = nullptr;
  LOOM_CUDA_CHECK(cudaMallocHost(&p, bytes));
  return p;
}

void free_pinned(void* p) { LOOM_CUDA_CHECK(cudaFreeHost(p)); }

void copy_host_to_device(void* dst, const void* src, std::size_t bytes) {
  LOOM_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}
void copy_device_to_host(void* dst, const void* src, std::size_t bytes) {
  LOOM_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}
void copy_device_to_device(void* dst, const void* src, std::size_t bytes) {
  LOOM_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
}
void fill_bytes(void* dst, int value, std::size_t bytes) { LOOM_CUDA_CHECK(cudaMemset(dst, value, bytes)); }
void copy_host_to_device_async(void* dst, const void* src, std::size_t bytes) {
  LOOM_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, nullptr));
}
void copy_device_to_host_async(void* dst, const void* src, std::size_t bytes) {
  LOOM_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, nullptr));
}
void synchronize() { LOOM_CUDA_CHECK(cudaDeviceSynchronize()); }

Event::Event() {
  cudaEvent_t e = nullptr;
  LOOM_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  event_ = e;
}
Event::~Event() { cudaEventDestroy(static_cast<cudaEvent_t>(event_)); }  // not checked: destructors must not throw
void Event::record() { LOOM_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(event_), nullptr)); }
void Event::synchronize() { LOOM_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(event_))); }

EventTimer::EventTimer() {
  cudaEvent_t a = nullptr, b = nullptr;
  LOOM_CUDA_CHECK(cudaEventCreate(&a));
  LOOM_CUDA_CHECK(cudaEventCreate(&b));
  start_ = a;
  stop_ = b;
}

EventTimer::~EventTimer() {
  cudaEventDestroy(static_cast<cudaEvent_t>(start_));  // not checked: destructors must not throw
  cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
}

void EventTimer::start() { LOOM_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(start_))); }

double EventTimer::stop() {
  LOOM_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(stop_)));
  LOOM_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(stop_)));
  float ms = 0;
  LOOM_CUDA_CHECK(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start_), static_cast<cudaEvent_t>(stop_)));
  return 1e-3 * ms;
}

}  // namespace loom::cuda
