// `loom bench gpe`: the leapfrog step of the DEC-GPE integrator on each grid, backend and size, against the
// copy bandwidth measured in the same run (the kernel is memory-bound: 48 bytes per DOF and step).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <sstream>

#include "commands.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/gpe/benchmark.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/perf/ceilings.hpp"
#include "loom/version_info.hpp"

namespace loom::app {
namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string item; std::getline(s, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

int run_bench_gpe(const io::Parameters& p) {
  std::vector<core::Backend> backends;
  if (p.get_string("backend") == "all") backends = core::available_backends();
  else backends = {core::parse_backend(p.get_string("backend"), "backend")};
  std::vector<dec::GridType> grids;
  for (const auto& g : split_list(p.get_string("grids"))) grids.push_back(dec::parse_grid_type(g, "grids"));
  std::vector<double> dofs;
  for (const auto& d : split_list(p.get_string("dof"))) {
    char* end = nullptr;
    const double v = std::strtod(d.c_str(), &end);
    if (*end != '\0' || !(v >= 1))
      throw UsageError(io::invalid_value_message("dof", p.value("dof"), "a comma-separated list of DOF counts >= 1"));
    dofs.push_back(v);
  }
  const double cpu_max = p.get_real("cpu_max_dof");
  const int repeats = static_cast<int>(p.get_int("repeats")), warmup = static_cast<int>(p.get_int("warmup"));
  std::vector<std::string> kernels;
  if (p.get_string("kernels") != "all")
    for (const auto& k : split_list(p.get_string("kernels"))) kernels.emplace_back(gpe::to_string(gpe::parse_leapfrog_kernel(k, "kernels")));

  perf::CeilingOptions stream;
  stream.stream_only = true;
  std::vector<perf::Ceiling> ceilings;
  for (auto b : backends) {
    auto c = perf::measure_ceilings(b, stream);
    ceilings.insert(ceilings.end(), c.begin(), c.end());
  }
  std::cout << fmt::format("{:<5} {:<6} {:<8} {:>10} {:>12} {:>11} {:>10} {:>9} {:>8}\n", "back", "grid", "variant",
                           "structures", "dof", "steps/s", "Gdof/s", "GB/s", "of copy");
  nlohmann::json rows = nlohmann::json::array();
  std::map<std::pair<int, Index>, double> cpu_rate;
  for (auto g : grids)
    for (double target : dofs) {
      const int m_s = dec::replicable_structure(g).cell_count();
      const int n = std::max(1, static_cast<int>(std::lround(std::cbrt(target / m_s))));
      for (auto b : backends)
        for (auto kernel : gpe::leapfrog_kernels(b)) {
        if (!kernels.empty() && std::find(kernels.begin(), kernels.end(), std::string(gpe::to_string(kernel))) == kernels.end())
          continue;
        const Index dof = Index(m_s) * n * n * n;
        if (b == core::Backend::cpu && double(dof) > cpu_max) continue;
        const auto r = gpe::benchmark_leapfrog(b, g, n, kernel, warmup, repeats);
        const double copy = perf::copy_bandwidth(ceilings, b).value_or(0);
        const double fraction = copy > 0 ? r.bandwidth() / copy : 0;
        if (b == core::Backend::cpu) cpu_rate[{int(g), dof}] = r.dof_updates_per_second();
        std::cout << fmt::format("{:<5} {:<6} {:<8} {:>10} {:>12} {:>11.1f} {:>10.2f} {:>9.1f} {:>7.0f}%\n",
                                 core::to_string(b), dec::to_string(g), r.variant, fmt::format("{}^3", n), r.dof,
                                 1 / r.seconds_per_step(), r.dof_updates_per_second() / 1e9, r.bandwidth() / 1e9,
                                 100 * fraction);
        rows.push_back({{"backend", std::string(core::to_string(b))}, {"grid", std::string(dec::to_string(g))},
                        {"variant", r.variant}, {"structures", n}, {"dof", r.dof}, {"steps_per_run", r.steps_per_run},
                        {"seconds_per_step", r.seconds_per_step()}, {"dof_updates_per_s", r.dof_updates_per_second()},
                        {"bytes_per_dof", gpe::leapfrog_bytes_per_dof}, {"bandwidth", r.bandwidth()},
                        {"copy_bandwidth", copy}, {"fraction_of_copy", fraction},
                        {"flops_per_s", r.work_per_step.flops / r.seconds_per_step()}});
        if (b == core::Backend::cuda && cpu_rate.count({int(g), dof}))
          std::cout << fmt::format("      gpu / cpu on {} at {} dof: {:.1f}x\n", dec::to_string(g), dof,
                                   r.dof_updates_per_second() / cpu_rate[{int(g), dof}]);
      }
    }
  perf::print_table(std::cout, ceilings);
  if (const auto& path = p.get_string("json"); !path.empty()) {
    nlohmann::json j;
    j["loom"] = {{"version", LOOM_VERSION}, {"git_commit", LOOM_GIT_COMMIT}};
    j["cpu_threads"] = core::cpu_threads();
    if (core::backend_available(core::Backend::cuda)) j["device"] = cuda::device_info(cuda::current_device()).name;
    j["results"] = rows;
    j["ceilings"] = perf::to_json(ceilings);
    io::write_file_atomically(path, j.dump(2) + "\n");
  }
  return 0;
}

}  // namespace

void add_bench_gpe_command(CLI::App& bench, std::vector<Subcommand>& out) {
  io::Parameters p;
  p.add("backend", "all", "backends to measure").one_of({"all", "auto", "cpu", "cuda"});
  p.add("grids", "cubic,fcc,bcc,a15,c15,z", "comma-separated grids");
  p.add("dof", "2e6", "comma-separated target DOF counts (n^3 structures, n rounded)");
  p.add("cpu_max_dof", 3e8, "largest problem run on the CPU backend").greater_than(0);
  p.add("kernels", "all", "leapfrog implementations to time: all, or a list of plain, tuned, shared");
  p.add("repeats", 5, "timed runs; the median is reported").at_least(1);
  p.add("warmup", 1, "untimed runs first").at_least(0);
  p.add("json", "", "also write the results as JSON to this file");
  out.push_back({std::make_unique<io::ParameterCommand>(bench, "gpe", "The DEC-GPE leapfrog step: DOF updates/s and "
                                                                      "bandwidth against the copy ceiling",
                                                        std::move(p), false),
                 run_bench_gpe});
}

}  // namespace loom::app
