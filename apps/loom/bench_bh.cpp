// `loom bench bh`: the per-module profile of a GH step of the single-hole case (src/loom/gr/benchmark.hpp) on one
// CPU core, on all cores and on the GPU; a table with percentages and the GPU speedup per module, and JSON with
// its plots (tools/plot_bench_bh.py).
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <ctime>
#include <iostream>

#include "commands.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/gr/benchmark.hpp"
#include "loom/gr/config.hpp"
#include "loom/gr/memory_need.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/json_output.hpp"
#include "loom/io/plot_script.hpp"
#include "loom/io/build_identity.hpp"

namespace loom::app {
namespace {

int run_bench_bh(const io::Parameters& p) {
  const gr::BhConfig c = gr::make_bh_config(p);
  // The profile steps the default initial data for `steps` steps: the run's own initial, time and output keys
  // (declared with the hole's) are not read.
  std::vector<std::string> unread;
  for (const auto& spec : p.specs())
    for (const char* section : {"initial.", "time.", "output."})
      if (spec.key.rfind(section, 0) == 0) unread.push_back(spec.key);
  io::refuse_unread_keys(p, unread, "(bench bh profiles the default initial data, not a run)");
  io::check_json_output(p);  // before any timing
  const int warmup = int(p.get_int("warmup")), steps = int(p.get_int("steps"));
  std::vector<gr::ModuleProfile> rows;
  const std::string& choice = p.get_string("backend");
  const bool cpu = choice != "cuda", gpu = choice != "cpu" && core::backend_available(core::Backend::cuda);
  for (auto [wanted, backend] : {std::pair{cpu, core::Backend::cpu}, std::pair{gpu, core::Backend::cuda}}) {
    gr::BhConfig sized = c;  // each backend's estimate: the CPU's keeps a matrix cache per thread
    sized.backend = backend;
    if (wanted) core::check_memory(gr::bh_memory_need(sized, core::cpu_threads()), gpu, gr::bh_memory_setting(c));
  }
  if (cpu)
    for (int threads : {1, core::cpu_threads()}) {
      if (threads == 1 && core::cpu_threads() == 1 && !rows.empty()) continue;
      std::cerr << fmt::format("bh: timing {} steps on {} CPU thread(s)\n", steps, threads);
      rows.push_back(gr::profile_steps(c.hole, c.geometry, c.filter, core::Backend::cpu, threads, warmup, steps));
    }
  if (gpu) {
    std::cerr << fmt::format("bh: timing {} steps on the GPU\n", steps);
    rows.push_back(gr::profile_steps(c.hole, c.geometry, c.filter, core::Backend::cuda, 0, warmup, steps));
  }
  gr::print_profile_table(std::cout, rows);
  if (const auto& path = p.get_string("json"); !path.empty()) {
    nlohmann::json j;
    j["loom"] = loom::io::build_identity();
    j["date"] = fmt::format("{:%Y-%m-%dT%H:%M:%S}", fmt::localtime(std::time(nullptr)));
    j["cpu_threads"] = core::cpu_threads();
    if (gpu) j["device"] = cuda::device_info(cuda::current_device()).name;
    j["extents"] = c.geometry.extents;
    j["radii"] = c.geometry.radii;
    j["profiles"] = gr::to_json(rows);
    io::write_file_atomically(path, j.dump(2) + "\n");
    std::cerr << "wrote " << path << "\n";
    // The pies per backend and the GPU speedup per module (the paper's Figs. 3, 10-11) beside the JSON.
    const std::string why = io::run_plot_script("plot_bench_bh.py", {path});
    if (!why.empty()) std::cerr << why << "\n";
  }
  return 0;
}

}  // namespace

void add_bench_bh_command(CLI::App& bench, std::vector<Subcommand>& out) {
  io::Parameters p = gr::bh_parameters();
  p.add("steps", 100, "timed steps per profile (the paper profiles steps 5 to 105)").at_least(1);
  p.add("warmup", 4, "untimed steps before timing").at_least(0);
  io::declare_json_output(p, "also write the results as JSON to this file");
  out.push_back({std::make_unique<io::ParameterCommand>(
                     bench, "bh", "GH single black hole: per-module times per step (Jacobian, Deriv, Filter, GHEqns, "
                                  "ApplyBCs, Other) on one core, all cores and the GPU",
                     std::move(p), false),
                 run_bench_bh});
}

}  // namespace loom::app
