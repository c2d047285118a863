#include "loom/perf/ceilings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>

#include "loom/core/error.hpp"

namespace loom::perf {

double cpu_ceilings_host_bytes(const CeilingOptions& options) {
  const double half_n = options.gemm_n / 2;
  return std::max(3 * options.stream_bytes / 4, 3 * 8 * half_n * half_n);
}

CeilingOptions quick_ceiling_options() {
  CeilingOptions o;
  o.stream_bytes = 64.0 * (1u << 20);
  o.gemm_n = 512;
  o.batch_n = 16;
  o.batch_count = 1024;
  o.warmup = 1;
  o.repeats = 3;
  return o;
}

std::vector<Ceiling> measure_ceilings(core::Backend backend, const CeilingOptions& options) {
  return backend == core::Backend::cuda ? measure_cuda_ceilings(options) : measure_cpu_ceilings(options);
}

#if !defined(LOOM_HAVE_CUDA)
std::vector<Ceiling> measure_cuda_ceilings(const CeilingOptions&) {
  throw Error("measure_cuda_ceilings: this loom was built without CUDA");
}
#endif

std::optional<double> find_ceiling(const std::vector<Ceiling>& ceilings, core::Backend backend,
                                   const std::string& name) {
  for (const auto& c : ceilings)
    if (c.backend == backend && c.name == name) return c.value;
  return std::nullopt;
}

std::optional<double> copy_bandwidth(const std::vector<Ceiling>& ceilings, core::Backend backend) {
  const auto kernel = find_ceiling(ceilings, backend, "copy"), memcpy = find_ceiling(ceilings, backend, "copy_memcpy");
  if (kernel && memcpy) return std::max(*kernel, *memcpy);
  return kernel ? kernel : memcpy;
}

nlohmann::json to_json(const std::vector<Ceiling>& ceilings) {
  auto rows = nlohmann::json::array();
  for (const auto& c : ceilings) {
    rows.push_back({{"backend", std::string(core::to_string(c.backend))},
                    {"name", c.name},
                    {"unit", c.metric == Metric::bandwidth ? "bytes/s" : "flop/s"},
                    {"value", c.value},
                    {"bytes", c.work.bytes},
                    {"flops", c.work.flops},
                    {"seconds_median", c.time.median},
                    {"seconds_min", c.time.min},
                    {"seconds_max", c.time.max},
                    {"repeats", c.time.repeats},
                    {"detail", c.detail}});
  }
  return rows;
}

void print_table(std::ostream& out, const std::vector<Ceiling>& ceilings) {
  out << fmt::format("{:<8} {:<15} {:>14} {:>12}  {}\n", "backend", "ceiling", "value", "median", "detail");
  for (const auto& c : ceilings) {
    const std::string value = c.metric == Metric::bandwidth ? fmt::format("{:.1f} GB/s", c.value / 1e9)
                                                            : fmt::format("{:.2f} TFLOP/s", c.value / 1e12);
    out << fmt::format("{:<8} {:<15} {:>14} {:>10.3f}ms  {}\n", core::to_string(c.backend), c.name, value,
                       1e3 * c.time.median, c.detail);
  }
}

}  // namespace loom::perf
