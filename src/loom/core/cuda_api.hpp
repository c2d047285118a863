// The CUDA runtime calls loom's host code needs, behind plain C++ declarations so that .cpp files never
// include CUDA headers. Implemented in cuda_api.cu (CUDA builds) or cuda_api_none.cpp (CPU-only builds, where
// every call but built()/device_count() throws). Every call is checked and throws loom::Error on failure.
#pragma once

#include <cstddef>
#include <string>

namespace loom::cuda {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int compute_major = 0, compute_minor = 0;
  int multiprocessors = 0;
  std::size_t total_memory = 0;  // bytes
  std::size_t free_memory = 0;   // bytes, when queried
  std::size_t l2_cache = 0;      // bytes
  std::size_t shared_memory_per_block_optin = 0;  // bytes
  int clock_khz = 0;             // SM clock (0 where the runtime no longer reports it)
};

bool built();              // this binary contains the CUDA backend
int device_count();        // visible devices; 0 without a driver or device
DeviceInfo device_info(int device);
int runtime_version();     // e.g. 13000
int driver_version();      // 0 without a driver
int current_device();
void set_device(int device);

void* allocate_device(std::size_t bytes);  // raw allocation: use core::DevicePool instead
void free_device(void* p);
void* allocate_pinned(std::size_t bytes);  // page-locked host memory for fast transfers and MPI staging
void free_pinned(void* p);

void copy_host_to_device(void* dst, const void* src, std::size_t bytes);
void copy_device_to_host(void* dst, const void* src, std::size_t bytes);
void copy_device_to_device(void* dst, const void* src, std::size_t bytes);
void fill_bytes(void* dst, int value, std::size_t bytes);  // device memset
// Copies queued on the default stream, after the work queued before them. With page-locked host memory they
// return at once and the DMA runs beside the host (pageable memory makes the runtime wait for it).
void copy_host_to_device_async(void* dst, const void* src, std::size_t bytes);
void copy_device_to_host_async(void* dst, const void* src, std::size_t bytes);
void synchronize();

// Times device work on the default stream with CUDA events.
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start();
  double stop();  // waits for the stop event; returns seconds since start()

 private:
  void* start_ = nullptr;
  void* stop_ = nullptr;
};

// A point in the default stream's queue (no timing): record() marks it after the work queued so far,
// synchronize() waits until that work has finished. For pipelining copies with host work.
class Event {
 public:
  Event();
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record();
  void synchronize();

 private:
  void* event_ = nullptr;
};

}  // namespace loom::cuda
