// What a run will allocate, estimated from its parameters before anything is allocated, against what the machine
// has free: a request that cannot fit is bad input (exit 2, one line naming the key that drives it), not a
// process the kernel kills minutes later. Each system writes its estimate (the sizes of its largest arrays);
// this file compares. tests/core/test_memory_budget.cpp holds each estimate to the measured peak RSS.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace loom::core {

// What `loom --help` alone keeps resident (the executable, its libraries and their static data: 283 MB of peak RSS
// measured on the CUDA-enabled build of 2026-12-03): the base of the estimates that count from an empty process.
inline constexpr double resident_base_bytes = 285e6;

struct MemoryNeed {
  double host_bytes = 0;
  double device_bytes = 0;  // counted only for a run on the CUDA backend
};

// MemAvailable of /proc/meminfo; LOOM_AVAILABLE_HOST_GIB overrides it (tests, shared machines). 0: unknown.
double available_host_bytes();
// Free memory of the current device (cudaMemGetInfo); 0 without a device.
double available_device_bytes();
// The process's peak resident set (getrusage ru_maxrss).
double peak_rss_bytes();

std::string gib_text(double bytes);  // "12.3 GiB" (3 significant digits)

// Throws UsageError "`setting`: needs X GiB of host memory, has Y GiB (MemAvailable)" when the need exceeds what
// is free (device memory is checked when `on_device`). `setting` names the key that drives the size and its
// value, e.g. `grid.points_per_wavelength = 400.0`.
void check_memory(const MemoryNeed& need, bool on_device, std::string_view setting);

// The message for a std::bad_alloc that escaped every estimate (apps/loom turns it into exit 2).
std::string out_of_memory_message();

}  // namespace loom::core
