// `loom spectral`: one spectral operation (deriv, filter, diffjac, coordjac) on a whole tensor on a cube or a
// shell, with an analytic or random input; prints the error and the time (median of repeats), the rates against
// the operation's model, the strategy used (chosen by measurement with --strategy auto) and the operator cache.
#include <fmt/format.h>

#include <iostream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/json_output.hpp"
#include "spectral_common.hpp"

namespace loom::app {
namespace {

using namespace spectral_tools;

std::unique_ptr<spectral::Topology> topology_from(const io::Parameters& p) {
  const auto e = parse_ints("extents", p.get_string("extents"), 3, 1);
  const auto r = parse_reals("radii", p.get_string("radii"), 2);
  std::array<spectral::BasisKind, 3> bases{};
  const auto names = p.get_string("bases");
  std::stringstream s(names);
  std::string item;
  for (int d = 0; d < 3; ++d) {
    if (!std::getline(s, item, ','))
      throw UsageError(io::invalid_value_message("bases", names, "3 comma-separated bases (chebyshev, fourier)"));
    bases[d] = spectral::parse_basis_kind(item, "bases");
  }
  return spectral::make_topology(p.get_string("topology"), {e[0], e[1], e[2]}, {r[0], r[1]}, bases);
}

spectral::Strategy strategy_from(const io::Parameters& p, core::Backend backend, const spectral::Topology& t,
                                 spectral::TensorKind kind, spectral::Operation op, const spectral::FilterSpec& f,
                                 spectral::AngularMethod angular) {
  const auto& text = p.get_string("strategy");
  if (text == "auto") return fastest_strategy(&t, t.size(), kind, op, backend, f, angular);
  const auto s = spectral::parse_strategy(text, "strategy");
  if (spectral::backend_of(s) != backend)
    throw UsageError(io::invalid_value_message(
        "strategy", text,
        backend == core::Backend::cpu ? "reference or blas with backend cpu" : "batched, streamed or fused with backend cuda"));
  return s;
}

int run_spectral(const io::Parameters& p) {
  io::check_json_output(p);  // before any timing
  const auto topology = topology_from(p);
  const auto kind = spectral::parse_tensor_kind(p.get_string("tensor"), "tensor");
  const auto op = spectral::parse_operation(p.get_string("op"), "op");
  const auto filter = filter_spec(p);
  const auto backend = core::parse_backend(p.get_string("backend"), "backend");
  const auto angular = spectral::parse_angular_method(p.get_string("angular"), "angular");
  const auto strategy = strategy_from(p, backend, *topology, kind, op, filter, angular);
  if (!spectral::Workload::supported(topology.get(), op, strategy, filter, angular))
    throw UsageError("strategy = \"" + std::string(spectral::to_string(strategy)) +
                     "\": a matrix of this operation does not fit in shared memory (or varies per block); use "
                     "batched or streamed");
  spectral::Workload w(topology.get(), 0, kind, op, strategy, filter, angular);
  const auto time = time_workload(w, strategy, static_cast<int>(p.get_int("warmup")),
                                  static_cast<int>(p.get_int("repeats")));
  const double error = w.error();
  const auto work = w.work();
  const auto rates = perf::rates(work, time.median);
  const auto cache = w.cache().statistics();
  const auto e = topology->extents();
  std::cout << fmt::format("{} {}x{}x{} ({} points), tensor T_{} ({} components), op {}\n", topology->name(), e[0],
                           e[1], e[2], topology->size(), spectral::to_string(kind),
                           spectral::shape_of(kind).components(), spectral::to_string(op));
  std::cout << fmt::format("backend {}, strategy {}{}, angular {}\n", core::to_string(backend),
                           spectral::to_string(strategy),
                           p.get_string("strategy") == "auto" ? " (chosen by measurement)" : "",
                           spectral::to_string(angular));
  const bool filtering = op == spectral::Operation::filter || op == spectral::Operation::filter_csr;
  const char* what = op == spectral::Operation::deriv ? "relative error vs the exact gradient"
                     : filtering                      ? "relative change of the analytic field"
                                                      : "max difference vs the CPU kernel";
  std::cout << fmt::format("{}: {:.3e}\n", what, error);
  std::cout << fmt::format("time: median {:.3f} us (min {:.3f}, max {:.3f}, {} repeats)\n", time.median * 1e6,
                           time.min * 1e6, time.max * 1e6, time.repeats);
  std::cout << fmt::format("model: {:.4g} MB, {:.4g} MFlop; {:.2f} GB/s, {:.2f} GFlop/s\n", work.bytes / 1e6,
                           work.flops / 1e6, rates.bytes_per_second / 1e9, rates.flops_per_second / 1e9);
  std::cout << fmt::format("operator cache: {} entries, {} hits, {} misses, {:.3g} MB\n", cache.entries, cache.hits,
                           cache.misses, cache.bytes / 1e6);
  if (const auto& path = p.get_string("json"); !path.empty()) {
    nlohmann::json j = p.to_json();
    j["result"] = {{"topology", topology->name()}, {"points", topology->size()}, {"strategy", spectral::to_string(strategy)},
                   {"error", error},  {"median_s", time.median}, {"bytes", work.bytes}, {"flops", work.flops},
                   {"cache", {{"entries", cache.entries}, {"hits", cache.hits}, {"misses", cache.misses},
                              {"bytes", cache.bytes}}}};
    io::write_file_atomically(path, j.dump(2) + "\n");
  }
  return 0;
}

}  // namespace

void add_spectral_command(CLI::App& app, std::vector<Subcommand>& out) {
  io::Parameters p;
  p.add("topology", "shell", "cube (I1 x I1 x I1) or shell (I1 x S2)").one_of({"cube", "shell"});
  p.add("extents", "10,19,38", "points per coordinate: cube x,y,z; shell N_r,N_theta,N_phi with N_phi = 2 N_theta");
  p.add("radii", "1,3", "shell: inner,outer radius");
  p.add("bases", "chebyshev,chebyshev,chebyshev", "cube: basis per axis (chebyshev on [-1,1], fourier on [0,2pi))");
  p.add("op", "deriv", "deriv (Cartesian gradient), filter, filter_csr (shell), diffjac (eq. 8), coordjac");
  p.add("tensor", "aa", "tensor kind: scalar, a, aa, ab, abb, iaa, i, ij, ii");
  p.add("backend", "cpu", "where to run").one_of({"auto", "cpu", "cuda"});
  p.add("angular", "dense", "shell: dense angular matrices or the separable route (phi DFT, per-m Legendre)")
      .one_of({"dense", "separable"});
  p.add("strategy", "auto", "auto (fastest measured), reference, blas (cpu); batched, streamed, fused (cuda)");
  add_filter_parameters(p);
  p.add("repeats", 10, "timed repeats; the median is reported").at_least(1);
  p.add("warmup", 2, "untimed runs first").at_least(0);
  io::declare_json_output(p, "also write the result as JSON to this file");
  out.push_back({std::make_unique<io::ParameterCommand>(
                     app, "spectral", "One spectral operation on a tensor: error against the exact answer, and time",
                     std::move(p)),
                 run_spectral});
}

}  // namespace loom::app
