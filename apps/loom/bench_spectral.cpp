// `loom bench spectral`: the spectral-BH paper's sweeps. DiffJac and SpatialCoordJac on T_a..T_abb against N_x
// (its Fig. 4); the differentiator (Deriv with Trans) and the filter on cubes N = 8..64 (Fig. 6) and on the
// SingleBH (k = 0..10) and BBH (k = 1..16) shell sequences (Figs. 7-9); every strategy on each backend, the CPU
// on one core and on all. Rates against the operation's model and the ceilings measured in the same run (copy
// bandwidth for the Jacobians, DGEMM for the matrix operations); medians of repeats; a table and --json.
#include <cblas.h>
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <ctime>
#include <iostream>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "loom/core/backend.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/json_output.hpp"
#include "loom/perf/ceilings.hpp"
#include "loom/version_info.hpp"
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
  int warmup, repeats;
  std::vector<core::Backend> backends;
  std::vector<int> cpu_threads;
  std::vector<Strategy> strategies;
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
             spectral::TensorKind kind, Operation op, const spectral::FilterSpec& f,
             spectral::AngularMethod angular = spectral::AngularMethod::dense) {
  const bool jacobian = op == Operation::diffjac || op == Operation::coordjac;
  for (auto b : c.backends)
    for (auto s : c.strategies) {
      if (spectral::backend_of(s) != b || (jacobian && s == Strategy::reference)) continue;
      if (jacobian && s != Strategy::blas && s != Strategy::batched) continue;  // one kernel per backend
      if (!jacobian && !spectral::Workload::supported(t, op, s, f, angular)) continue;
      const std::vector<int> threads = b == core::Backend::cpu ? c.cpu_threads : std::vector<int>{0};
      for (int n : threads) {
        if (n > 0) set_threads(n);
        spectral::Workload w(t, points, kind, op, s, f, angular);
        Row r;
        r.sweep = sweep;
        r.op = spectral::to_string(op);
        r.grid = grid;
        r.tensor = spectral::to_string(kind);
        r.backend = core::to_string(b);
        r.strategy = jacobian ? std::string("kernel") : std::string(spectral::to_string(s));
        if (angular == spectral::AngularMethod::separable) r.strategy += "/sep";
        r.points = w.points();
        r.threads = n;
        r.time = time_workload(w, s, c.warmup, c.repeats);
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

void shell_sweep(Context& c, const std::string& name, const std::vector<int>& ks, std::array<int, 6> law,
                 spectral::TensorKind kind, const spectral::FilterSpec& f) {
  for (int k : ks) {
    const int nr = law[0] + law[1] * k, nt = law[2] + law[3] * k;
    const auto t = spectral::make_topology("shell", {nr, nt, 2 * nt}, {1, 3});
    const std::string grid = fmt::format("{}x{}x{}", nr, nt, 2 * nt);
    for (auto op : {Operation::deriv, Operation::filter})
      for (auto angular : {spectral::AngularMethod::dense, spectral::AngularMethod::separable})
        measure(c, name, grid, t.get(), 0, kind, op, f, angular);
    measure(c, name, grid, t.get(), 0, kind, Operation::filter_csr, f);
  }
}

std::vector<int> range(int first, int last) {
  std::vector<int> v;
  for (int k = first; k <= last; ++k) v.push_back(k);
  return v;
}

// --sweeps: all, or a comma-separated list of the sweeps' names.
std::set<std::string> parse_sweeps(const io::Parameters& p) {
  const std::set<std::string> known = {"all", "jacobian", "cube", "singlebh", "bbh"};
  std::set<std::string> out;
  std::stringstream list(p.get_string("sweeps"));
  for (std::string item; std::getline(list, item, ',');) out.insert(item);
  if (out.empty() || std::any_of(out.begin(), out.end(), [&](const std::string& s) { return !known.count(s); }))
    throw UsageError(io::invalid_value_message("sweeps", p.value("sweeps"),
                                               "all, or a comma-separated list of jacobian, cube, singlebh, bbh"));
  return out;
}

int run_bench_spectral(const io::Parameters& p) {
  io::check_json_output(p);  // before any timing
  const bool quick = p.get_bool("quick");
  Context c;
  c.warmup = static_cast<int>(p.get_int("warmup"));
  c.repeats = quick ? 3 : static_cast<int>(p.get_int("repeats"));
  const auto& backend = p.get_string("backend");
  c.backends = backend == "all" ? core::available_backends() : std::vector{core::parse_backend(backend, "backend")};
  for (const auto& item : parse_ints("cpu_threads", p.get_string("cpu_threads"), 0, 0))
    c.cpu_threads.push_back(item == 0 ? core::cpu_threads() : item);
  for (auto s : spectral::available_strategies())
    if (s != Strategy::reference || p.get_bool("reference")) c.strategies.push_back(s);
  const auto f = filter_spec(p);
  const auto kind = spectral::parse_tensor_kind(p.get_string("tensor"), "tensor");
  const auto sweeps = parse_sweeps(p);
  auto wants = [&](const char* s) { return sweeps.count("all") + sweeps.count(s) > 0; };
  // The lists are read before any timing, so that a bad one is refused first.
  const auto points = parse_ints("points", quick ? std::string("1000,100000") : p.get_string("points"), 0, 1);
  const auto cube_n = parse_ints("cube_n", quick ? std::string("8,16") : p.get_string("cube_n"), 0, 2);

  for (auto b : c.backends) {
    auto options = quick ? perf::quick_ceiling_options() : perf::CeilingOptions{};
    auto measured = perf::measure_ceilings(b, options);
    c.ceilings.insert(c.ceilings.end(), measured.begin(), measured.end());
  }
  perf::print_table(std::cout, c.ceilings);
  std::cout << fmt::format("\n{:<9} {:<8} {:<12} {:>8} {:<4} {:<5} {:>3} {:<13} {:>11} {:>8} {:>8} {:>7} {:>9}\n", "sweep",
                           "op", "grid", "points", "T", "where", "thr", "strategy", "median_us", "GB/s", "GF/s",
                           "ceil", "error");
  if (wants("jacobian"))
    for (int n : points)
      for (auto k : {spectral::TensorKind::a, spectral::TensorKind::aa, spectral::TensorKind::ab,
                     spectral::TensorKind::abb})
        for (auto op : {Operation::diffjac, Operation::coordjac})
          measure(c, "jacobian", "-", nullptr, n, k, op, f);
  if (wants("cube"))
    for (int n : cube_n) {
      const auto t = spectral::make_topology("cube", {n, n, n}, {0, 0});
      for (auto op : {Operation::deriv, Operation::filter})
        measure(c, "cube", fmt::format("{}^3", n), t.get(), 0, kind, op, f);
    }
  // the paper's shell sequences: N_r = 9 + 4k, N_theta = 6 + 2k (SingleBH); N_r = 4 + k, N_theta = 7 + 2k (BBH)
  if (wants("singlebh")) shell_sweep(c, "singlebh", quick ? range(0, 1) : range(0, 10), {9, 4, 6, 2, 0, 0}, kind, f);
  if (wants("bbh")) shell_sweep(c, "bbh", quick ? range(1, 2) : range(1, 16), {4, 1, 7, 2, 0, 0}, kind, f);

  if (const auto& path = p.get_string("json"); !path.empty()) {
    nlohmann::json j;
    j["loom"] = {{"version", LOOM_VERSION}, {"git_commit", LOOM_GIT_COMMIT}, {"build_type", LOOM_BUILD_TYPE}};
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
  p.add("backend", "all", "backends to measure").one_of({"all", "auto", "cpu", "cuda"});
  p.add("sweeps", "all", "which sweeps: all, or a list of jacobian, cube, singlebh, bbh");
  p.add("tensor", "abb", "tensor kind of the cube and shell sweeps");
  p.add("points", "1000,10000,100000,1000000,4000000", "jacobian sweep: N_x values");
  p.add("cube_n", "8,16,24,32,40,48,56,64", "cube sweep: points per axis");
  p.add("cpu_threads", "1,0", "CPU thread counts to time (0: all cores)");
  p.add("reference", false, "also time the FFT reference (slow)");
  add_filter_parameters(p);
  p.add("repeats", 10, "timed repeats; the median is reported").at_least(1);
  p.add("warmup", 2, "untimed runs first").at_least(0);
  p.add("quick", false, "small sizes and few repeats (a smoke test, not a measurement)");
  io::declare_json_output(p, "also write the rows as JSON to this file");
  out.push_back({std::make_unique<io::ParameterCommand>(bench, "spectral",
                                                        "The spectral-BH paper's sweeps: Jacobians, cubes, shells",
                                                        std::move(p), false),
                 run_bench_spectral});
}

}  // namespace loom::app
