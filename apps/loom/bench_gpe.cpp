// `loom bench gpe`: the leapfrog step of the DEC-GPE integrator on each grid, backend and size, against the
// copy bandwidth measured in the same run (the kernel is memory-bound: 48 bytes per DOF and step). Under mpiexec:
// its strong and weak scaling over the job's ranks (the paper's Fig. 9; tools/fit_scaling.py fits and plots them).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/comm/rank_device.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/dec/grid_key.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/gpe/bench/benchmark.hpp"
#include "loom/gpe/bench/scaling_benchmark.hpp"
#include "loom/gpe/run/memory_need.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/json_output.hpp"
#include "loom/perf/ceilings.hpp"
#include "loom/io/build_identity.hpp"

namespace loom::app {
namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string item; std::getline(s, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// A list that must name something to time: at least one item.
std::vector<std::string> nonempty_list(const io::Parameters& p, const std::string& key, const std::string& allowed) {
  auto items = split_list(p.get_string(key));
  if (items.empty())
    throw UsageError(io::invalid_value_message(key, p.value(key), "a comma-separated list of " + allowed));
  return items;
}

int run_single_rank_table(const io::Parameters& p);

constexpr double max_bench_dof = 1e12;  // --dof: past any machine (16 TB of levels), and n^3 fits an int's n

// A whole decimal integer, or -1.
int parse_count(const std::string& text) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  return (*end == '\0' && !text.empty() && v >= 0 && v <= 1 << 20) ? static_cast<int>(v) : -1;
}

// One list of the soa launch choices: every item "auto" or accepted by `valid`, at least one item.
std::vector<std::string> soa_choice_list(const io::Parameters& p, const std::string& key,
                                         bool (*valid)(const std::string&), const std::string& allowed) {
  const auto items = split_list(p.get_string(key));
  const bool ok = !items.empty() && std::all_of(items.begin(), items.end(),
                                                [&](const std::string& item) { return item == "auto" || valid(item); });
  if (!ok)
    throw UsageError(io::invalid_value_message(key, p.value(key), "auto or a comma-separated list of " + allowed));
  return items;
}

// The soa launch choices timed on the GPU: every combination of the lists; a combination with "auto" in any list
// is the grid's default_soa_tuning (nullopt).
std::vector<std::optional<gpe::SoaTuning>> parse_soa_tunings(const io::Parameters& p) {
  const auto bands = soa_choice_list(
      p, "soa_band_rows", [](const std::string& v) { return parse_count(v) >= 0; }, "integers >= 0");
  const auto vertices = soa_choice_list(
      p, "soa_vertices", [](const std::string& v) { return v == "1" || v == "2"; }, "1 and 2");
  const auto tiles = soa_choice_list(
      p, "soa_tiles", [](const std::string& v) { return v == "chunk" || v == "row"; }, "chunk and row");
  const auto orders = soa_choice_list(
      p, "soa_order", [](const std::string& v) { return v == "stride" || v == "counter"; }, "stride and counter");
  const auto columns = soa_choice_list(
      p, "soa_columns", [](const std::string& v) { return parse_count(v) >= 0; }, "integers >= 0");
  std::vector<std::optional<gpe::SoaTuning>> out;
  for (const auto& b : bands)
    for (const auto& v : vertices)
      for (const auto& t : tiles)
        for (const auto& o : orders)
          for (const auto& c : columns)
            if (b == "auto" || v == "auto" || t == "auto" || o == "auto" || c == "auto")
              out.emplace_back(std::nullopt);
            else
              out.emplace_back(
                  gpe::SoaTuning{parse_count(b), parse_count(v), t == "row", o == "counter", parse_count(c)});
  return out;
}

// N counts >= 1 joined by 'x' ("16x8", "204x203x203"); nullopt when malformed.
template <std::size_t N>
std::optional<std::array<int, N>> parse_extents(const std::string& text) {
  std::array<int, N> out{};
  std::size_t start = 0;
  for (std::size_t d = 0; d < N; ++d) {
    const std::size_t end = d + 1 < N ? text.find('x', start) : text.size();
    if (end == std::string::npos) return std::nullopt;
    out[d] = parse_count(text.substr(start, end - start));
    if (out[d] < 1) return std::nullopt;
    start = end + 1;
  }
  return out;
}

// The march kernel's tilings timed on the GPU: every tile of --march_tile with every segment of --march_layers and
// every depth of --march_ahead and row layout of --march_rows; "auto" in the first two lists is the grid's
// default_march_tiling (nullopt), in the others MarchTiling's default.
std::vector<std::optional<gpe::MarchTiling>> parse_march_tilings(const io::Parameters& p) {
  const auto tiles = soa_choice_list(
      p, "march_tile", [](const std::string& v) { return parse_extents<2>(v).has_value(); }, "tiles such as 16x8");
  const auto layers = soa_choice_list(
      p, "march_layers", [](const std::string& v) { return v == "balanced" || parse_count(v) >= 1; },
      "integers >= 1 and balanced");
  const auto aheads = soa_choice_list(
      p, "march_ahead",
      [](const std::string& v) {
        const int a = parse_count(v);
        return a >= 1 && a <= gpe::march_most_ahead;
      },
      "1 and 2");
  const auto rows = soa_choice_list(
      p, "march_rows", [](const std::string& v) { return v == "pitched" || v == "lattice"; }, "pitched and lattice");
  std::vector<std::optional<gpe::MarchTiling>> out;
  for (const auto& t : tiles) {
    const auto tile = t == "auto" ? std::nullopt : parse_extents<2>(t);  // "16x8": (16, 8)
    for (const auto& l : layers)
      for (const auto& a : aheads)
        for (const auto& r : rows)
          if (!tile || l == "auto")
            out.emplace_back(std::nullopt);
          else
            out.emplace_back(gpe::MarchTiling{(*tile)[0], (*tile)[1], l == "balanced" ? 0 : parse_count(l),
                                              a == "auto" ? gpe::MarchTiling{}.ahead : parse_count(a),
                                              r == "auto" ? gpe::MarchTiling{}.pitched_rows : r == "pitched"});
  }
  return out;
}

std::array<int, 3> parse_structures(const io::Parameters& p, const std::string& key) {
  const auto items = split_list(p.get_string(key));
  std::array<int, 3> n{};
  bool ok = items.size() == 3;
  for (std::size_t d = 0; ok && d < 3; ++d) {
    n[d] = parse_count(items[d]);
    ok = n[d] >= 1;
  }
  if (!ok) throw UsageError(io::invalid_value_message(key, p.value(key), "three structure counts nx,ny,nz >= 1"));
  return n;
}

// --lattices: boxes of nx x ny x nz structures, such as 204x203x203,203x204x203 (empty: none).
std::vector<std::array<int, 3>> parse_lattices(const io::Parameters& p) {
  std::vector<std::array<int, 3>> out;
  for (const auto& item : split_list(p.get_string("lattices"))) {
    const auto n = parse_extents<3>(item);
    if (!n)
      throw UsageError(io::invalid_value_message("lattices", p.value("lattices"),
                                                 "a comma-separated list of NXxNYxNZ structure counts >= 1"));
    out.push_back(*n);
  }
  return out;
}

std::vector<int> parse_rank_counts(const io::Parameters& p, int ranks) {
  std::vector<int> out;
  if (p.get_string("ranks") == "all") {
    for (int n = 1; n <= ranks; ++n) out.push_back(n);
    return out;
  }
  for (const auto& item : split_list(p.get_string("ranks"))) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (*end != '\0' || v < 1 || v > ranks)
      throw UsageError(io::invalid_value_message(
          "ranks", p.value("ranks"), fmt::format("\"all\" or rank counts between 1 and {} (the job's)", ranks)));
    out.push_back(static_cast<int>(v));
  }
  out.push_back(1);  // the reference of every speedup
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

nlohmann::json scaling_json(const std::vector<gpe::ScalingPoint>& points, bool weak) {
  nlohmann::json rows = nlohmann::json::array();
  if (points.empty()) return rows;
  const gpe::ScalingPoint& one = points.front();
  for (const auto& r : points) {
    // Strong: T_1 / T_N on the same problem (eq. 16); weak: the work rate relative to one rank (eq. 17).
    const double speedup = weak ? r.dof_updates_per_second() / one.dof_updates_per_second()
                                : one.seconds_per_step() / r.seconds_per_step();
    rows.push_back({{"ranks", r.ranks},
                    {"structures", r.structures},
                    {"dof", r.dof},
                    {"steps_per_run", r.steps_per_run},
                    {"seconds_per_step", r.seconds_per_step()},
                    {"seconds_per_step_min", r.time.min / double(r.steps_per_run)},
                    {"seconds_per_step_max", r.time.max / double(r.steps_per_run)},
                    {"dof_updates_per_s", r.dof_updates_per_second()},
                    {"speedup", speedup},
                    {"efficiency", speedup / r.ranks * one.ranks}});
  }
  return rows;
}

// Strong and weak scaling over the ranks of this job (section 5.2 of the DEC-GPE paper, Fig. 9).
int run_scaling(const io::Parameters& p, const comm::Communicator& world, const std::string& which) {
  gpe::ScalingOptions o;
  const std::string& backend = p.get_string("backend");
  o.backend = backend == "all" ? core::best_backend() : core::parse_backend(backend, "backend");
  o.grid = dec::parse_grid_type(p.get_string("scaling_grid"), "scaling_grid");
  const int m_s = dec::replicable_structure(o.grid).cell_count();
  o.kernel = p.get_string("scaling_kernel") == "auto"
                 ? gpe::default_leapfrog_kernel(o.backend, m_s)
                 : gpe::parse_leapfrog_kernel(p.get_string("scaling_kernel"), "scaling_kernel");
  if (o.backend != core::Backend::cuda && !gpe::runs_on_cpu(o.kernel))
    throw UsageError(io::invalid_value_message("scaling_kernel", p.value("scaling_kernel"),
                                               "plain, soa or auto on the cpu backend"));
  o.transport = gpe::parse_halo_transport(p.get_string("halo_transport"), "halo_transport");
  o.repeats = static_cast<int>(p.get_int("repeats"));
  o.warmup = static_cast<int>(p.get_int("warmup"));
  const auto counts = parse_rank_counts(p, world.size());
  const auto strong = parse_structures(p, "strong_structures"), weak = parse_structures(p, "weak_structures");
  const bool grow_xyz = p.get_string("weak_growth") == "xyz";
  for (int n : counts)
    if (strong[2] < n)
      throw UsageError(io::invalid_value_message("strong_structures", p.value("strong_structures"),
                                                 fmt::format("at least {} layers in z (one per rank)", n)));
  const bool root = world.is_root();
  nlohmann::json j;
  j["loom"] = loom::io::build_identity();
  j["job_ranks"] = world.size();
  j["cpu_threads"] = core::cpu_threads();
  if (o.backend == core::Backend::cuda) j["device"] = cuda::device_info(cuda::current_device()).name;
  j["backend"] = std::string(core::to_string(o.backend));
  j["grid"] = std::string(dec::to_string(o.grid));
  j["kernel"] = std::string(gpe::to_string(o.kernel));
  j["halo_transport"] = std::string(gpe::to_string(o.transport));
  auto report = [&](const char* kind, const std::vector<gpe::ScalingPoint>& points, bool is_weak) {
    if (!root) return;
    const nlohmann::json rows = scaling_json(points, is_weak);
    std::cout << fmt::format("{} scaling ({} on {}, {} kernel):\n{:>6} {:>16} {:>12} {:>12} {:>10} {:>9} {:>8}\n", kind,
                             dec::to_string(o.grid), core::to_string(o.backend), gpe::to_string(o.kernel), "ranks",
                             "structures", "dof", "ms/step", "Gdof/s", "speedup", "effic.");
    for (const auto& r : rows)
      std::cout << fmt::format("{:>6} {:>16} {:>12} {:>12.4f} {:>10.3f} {:>9.2f} {:>7.0f}%\n", r["ranks"].get<int>(),
                               fmt::format("{}x{}x{}", r["structures"][0].get<int>(), r["structures"][1].get<int>(),
                                           r["structures"][2].get<int>()),
                               r["dof"].get<Index>(), 1e3 * r["seconds_per_step"].get<double>(),
                               r["dof_updates_per_s"].get<double>() / 1e9, r["speedup"].get<double>(),
                               100 * r["efficiency"].get<double>());
    j[is_weak ? "weak" : "strong"] = {{"growth", is_weak ? (grow_xyz ? "xyz" : "z") : "none"}, {"points", rows}};
  };
  if (which == "strong" || which == "both") {
    std::vector<std::array<int, 3>> problems(counts.size(), strong);
    report("strong", gpe::time_over_ranks(world, o, counts, problems), false);
  }
  if (which == "weak" || which == "both") {
    std::vector<std::array<int, 3>> problems;
    for (int n : counts) problems.push_back(gpe::weak_scaling_structures(weak, n, grow_xyz));
    report("weak", gpe::time_over_ranks(world, o, counts, problems), true);
  }
  if (const auto& path = p.get_string("json"); root && !path.empty()) io::write_file_atomically(path, j.dump(2) + "\n");
  return 0;
}

int run_on_ranks(const io::Parameters& p, const comm::Communicator& world) {
  if (world.size() > 1) comm::select_rank_device(world);  // before anything is allocated on a device
  std::string scaling = p.get_string("scaling");
  if (scaling == "auto") scaling = world.size() > 1 ? "both" : "none";
  if (scaling != "none") return run_scaling(p, world, scaling);
  io::refuse_unread_keys(p,
                         {"scaling_grid", "strong_structures", "weak_structures", "weak_growth", "ranks",
                          "scaling_kernel", "halo_transport"},
                         "unless scaling runs (scaling = strong, weak or both, or auto under mpiexec -n N > 1)");
  if (!world.is_root()) {  // the single-rank table, measured by rank 0 alone
    world.barrier();
    return 0;
  }
  const int code = run_single_rank_table(p);
  world.barrier();
  return code;
}

// As `loom gpe`: bad input (found by every rank) is reported by rank 0; another failure ends the job.
int run_bench_gpe(const io::Parameters& p) {
  io::check_json_output(p);  // before any timing
  const comm::Communicator world = comm::Communicator::world();
  if (world.size() == 1) return run_on_ranks(p, world);
  try {
    return run_on_ranks(p, world);
  } catch (const UsageError& e) {
    // Found by every rank alike. mpiexec ends the job when the first rank exits with an error, so the others wait
    // until rank 0 has said what it is (as main() would).
    if (world.is_root()) std::cerr << "error: " << e.what() << std::endl;
    world.barrier();
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "loom bench gpe failed on rank " << world.rank() << ": " << e.what() << "\n";
    comm::abort_job(1);
  }
}

// The cubes of --dof (n rounded to structures of m_s cells), then the boxes of --lattices.
std::vector<std::array<int, 3>> lattices_of(int m_s, const std::vector<double>& dofs,
                                            const std::vector<std::array<int, 3>>& boxes) {
  std::vector<std::array<int, 3>> lattices;
  for (double target : dofs) {
    const int n = std::max(1, static_cast<int>(std::lround(std::cbrt(target / m_s))));
    lattices.push_back({n, n, n});
  }
  lattices.insert(lattices.end(), boxes.begin(), boxes.end());
  return lattices;
}

// The largest lattice each backend will time, against the free memory before the ceilings: loom gpe's estimate for
// its DOF (gpe_memory_need: the run's levels and tables, at most ~1.4x the benchmark's two levels with their
// copies), the key named the one that asked for it (--dof's cubes come first in the list, --lattices' boxes after).
void check_bench_memory(const io::Parameters& p, const std::vector<core::Backend>& backends,
                        const std::vector<dec::GridType>& grids, const std::vector<double>& dofs,
                        const std::vector<std::array<int, 3>>& boxes, double cpu_max) {
  for (auto b : backends) {
    double largest = 0;
    std::string key;
    for (auto g : grids) {
      const int m_s = dec::replicable_structure(g).cell_count();
      const auto lattices = lattices_of(m_s, dofs, boxes);
      for (std::size_t i = 0; i < lattices.size(); ++i) {
        const auto& n = lattices[i];
        const double dof = double(m_s) * n[0] * n[1] * n[2];
        if ((b == core::Backend::cpu && dof > cpu_max) || dof <= largest) continue;
        largest = dof;
        key = i < dofs.size() ? "dof" : "lattices";
      }
    }
    if (largest > 0)
      core::check_memory(gpe::gpe_memory_need(largest), b == core::Backend::cuda,
                         fmt::format("{} = \"{}\" ({:.3g} dual vertices on the {} backend)", key, p.get_string(key),
                                     largest, core::to_string(b)));
  }
}

int run_single_rank_table(const io::Parameters& p) {
  std::vector<core::Backend> backends;
  if (p.get_string("backend") == "all")
    backends = core::available_backends();
  else
    backends = {core::parse_backend(p.get_string("backend"), "backend")};
  std::vector<dec::GridType> grids;
  for (const auto& g : nonempty_list(p, "grids", "grid types")) grids.push_back(dec::parse_grid_type(g, "grids"));
  std::vector<double> dofs;
  for (const auto& d : split_list(p.get_string("dof"))) {  // "": none (--lattices only; checked below)
    char* end = nullptr;
    const double v = std::strtod(d.c_str(), &end);
    if (*end != '\0' || !(v >= 1 && v <= max_bench_dof))
      throw UsageError(
          io::invalid_value_message("dof", p.value("dof"), "a comma-separated list of DOF counts in [1, 1e12]"));
    dofs.push_back(v);
  }
  const std::vector<std::array<int, 3>> boxes = parse_lattices(p);
  if (dofs.empty() && boxes.empty())
    throw UsageError(io::invalid_value_message(
        "dof", p.value("dof"), "a comma-separated list of DOF counts in [1, 1e12] (\"\": none, with --lattices)"));
  const std::vector<std::optional<gpe::SoaTuning>> soa_tunings = parse_soa_tunings(p);
  const std::vector<std::optional<gpe::MarchTiling>> march_tilings = parse_march_tilings(p);
  const double cpu_max = p.get_real("cpu_max_dof");
  const int repeats = static_cast<int>(p.get_int("repeats")), warmup = static_cast<int>(p.get_int("warmup"));
  std::vector<std::string> kernels;
  if (p.get_string("kernels") != "all")
    for (const auto& k : nonempty_list(p, "kernels", "kernels, or all")) {
      const gpe::LeapfrogKernel kernel = gpe::parse_leapfrog_kernel(k, "kernels");
      // A kernel none of the chosen backends runs would leave an empty table.
      if (std::none_of(backends.begin(), backends.end(), [&](core::Backend b) {
            return b == core::Backend::cuda || gpe::runs_on_cpu(kernel);
          }))
        throw UsageError(io::invalid_value_message("kernels", p.value("kernels"),
                                                   "kernels the chosen backend runs (on the cpu: plain, soa)"));
      kernels.emplace_back(gpe::to_string(kernel));
    }

  check_bench_memory(p, backends, grids, dofs, boxes, cpu_max);
  perf::CeilingOptions stream;
  stream.stream_only = true;
  std::vector<perf::Ceiling> ceilings;
  for (auto b : backends) {
    auto c = perf::measure_ceilings(b, stream);
    ceilings.insert(ceilings.end(), c.begin(), c.end());
  }
  std::cout << fmt::format("{:<5} {:<6} {:<10} {:>10} {:>12} {:>11} {:>10} {:>9} {:>8}\n", "back", "grid", "variant",
                           "structures", "dof", "steps/s", "Gdof/s", "GB/s", "of copy");
  nlohmann::json rows = nlohmann::json::array();
  std::map<std::pair<int, Index>, double> cpu_rate;
  for (auto g : grids) {
    const int m_s = dec::replicable_structure(g).cell_count();
    for (const std::array<int, 3>& n : lattices_of(m_s, dofs, boxes)) {
      const std::string shape =
          n[0] == n[1] && n[1] == n[2] ? fmt::format("{}^3", n[0]) : fmt::format("{}x{}x{}", n[0], n[1], n[2]);
      for (auto b : backends)
        for (auto kernel : gpe::leapfrog_kernels(b)) {
          if (!kernels.empty() &&
              std::find(kernels.begin(), kernels.end(), std::string(gpe::to_string(kernel))) == kernels.end())
            continue;
          const Index dof = Index(m_s) * n[0] * n[1] * n[2];
          if (b == core::Backend::cpu && double(dof) > cpu_max) continue;
          // The launch choices timed: the soa tunings, the march tilings, or the kernel's one launch.
          std::vector<gpe::LaunchChoice> choices;
          if (kernel == gpe::LeapfrogKernel::soa && b == core::Backend::cuda)
            for (const auto& t : soa_tunings) choices.push_back({t, std::nullopt});
          else if (kernel == gpe::LeapfrogKernel::march)
            for (const auto& t : march_tilings) choices.push_back({std::nullopt, t});
          else
            choices.push_back({});
          for (const auto& choice : choices) {
            const auto r = gpe::benchmark_leapfrog(b, g, n, kernel, warmup, repeats, 0.2, choice);
            const double copy = perf::copy_bandwidth(ceilings, b).value_or(0);
            const double fraction = copy > 0 ? r.bandwidth() / copy : 0;
            if (b == core::Backend::cpu) cpu_rate[{int(g), dof}] = r.dof_updates_per_second();
            std::cout << fmt::format("{:<5} {:<6} {:<10} {:>10} {:>12} {:>11.1f} {:>10.2f} {:>9.1f} {:>7.0f}%\n",
                                     core::to_string(b), dec::to_string(g), r.variant, shape, r.dof,
                                     1 / r.seconds_per_step(), r.dof_updates_per_second() / 1e9, r.bandwidth() / 1e9,
                                     100 * fraction);
            rows.push_back({{"backend", std::string(core::to_string(b))},
                            {"grid", std::string(dec::to_string(g))},
                            {"variant", r.variant},
                            {"structures", n},  // [nx, ny, nz]
                            {"dof", r.dof},
                            {"steps_per_run", r.steps_per_run},
                            {"seconds_per_step", r.seconds_per_step()},
                            {"dof_updates_per_s", r.dof_updates_per_second()},
                            {"bytes_per_dof", gpe::leapfrog_bytes_per_dof},
                            {"bandwidth", r.bandwidth()},
                            {"copy_bandwidth", copy},
                            {"fraction_of_copy", fraction},
                            {"flops_per_s", r.work_per_step.flops / r.seconds_per_step()}});
            if (b == core::Backend::cuda && cpu_rate.count({int(g), dof}))
              std::cout << fmt::format("      gpu / cpu on {} at {} dof: {:.1f}x\n", dec::to_string(g), dof,
                                       r.dof_updates_per_second() / cpu_rate[{int(g), dof}]);
          }
        }
    }
  }
  perf::print_table(std::cout, ceilings);
  if (const auto& path = p.get_string("json"); !path.empty()) {
    nlohmann::json j;
    j["loom"] = loom::io::build_identity();
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
  p.add("dof", "2e6", "comma-separated target DOF counts (n^3 structures, n rounded; \"\": none, --lattices only)");
  p.add("lattices", "",
        "also time these boxes of structures, a comma-separated list such as 204x203x203 (nx x ny x nz)");
  p.add("cpu_max_dof", 3e8, "largest problem run on the CPU backend").greater_than(0).at_most(1e11);  // ~TB
  p.add("kernels", "all", "leapfrog implementations to time: all, or a list of plain, tuned, shared, soa, march");
  p.add("soa_band_rows", "auto",
        "soa kernel on the GPU: heights of the bands of rows its tiles sweep, a list "
        "(0: whole slices; auto: the grid's default); each is timed");
  p.add("soa_tiles", "auto",
        "soa kernel on the GPU: tiles of consecutive vertices of a chunk (chunk) or of one row "
        "(row), a list (auto: the grid's default); each is timed");
  p.add("soa_order", "auto",
        "soa kernel on the GPU: how blocks take tiles, by a grid stride (stride) or in order "
        "from an atomic counter (counter), a list (auto: the grid's default); each is timed");
  p.add("soa_columns", "auto",
        "soa kernel on the GPU: column order, a block updating a row segment's band of rows "
        "over this many layers (0: off), a list (auto: the grid's default); each is timed");
  p.add("soa_vertices", "auto",
        "soa kernel on the GPU: vertices per thread, a list of 1 and 2 (auto: the grid's "
        "default); each is timed");
  p.add("march_tile", "auto",
        "march kernel on the GPU: tiles of structures (x by y) a block marches along z, a list "
        "such as 16x8,8x8 (auto: the grid's default); each is timed");
  p.add("march_layers", "auto",
        "march kernel on the GPU: layers per block's march, a list of integers and balanced (cut "
        "for the device's resident blocks); auto: the grid's default; each is timed with each tile");
  p.add("march_ahead", "auto",
        "march kernel on the GPU: layers of psi copied ahead of the three an update reads, a list "
        "of 1 and 2 (auto: 1); each is timed with each tile and segment");
  p.add("march_rows", "auto",
        "march kernel on the GPU: psi's rows padded to whole 128-byte lines (pitched) or in the "
        "lattice's layout (lattice), a list (auto: pitched); each is timed");
  p.add("repeats", 5, "timed runs; the median is reported").at_least(1);
  p.add("warmup", 1, "untimed runs first").at_least(0);
  io::declare_json_output(p, "also write the results as JSON to this file");
  p.add("scaling", "auto",
        "strong and/or weak scaling over the ranks of an MPI job (mpiexec -n N loom bench gpe); "
        "auto: both under mpiexec with N > 1, else none (the one-rank table of kernels and sizes)")
      .one_of({"auto", "none", "strong", "weak", "both"});
  p.add("scaling_grid", "bcc", "grid of the scaling runs");
  p.add("strong_structures", "87,87,302",
        "nx,ny,nz structures of the strong-scaling problem (the paper's BCC: "
        "87 x 87 x 302 x 12 DOF)");
  p.add("weak_structures", "87,87,302", "nx,ny,nz structures of the weak-scaling problem on one rank");
  p.add("weak_growth", "xyz",
        "how the weak-scaling problem grows with N ranks: xyz (each count times N^(1/3), as "
        "the paper) or z (nz times N: the same slab on every rank)")
      .one_of({"xyz", "z"});
  p.add("ranks", "all",
        "rank counts timed in the scaling runs: all (1..N) or a list such as 2,4,8 (1, the "
        "reference of the speedups, is always timed)");
  p.add("scaling_kernel", "auto", "leapfrog kernel of the scaling runs (auto: the fastest measured)")
      .one_of({"auto", "plain", "tuned", "shared", "soa", "march"});
  p.add("halo_transport", "auto", "how GPU halos travel: auto, staged (pinned host buffers), cuda_aware")
      .one_of({"auto", "staged", "cuda_aware"});
  out.push_back({std::make_unique<io::ParameterCommand>(bench, "gpe",
                                                        "The DEC-GPE leapfrog step: DOF updates/s and "
                                                        "bandwidth against the copy ceiling",
                                                        std::move(p), false),
                 run_bench_gpe});
}

}  // namespace loom::app
