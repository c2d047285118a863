// `loom bench hit`: seconds per RK4 step of the pseudo-spectral solver for each grid size on each backend, with
// the FFT floor of the same step measured in the same run (src/loom/hit/benchmark.hpp); a table, and JSON.
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <ctime>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/comm/rank_device.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/hit/benchmark.hpp"
#include "loom/hit/callbacks_unavailable.hpp"
#include "loom/hit/config.hpp"
#include "loom/hit/rank_checks.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/json_output.hpp"
#include "loom/version_info.hpp"

namespace loom::app {
namespace {

std::vector<Index> parse_sizes(const io::Parameters& p) {
  std::vector<Index> out;
  std::stringstream s(p.get_string("sizes"));
  for (std::string item; std::getline(s, item, ',');) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < 8 || v > hit::max_grid_n || v % 2 != 0)
      throw UsageError(io::invalid_value_message("sizes", p.value("sizes"), "a comma-separated list of even n in [8, " + std::to_string(hit::max_grid_n) + "]"));
    out.push_back(v);
  }
  if (out.empty()) throw UsageError(io::invalid_value_message("sizes", p.value("sizes"), "at least one n"));
  return out;
}

// The (fft.callbacks, fft.pruned) rows: pruning applies without callbacks only (they fuse into the plain transforms).
std::vector<std::pair<bool, hit::Pruning>> bench_rows(const std::vector<bool>& callbacks,
                                                      const std::vector<hit::Pruning>& pruned) {
  std::vector<std::pair<bool, hit::Pruning>> out;
  for (bool c : callbacks)
    for (std::size_t i = 0; i < (c ? std::size_t(1) : pruned.size()); ++i) out.emplace_back(c, pruned[i]);
  return out;
}

int run_bench_hit(const io::Parameters& p) {
  io::check_json_output(p);  // before any timing
  const auto sizes = parse_sizes(p);
  const std::string& choice = p.get_string("backend");
  const auto backends = choice == "all" ? core::available_backends()
                                        : std::vector<core::Backend>{core::parse_backend(choice, "backend")};
  hit::BenchmarkOptions o;
  o.warmup = int(p.get_int("warmup"));
  o.repeats = int(p.get_int("repeats"));
  o.solver = hit::solver_options(p, o.solver.nu);
  std::vector<hit::StepTiming> rows;
  nlohmann::json skipped = nlohmann::json::array();
  // Under mpiexec: slabs over the ranks (hit/rank_checks.hpp), rank 0 reporting.
  const comm::Communicator world = comm::Communicator::world();
  const bool root = world.is_root();
  // Each rank's GPU (ranks share one where there are fewer) before anything is allocated on a device.
  if (world.size() > 1) comm::select_rank_device(world);
  const std::string& callbacks = p.get_string("fft.callbacks");
  const std::vector<bool> callback_rows =
      callbacks == "both" ? std::vector<bool>{false, true} : std::vector<bool>{callbacks == "on"};
  const std::string& pruned = p.get_string("fft.pruned");
  const std::vector<hit::Pruning> pruned_rows =
      pruned == "both" ? std::vector<hit::Pruning>{hit::Pruning::off, hit::Pruning::on}
                       : std::vector<hit::Pruning>{o.solver.pruning};
  for (auto b : backends)
    for (Index n : sizes)
      for (auto [with_callbacks, pruning] : bench_rows(callback_rows, pruned_rows)) {
        o.solver.callbacks = with_callbacks;
        o.solver.pruning = pruning;
        if (world.size() > 1) {
          hit::HitConfig c;
          c.backend = b;
          c.grid = {n};
          c.solver = o.solver;
          try {
            hit::check_ranks(c, world.size());
          } catch (const UsageError& e) {
            if (root) std::cerr << fmt::format("hit: {}^3 skipped on {}: {}\n", n, core::to_string(b), e.what());
            skipped.push_back({{"backend", std::string(core::to_string(b))}, {"n", n}, {"reason", e.what()}});
            continue;
          }
        }
        const double need = hit::solver_bytes(n, o.solver.dealiasing);
        if (b == core::Backend::cuda && need > 0.9 * double(cuda::device_info(cuda::current_device()).free_memory)) {
          std::cerr << fmt::format("hit: {}^3 skipped on cuda: needs {:.1f} GiB\n", n, need / double(1 << 30));
          skipped.push_back({{"backend", "cuda"}, {"n", n}, {"memory_bytes", need}});
          continue;
        }
        if (root)
          std::cerr << fmt::format("hit: timing {}^3 on {} ({} ranks, callbacks {}, fft.pruned {})\n", n,
                                   core::to_string(b), world.size(), with_callbacks ? "on" : "off",
                                   pruning == hit::Pruning::on ? "on" : pruning == hit::Pruning::off ? "off" : "auto");
        if (!with_callbacks || b != core::Backend::cuda || world.size() > 1) {
          rows.push_back(hit::time_step(b, n, o, world));
          continue;
        }
        // cuFFT links the callbacks while planning: a failure there (a toolkit or driver without LTO callbacks)
        // skips the row, keeping the others of the run.
        try {
          rows.push_back(hit::time_step(b, n, o, world));
        } catch (const hit::CallbacksUnavailable& e) {
          std::cerr << fmt::format("hit: {}^3 with callbacks skipped: {}\n", n, e.what());
          skipped.push_back({{"backend", "cuda"}, {"n", n}, {"callbacks", true}, {"reason", e.what()}});
        }
      }
  if (!root) return 0;
  hit::print_step_table(std::cout, rows);
  if (const auto& path = p.get_string("json"); !path.empty()) {
    nlohmann::json j;
    j["loom"] = {{"version", LOOM_VERSION}, {"git_commit", LOOM_GIT_COMMIT}, {"build_type", LOOM_BUILD_TYPE}};
    j["date"] = fmt::format("{:%Y-%m-%dT%H:%M:%S}", fmt::localtime(std::time(nullptr)));
    j["cpu_threads"] = core::cpu_threads();
    j["ranks"] = world.size();
    if (core::backend_available(core::Backend::cuda)) j["device"] = cuda::device_info(cuda::current_device()).name;
    j["scheme"] = p.get_string("scheme");
    j["dealias"] = p.get_string("dealias");
    j["steps"] = hit::to_json(rows);
    j["skipped"] = skipped;
    io::write_file_atomically(path, j.dump(2) + "\n");
    std::cerr << "wrote " << path << "\n";
  }
  return 0;
}

}  // namespace

void add_bench_hit_command(CLI::App& bench, std::vector<Subcommand>& out) {
  io::Parameters p;
  p.add("backend", "all", "backend to measure").one_of({"all", "auto", "cpu", "cuda"});
  p.add("sizes", "64,128,256,512", "grid sizes n (n^3 points), comma-separated");
  hit::declare_solver_keys(p, true);
  p.add("repeats", 5, "timed repeats; the median is reported").at_least(1);
  p.add("warmup", 1, "untimed runs before timing").at_least(0);
  io::declare_json_output(p, "also write the results as JSON to this file");
  out.push_back({std::make_unique<io::ParameterCommand>(
                     bench, "hit", "Pseudo-spectral Navier-Stokes: seconds per RK4 step against its FFT floor",
                     std::move(p), false),
                 run_bench_hit});
}

}  // namespace loom::app
