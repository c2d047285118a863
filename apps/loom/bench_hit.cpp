// `loom bench hit`: seconds per RK4 step of the pseudo-spectral solver for each grid size on each backend, with
// the FFT floor of the same step measured in the same run (src/loom/hit/benchmark.hpp); a table, and JSON.
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/comm/rank_device.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/hit/benchmark.hpp"
#include "loom/hit/callbacks_unavailable.hpp"
#include "loom/hit/config.hpp"
#include "loom/hit/rank_checks.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/json_output.hpp"
#include "loom/io/build_identity.hpp"

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

// One row's fft.callbacks, fft.pruned and fft.pruned_form; "both" gives a row of each value. Pruning applies without
// callbacks only (they fuse into the plain transforms), a form to pruned rows only.
struct FftRow {
  bool callbacks;
  hit::Pruning pruning;
  hit::PrunedForm form;
};

std::vector<FftRow> fft_rows(const io::Parameters& p, const hit::SolverOptions& o) {
  const std::string &callbacks = p.get_string("fft.callbacks"), &pruned = p.get_string("fft.pruned"),
                    &form = p.get_string("fft.pruned_form");
  std::vector<FftRow> out;
  if (callbacks != "off") out.push_back({true, o.pruning, o.pruned_form});
  if (callbacks == "on") return out;
  if (pruned == "both" || pruned == "off") out.push_back({false, hit::Pruning::off, o.pruned_form});
  if (pruned == "off") return out;
  const hit::Pruning pruning = pruned == "both" ? hit::Pruning::on : o.pruning;
  if (form == "both") {
    out.push_back({false, pruning, hit::PrunedForm::planes});
    out.push_back({false, pruning, hit::PrunedForm::columns});
  } else {
    out.push_back({false, pruning, o.pruned_form});
  }
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
  // The CPU's grids against the host's free memory, as the GPU's against the device's: a size that cannot fit is
  // skipped with a line, and a run none of whose sizes fits is refused before the ceilings.
  auto host_need = [&](Index n) {
    return core::resident_base_bytes + hit::solver_bytes(n, core::Backend::cpu, o.solver, world.size());
  };
  if (std::find(backends.begin(), backends.end(), core::Backend::cpu) != backends.end()) {
    const Index smallest = *std::min_element(sizes.begin(), sizes.end());
    core::check_memory({host_need(smallest), 0}, false,
                       fmt::format("sizes = \"{}\" (grid {}^3 on the cpu, the smallest)", p.get_string("sizes"),
                                   smallest));
  }
  for (auto b : backends)
    for (Index n : sizes)
      for (const FftRow& row : fft_rows(p, o.solver)) {
        const bool with_callbacks = row.callbacks;
        o.solver.callbacks = row.callbacks;
        o.solver.pruning = row.pruning;
        o.solver.pruned_form = row.form;
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
        const double host = core::available_host_bytes();
        if (b == core::Backend::cpu && host > 0 && host_need(n) > host) {
          if (root) std::cerr << fmt::format("hit: {}^3 skipped on cpu: needs {}\n", n, core::gib_text(host_need(n)));
          skipped.push_back({{"backend", "cpu"}, {"n", n}, {"memory_bytes", host_need(n)}});
          continue;
        }
        const double need = hit::solver_bytes(n, b, o.solver, world.size());
        if (b == core::Backend::cuda && need > 0.9 * double(cuda::device_info(cuda::current_device()).free_memory)) {
          std::cerr << fmt::format("hit: {}^3 skipped on cuda: needs {:.1f} GiB\n", n, need / double(1 << 30));
          skipped.push_back({{"backend", "cuda"}, {"n", n}, {"memory_bytes", need}});
          continue;
        }
        if (root)
          std::cerr << fmt::format("hit: timing {}^3 on {} ({} ranks, callbacks {}, pruned {})\n", n, core::to_string(b),
                                   world.size(), with_callbacks ? "on" : "off",
                                   hit::uses_pruned_transforms(b, o.solver, world.size())
                                       ? (row.form == hit::PrunedForm::planes ? "planes" : "columns")
                                       : "off");
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
    j["loom"] = loom::io::build_identity();
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
