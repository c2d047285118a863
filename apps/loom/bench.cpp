// `loom bench ...`: measured performance. `loom bench ceilings` measures the machine's ceilings on each
// backend; the systems' benchmarks (gpe, fmm, spectral) report against them.
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <iostream>

#include "commands.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/json_output.hpp"
#include "loom/perf/ceilings.hpp"
#include "loom/io/build_identity.hpp"

namespace loom::app {
namespace {

std::vector<core::Backend> backends_from(const std::string& choice) {
  if (choice == "all") return core::available_backends();
  return {core::parse_backend(choice, "backend")};
}

int run_ceilings(const io::Parameters& p) {
  const auto backends = backends_from(p.get_string("backend"));
  perf::CeilingOptions options = p.get_bool("quick") ? perf::quick_ceiling_options() : perf::CeilingOptions{};
  if (p.user_set("repeats")) options.repeats = static_cast<int>(p.get_int("repeats"));
  if (p.user_set("warmup")) options.warmup = static_cast<int>(p.get_int("warmup"));
  if (p.user_set("stream_mib")) options.stream_bytes = p.get_real("stream_mib") * (1 << 20);
  io::check_json_output(p);
  // Three streamed arrays (the CPU's a quarter the size) and three DGEMM matrices (the CPU's half the size).
  const bool on_device = std::count(backends.begin(), backends.end(), core::Backend::cuda) > 0;
  const double stream = options.stream_bytes, n = p.user_set("gemm_n") ? double(p.get_int("gemm_n")) : options.gemm_n;
  core::check_memory({3 * stream / 4, 3 * stream}, on_device, fmt::format("stream_mib = {}", stream / (1 << 20)));
  core::check_memory({3 * 8 * n * n / 4, 3 * 8 * n * n}, on_device, fmt::format("gemm_n = {}", n));
  if (n > 46340) throw UsageError(fmt::format("gemm_n = {}: expected at most 46340 (n^2 within int)", n));
  options.gemm_n = static_cast<int>(n);

  nlohmann::json devices = nlohmann::json::array();
  std::cerr << fmt::format("measuring ceilings on {} backend(s); CPU: {} threads\n", backends.size(),
                           core::cpu_threads());
  std::vector<perf::Ceiling> all;
  for (auto b : backends) {
    if (b == core::Backend::cuda) {
      const auto info = cuda::device_info(cuda::current_device());
      std::cerr << fmt::format("cuda device {}: {} ({} SMs, {:.0f} GiB)\n", info.index, info.name,
                               info.multiprocessors, info.total_memory / double(1 << 30));
      devices.push_back({{"index", info.index}, {"name", info.name}, {"memory_bytes", info.total_memory}});
    }
    auto measured = perf::measure_ceilings(b, options);
    all.insert(all.end(), measured.begin(), measured.end());
  }
  perf::print_table(std::cout, all);
  if (const auto& path = p.get_string("json"); !path.empty()) {
    nlohmann::json j;
    j["loom"] = loom::io::build_identity();
    j["date"] = fmt::format("{:%Y-%m-%dT%H:%M:%S}", fmt::localtime(std::time(nullptr)));
    j["cpu_threads"] = core::cpu_threads();
    j["devices"] = devices;
    j["ceilings"] = perf::to_json(all);
    io::write_file_atomically(path, j.dump(2) + "\n");
    std::cerr << "wrote " << path << "\n";
  }
  return 0;
}

}  // namespace

void add_bench_commands(CLI::App& app, std::vector<Subcommand>& out) {
  CLI::App* bench = app.add_subcommand("bench", "Measure performance (ceilings, and each system's kernels)");
  bench->allow_extras();
  io::Parameters p;
  p.add("backend", "all", "backend to measure").one_of({"all", "auto", "cpu", "cuda"});
  io::declare_json_output(p, "also write the results as JSON to this file");
  p.add("quick", false, "small sizes and few repeats (a smoke test, not a measurement)");
  p.add("repeats", 10, "timed repeats; the median is reported").at_least(1);
  p.add("warmup", 2, "untimed runs before timing").at_least(0);
  p.add("stream_mib", 1024.0, "MiB per streamed array on the GPU (the CPU uses a quarter)").greater_than(0);
  p.add("gemm_n", 8192, "DGEMM matrix size on the GPU (the CPU uses half)").at_least(16);
  out.push_back({std::make_unique<io::ParameterCommand>(*bench, "ceilings",
                                                        "Streaming bandwidth, FMA rates and DGEMM on each backend",
                                                        std::move(p), false),
                 run_ceilings});
  add_bench_fmm_command(*bench, out);
  add_bench_gpe_command(*bench, out);
  add_bench_spectral_command(*bench, out);
  add_bench_hit_command(*bench, out);
  add_bench_bh_command(*bench, out);
  add_bench_vortex_command(*bench, out);
}

}  // namespace loom::app
