// `loom spectral`: one spectral operation (deriv, filter, diffjac, coordjac) on a whole tensor on a cube or a
// shell, with an analytic or random input; prints the error and the time (median of repeats), the rates against
// the operation's model, the strategy used (chosen by measurement with --strategy auto) and the operator cache.
// With --shells K (deriv on a shell): K copies of the shell in one call (spectral::ShellBatch), and the time per shell.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/json_output.hpp"
#include "loom/spectral/memory_need.hpp"
#include "loom/spectral/shell_batch.hpp"
#include "loom/spectral/strategy_choice.hpp"
#include "loom/spectral/tool_config.hpp"
#include "spectral_common.hpp"

namespace loom::app {
namespace {

using namespace spectral_tools;

std::string kinds_text(const std::vector<spectral::TensorKind>& kinds) {
  std::string names;
  int components = 0;
  for (auto k : kinds) {
    names += (names.empty() ? "T_" : " + T_") + std::string(spectral::to_string(k));
    components += spectral::shape_of(k).components();
  }
  return fmt::format("{} ({} components{})", names, components, kinds.size() > 1 ? ", one call" : "");
}

// Runs and times w (a Workload, or a ShellBatch of c.shells shells), then prints and writes what it measured.
template <class W>
void report(const io::Parameters& p, const spectral::SpectralToolConfig& c, const spectral::Topology& topology,
            const spectral::Route& route, W& w) {
  const auto strategy = route.strategy;
  const auto time = time_workload(w, strategy, c.warmup, c.repeats, c.calls);
  const double error = w.error();
  const auto work = w.work();
  const auto rates = perf::rates(work, time.median);
  const auto cache = w.cache().statistics();
  const auto e = topology.extents();
  std::cout << fmt::format("{} {}x{}x{} ({} points), tensor {}, op {}\n", topology.name(), e[0], e[1], e[2],
                           topology.size(), kinds_text(c.tensors), spectral::to_string(c.op));
  std::cout << fmt::format("backend {}, strategy {}{}, angular {}{}\n", core::to_string(c.backend),
                           spectral::to_string(strategy), c.strategy ? "" : " (chosen by measurement)",
                           spectral::to_string(route.angular), c.angular ? "" : " (chosen by measurement)");
  if (c.shells > 1)
    std::cout << fmt::format("shells: {} in one call (copies of this shell, each its own fields, inverse Jacobian and "
                             "output)\n",
                             c.shells);
  const bool filtering = c.op == spectral::Operation::filter || c.op == spectral::Operation::filter_csr;
  const char* what = c.op == spectral::Operation::deriv ? "relative error vs the exact gradient"
                     : filtering                      ? "relative change of the analytic field"
                                                      : "max difference vs the CPU kernel";
  std::cout << fmt::format("{}: {:.3e}\n", what, error);
  std::cout << fmt::format("time: median {:.3f} us (min {:.3f}, max {:.3f}, {} repeats{})\n", time.median * 1e6,
                           time.min * 1e6, time.max * 1e6, time.repeats,
                           c.calls > 1 ? fmt::format(" of {} back-to-back calls, per call", c.calls) : "");
  if (c.shells > 1)
    std::cout << fmt::format("time per shell: median {:.3f} us ({} shells per call)\n", time.median / c.shells * 1e6,
                             c.shells);
  std::cout << fmt::format("model: {:.4g} MB, {:.4g} MFlop; {:.2f} GB/s, {:.2f} GFlop/s\n", work.bytes / 1e6,
                           work.flops / 1e6, rates.bytes_per_second / 1e9, rates.flops_per_second / 1e9);
  std::cout << fmt::format("operator cache: {} entries, {} hits, {} misses, {:.3g} MB\n", cache.entries, cache.hits,
                           cache.misses, cache.bytes / 1e6);
  if (const auto& path = c.json; !path.empty()) {
    nlohmann::json j = p.to_json();
    j["result"] = {{"topology", topology.name()},  {"points", topology.size()},
                   {"strategy", spectral::to_string(strategy)}, {"angular", spectral::to_string(route.angular)},
                   {"components", w.components()},
                   {"calls", c.calls},             {"shells", c.shells},
                   {"error", error},               {"median_s", time.median},
                   {"median_per_shell_s", time.median / c.shells},
                   {"bytes", work.bytes},          {"flops", work.flops},
                   {"cache", {{"entries", cache.entries}, {"hits", cache.hits}, {"misses", cache.misses},
                              {"bytes", cache.bytes}}}};
    io::write_file_atomically(path, j.dump(2) + "\n");
  }
}

int run_spectral(const io::Parameters& p) {
  io::check_json_output(p);  // before any timing
  const auto c = spectral::spectral_tool_config(p);
  core::check_memory(spectral::spectral_memory_need(c, c.shells), c.backend == core::Backend::cuda,
                     spectral::spectral_memory_setting(c));
  const auto topology = spectral::make_topology(c);
  spectral::StrategyChooser chooser(&std::cout, c.choices);
  spectral::Route route;
  if (!c.angular) {  // strategy auto too (checked with the parameters)
    route = chooser.choose_route(topology.get(), topology->size(), c.tensors, c.op, c.backend, c.filter);
  } else {
    route.angular = *c.angular;
    route.strategy = c.strategy ? *c.strategy
                                : chooser.choose(topology.get(), topology->size(), c.tensors, c.op, c.backend,
                                                 c.filter, route.angular);
  }
  if (!spectral::Workload::supported(topology.get(), c.op, route.strategy, c.filter, route.angular))
    throw UsageError("strategy = \"" + std::string(spectral::to_string(route.strategy)) +
                     "\": a matrix of this operation does not fit in shared memory (or varies per block); use "
                     "batched or streamed");
  if (c.shells > 1) {
    spectral::ShellBatch batch(*topology, c.tensors, c.shells, route.strategy, route.angular);
    report(p, c, *topology, route, batch);
  } else {
    spectral::Workload w(topology.get(), 0, c.tensors, c.op, route.strategy, c.filter, route.angular);
    report(p, c, *topology, route, w);
  }
  return 0;
}

}  // namespace

void add_spectral_command(CLI::App& app, std::vector<Subcommand>& out) {
  io::Parameters p;
  spectral::declare_spectral_parameters(p);
  out.push_back({std::make_unique<io::ParameterCommand>(
                     app, "spectral", "One spectral operation on a tensor: error against the exact answer, and time",
                     std::move(p)),
                 run_spectral});
}

}  // namespace loom::app
