// `loom bench spectral`: the spectral-BH paper's sweeps. DiffJac and SpatialCoordJac on T_a..T_abb against N_x
// (its Fig. 4); the differentiator (Deriv with Trans) and the filter on cubes N = 8..64 (Fig. 6) and on the
// SingleBH (k = 0..10) and BBH (k = 1..16) shell sequences (Figs. 7-9); every strategy on each backend, the CPU
// on one core and on all. Rates against the operation's model and the ceilings measured in the same run (copy
// bandwidth for the Jacobians, DGEMM for the matrix operations); medians of repeats; a table and --json.
#include <cblas.h>
#include <fmt/format.h>
#include <omp.h>

#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/json_output.hpp"
#include "loom/perf/ceilings.hpp"
#include "loom/io/build_identity.hpp"
#include "loom/spectral/memory_need.hpp"
#include "loom/spectral/tool_config.hpp"
#include "spectral_common.hpp"

namespace loom::app {
namespace {

using namespace spectral_tools;
using spectral::Operation;
using spectral::Strategy;

struct Row {
  std::string sweep, op, grid, tensor, backend, strategy;
  Index points = 0;
  int threads = 0;
  perf::TimingSummary time;
  perf::Work work;
  double error = 0, fraction = 0;  // fraction of the relevant ceiling (0: none measured)
};

struct Context {
  spectral::BenchSpectralConfig config;
  std::vector<perf::Ceiling> ceilings;
  std::vector<Row> rows;
};

void set_threads(int n) {
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
}

double ceiling_fraction(const Context& c, core::Backend b, Operation op, const perf::Work& w, double seconds) {
  const bool jacobian = op == Operation::diffjac || op == Operation::coordjac;
  const auto ceiling = jacobian ? perf::copy_bandwidth(c.ceilings, b) : perf::find_ceiling(c.ceilings, b, "dgemm");
  if (!ceiling || seconds <= 0) return 0;
  return (jacobian ? w.bytes : w.flops) / seconds / *ceiling;
}

// Times one operation with every strategy of every backend (and CPU thread count) that applies.
void measure(Context& c, const std::string& sweep, const std::string& grid, const spectral::Topology* t, Index points,
             const std::vector<spectral::TensorKind>& kinds, Operation op,
             spectral::AngularMethod angular = spectral::AngularMethod::dense) {
  const bool jacobian = op == Operation::diffjac || op == Operation::coordjac;
  const auto& f = c.config.filter;
  for (auto b : c.config.backends)
    for (auto s : c.config.strategies) {
      if (spectral::backend_of(s) != b || (jacobian && s == Strategy::reference)) continue;
      if (jacobian && s != Strategy::blas && s != Strategy::batched) continue;  // one kernel per backend
      if (!jacobian && !spectral::Workload::supported(t, op, s, f, angular)) continue;
      const std::vector<int> threads = b == core::Backend::cpu ? c.config.cpu_threads : std::vector<int>{0};
      for (int n : threads) {
        if (n > 0) set_threads(n);
        spectral::Workload w(t, points, kinds, op, s, f, angular);
        Row r;
        r.sweep = sweep;
        r.op = spectral::to_string(op);
        r.grid = grid;
        for (auto k : kinds) r.tensor += (r.tensor.empty() ? "" : "+") + std::string(spectral::to_string(k));
        r.backend = core::to_string(b);
        r.strategy = jacobian ? std::string("kernel") : std::string(spectral::to_string(s));
        if (angular == spectral::AngularMethod::separable) r.strategy += "/sep";
        r.points = w.points();
        r.threads = n;
        r.time = time_workload(w, s, c.config.warmup, c.config.repeats);
        r.work = w.work();
        r.error = w.error();
        r.fraction = ceiling_fraction(c, b, op, r.work, r.time.median);
        std::cout << fmt::format("{:<9} {:<8} {:<12} {:>8} {:<4} {:<5} {:>3} {:<13} {:>11.2f} {:>8.2f} {:>8.2f} {:>6.1f}% {:>9.2e}\n",
                                 r.sweep, r.op, r.grid, r.points, r.tensor, r.backend, r.threads, r.strategy,
                                 r.time.median * 1e6, r.work.bytes / r.time.median / 1e9,
                                 r.work.flops / r.time.median / 1e9, 100 * r.fraction, r.error)
                  << std::flush;
        c.rows.push_back(std::move(r));
      }
    }
  set_threads(core::cpu_threads());
}

// Issue 18's k = 10 target as a line per shell and backend: the fastest derivative route measured on the grid
// against the dense batched cuBLAS path and its fraction of the DGEMM ceiling (>= 60%, or slower in wall time
// than the separable route).
void print_fastest_route(const Context& c, const std::string& sweep, const std::string& grid) {
  for (auto b : c.config.backends) {
    const Row* best = nullptr;
    const Row* dense = nullptr;
    for (const auto& r : c.rows) {
      if (r.sweep != sweep || r.grid != grid || r.op != "deriv" || r.backend != core::to_string(b)) continue;
      if (!best || r.time.median < best->time.median) best = &r;
      if (r.strategy == "batched") dense = &r;
    }
    if (!best) continue;
    std::cout << fmt::format("  fastest deriv on {} {}: {} {:.2f} us", grid, core::to_string(b), best->strategy,
                             best->time.median * 1e6);
    if (dense)
      std::cout << fmt::format(" (dense batched {:.2f} us, {:.1f}% of DGEMM)", dense->time.median * 1e6,
                               100 * dense->fraction);
    std::cout << "\n";
  }
}

void shell_sweep(Context& c, const std::string& name, const std::vector<int>& ks, std::array<int, 6> law) {
  const auto& kinds = c.config.tensors;
  for (int k : ks) {
    const int nr = law[0] + law[1] * k, nt = law[2] + law[3] * k;
    const auto t = spectral::make_topology("shell", {nr, nt, 2 * nt}, {1, 3});
    const std::string grid = fmt::format("{}x{}x{}", nr, nt, 2 * nt);
    for (auto op : {Operation::deriv, Operation::filter})
      for (auto angular : {spectral::AngularMethod::dense, spectral::AngularMethod::separable})
        measure(c, name, grid, t.get(), 0, kinds, op, angular);
    if (kinds.size() == 1) measure(c, name, grid, t.get(), 0, kinds, Operation::filter_csr);
    print_fastest_route(c, name, grid);
  }
}

std::vector<int> range(int first, int last) {
  std::vector<int> v;
  for (int k = first; k <= last; ++k) v.push_back(k);
  return v;
}

int run_bench_spectral(const io::Parameters& p) {
  io::check_json_output(p);  // before any timing
  Context c;
  c.config = spectral::bench_spectral_config(p);
  const auto& cfg = c.config;
  const auto memory = spectral::bench_spectral_memory_need(cfg);  // the sweeps' largest point, before the ceilings
  core::check_memory(memory.need, memory.need.device_bytes > 0, memory.setting);
  for (auto b : cfg.backends) {
    auto options = cfg.quick ? perf::quick_ceiling_options() : perf::CeilingOptions{};
    auto measured = perf::measure_ceilings(b, options);
    c.ceilings.insert(c.ceilings.end(), measured.begin(), measured.end());
  }
  perf::print_table(std::cout, c.ceilings);
  std::cout << fmt::format("\n{:<9} {:<8} {:<12} {:>8} {:<4} {:<5} {:>3} {:<13} {:>11} {:>8} {:>8} {:>7} {:>9}\n", "sweep",
                           "op", "grid", "points", "T", "where", "thr", "strategy", "median_us", "GB/s", "GF/s",
                           "ceil", "error");
  if (cfg.wants(spectral::BenchSweep::jacobian))
    for (int n : cfg.points)
      for (auto k : {spectral::TensorKind::a, spectral::TensorKind::aa, spectral::TensorKind::ab,
                     spectral::TensorKind::abb})
        for (auto op : {Operation::diffjac, Operation::coordjac})
          measure(c, "jacobian", "-", nullptr, n, {k}, op);
  if (cfg.wants(spectral::BenchSweep::cube))
    for (int n : cfg.cube_n) {
      const auto t = spectral::make_topology("cube", {n, n, n}, {0, 0});
      for (auto op : {Operation::deriv, Operation::filter})
        measure(c, "cube", fmt::format("{}^3", n), t.get(), 0, cfg.tensors, op);
    }
  // the paper's shell sequences: N_r = 9 + 4k, N_theta = 6 + 2k (SingleBH); N_r = 4 + k, N_theta = 7 + 2k (BBH)
  if (cfg.wants(spectral::BenchSweep::singlebh))
    shell_sweep(c, "singlebh", cfg.quick ? range(0, 1) : range(0, 10), {9, 4, 6, 2, 0, 0});
  if (cfg.wants(spectral::BenchSweep::bbh)) shell_sweep(c, "bbh", cfg.quick ? range(1, 2) : range(1, 16), {4, 1, 7, 2, 0, 0});

  if (const auto& path = cfg.json; !path.empty()) {
    nlohmann::json j;
    j["loom"] = loom::io::build_identity();
    j["parameters"] = p.to_json();
    j["ceilings"] = perf::to_json(c.ceilings);
    for (const auto& r : c.rows)
      j["rows"].push_back({{"sweep", r.sweep},     {"op", r.op},          {"grid", r.grid},
                           {"points", r.points},   {"tensor", r.tensor},  {"backend", r.backend},
                           {"threads", r.threads}, {"strategy", r.strategy}, {"median_s", r.time.median},
                           {"min_s", r.time.min},  {"bytes", r.work.bytes}, {"flops", r.work.flops},
                           {"ceiling_fraction", r.fraction}, {"error", r.error}});
    io::write_file_atomically(path, j.dump(2) + "\n");
    std::cerr << "wrote " << path << "\n";
  }
  return 0;
}

}  // namespace

void add_bench_spectral_command(CLI::App& bench, std::vector<Subcommand>& out) {
  io::Parameters p;
  spectral::declare_bench_spectral_parameters(p);
  out.push_back({std::make_unique<io::ParameterCommand>(bench, "spectral",
                                                        "The spectral-BH paper's sweeps: Jacobians, cubes, shells",
                                                        std::move(p), false),
                 run_bench_spectral});
}

}  // namespace loom::app
