#include "loom/core/memory_budget.hpp"

#include <sys/resource.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"

namespace loom::core {
namespace {

constexpr double gib = 1024.0 * 1024.0 * 1024.0;

}  // namespace

double available_host_bytes() {
  if (const char* text = std::getenv("LOOM_AVAILABLE_HOST_GIB")) return std::atof(text) * gib;
  std::ifstream in("/proc/meminfo");
  std::string name, unit;
  double kib = 0;
  while (in >> name >> kib >> unit)
    if (name == "MemAvailable:") return kib * 1024.0;
  return 0;
}

double available_device_bytes() {
  if (cuda::device_count() == 0) return 0;
  return static_cast<double>(cuda::device_info(cuda::current_device()).free_memory);
}

double peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0;  // Linux reports kilobytes
}

std::string gib_text(double bytes) {
  std::ostringstream s;
  s.precision(3);
  s << bytes / gib << " GiB";
  return s.str();
}

void check_memory(const MemoryNeed& need, bool on_device, std::string_view setting) {
  const double host = available_host_bytes();
  if (host > 0 && need.host_bytes > host)
    throw UsageError(std::string(setting) + ": needs " + gib_text(need.host_bytes) + " of host memory, has " +
                     gib_text(host) + " (MemAvailable)");
  if (!on_device) return;
  const double device = available_device_bytes();
  if (device > 0 && need.device_bytes > device)
    throw UsageError(std::string(setting) + ": needs " + gib_text(need.device_bytes) + " of device memory, has " +
                     gib_text(device) + " free on the GPU");
}

std::string out_of_memory_message() {
  return "out of memory: an allocation failed (has " + gib_text(available_host_bytes()) +
         " of host memory available); ask for a smaller run";
}

}  // namespace loom::core
