// `loom bench vortex`: seconds per vortex step for each particle count on each backend, split into tree, lists,
// FMM, update and reinitialisation (src/loom/vortex/benchmark.hpp); every size's memory checked before any is
// allocated; a table, and JSON.
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cmath>
#include <ctime>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/fmm/precision.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/build_identity.hpp"
#include "loom/vortex/benchmark.hpp"

namespace loom::app {
namespace {

constexpr Index largest_lattice = 1024;

// Particle counts -> lattice sizes n (the nearest n^3), each in [8^3, 1024^3].
std::vector<Index> parse_particles(const io::Parameters& p) {
  const std::string allowed = fmt::format("a comma-separated list of particle counts in [512, {}]",
                                          double(largest_lattice * largest_lattice * largest_lattice));
  std::vector<Index> out;
  std::stringstream s(p.get_string("particles"));
  for (std::string item; std::getline(s, item, ',');) {
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    // Bounded before rounding: llround of a huge cube root would overflow.
    const double most = std::pow(double(largest_lattice) + 0.5, 3);
    if (item.empty() || *end != '\0' || !(v >= 512 && v < most))
      throw UsageError(io::invalid_value_message("particles", p.value("particles"), allowed));
    out.push_back(Index(std::llround(std::cbrt(v))));
  }
  if (out.empty()) throw UsageError(io::invalid_value_message("particles", p.value("particles"), allowed));
  return out;
}

vortex::BenchOptions bench_options(const io::Parameters& p) {
  vortex::BenchOptions o;
  o.fmm.order = int(p.get_int("fmm.order"));
  o.fmm.theta = p.get_real("fmm.theta");
  o.fmm.ncrit = int(p.get_int("fmm.ncrit"));
  o.fmm.precision = fmm::parse_precision(p.get_string("fmm.precision"));
  o.fmm.tree_on_backend = p.get_string("fmm.tree") == "backend";
  o.rebuild_cost = p.get_real("fmm.rebuild_cost");
  o.periodic = p.get_string("box") == "periodic";
  o.dt = p.get_real("time.dt");
  o.warmup = int(p.get_int("warmup"));
  o.steps = int(p.get_int("steps"));
  o.reinit_every = int(p.get_int("reinit.every"));
  return o;
}

int run_bench_vortex(const io::Parameters& p) {
  io::check_output_file("json", p.get_string("json"));  // before any timing
  const auto sizes = parse_particles(p);
  const std::string& choice = p.get_string("backend");
  const auto backends = choice == "all" ? core::available_backends()
                                        : std::vector<core::Backend>{core::parse_backend(choice, "backend")};
  vortex::BenchOptions o = bench_options(p);
  for (auto b : backends)  // every size checked before the first is allocated
    for (Index n : sizes) {
      o.fmm.backend = b;
      core::check_memory(vortex::step_memory_need(n, o.fmm), b == core::Backend::cuda,
                         fmt::format("particles = {} ({}^3 on {})", n * n * n, n, core::to_string(b)));
    }
  std::vector<vortex::StepTiming> rows;
  for (auto b : backends)
    for (Index n : sizes) {
      o.fmm.backend = b;
      std::cerr << fmt::format("vortex: timing {}^3 particles on {}\n", n, core::to_string(b));
      vortex::StepTiming t = vortex::time_vortex_step(n, o);
      const core::MemoryNeed need = vortex::step_memory_need(n, o.fmm);
      t.memory_bytes = b == core::Backend::cuda ? need.device_bytes : need.host_bytes;
      rows.push_back(t);
    }
  vortex::print_step_table(std::cout, rows);
  if (const auto& path = p.get_string("json"); !path.empty()) {
    nlohmann::json j;
    j["loom"] = loom::io::build_identity();
    j["date"] = fmt::format("{:%Y-%m-%dT%H:%M:%S}", fmt::localtime(std::time(nullptr)));
    j["cpu_threads"] = core::cpu_threads();
    if (core::backend_available(core::Backend::cuda)) j["device"] = cuda::device_info(cuda::current_device()).name;
    j["box"] = p.get_string("box");
    j["dt"] = o.dt;
    j["fmm"] = {{"order", o.fmm.order}, {"theta", o.fmm.theta}, {"ncrit", o.fmm.ncrit},
                {"precision", p.get_string("fmm.precision")}, {"tree", p.get_string("fmm.tree")},
                {"rebuild_cost", o.rebuild_cost}};
    j["steps"] = vortex::to_json(rows);
    io::write_file_atomically(path, j.dump(2) + "\n");
    std::cerr << "wrote " << path << "\n";
  }
  return 0;
}

}  // namespace

void add_bench_vortex_command(CLI::App& bench, std::vector<Subcommand>& out) {
  io::Parameters p;
  p.add("backend", "all", "backend to measure").one_of({"all", "auto", "cpu", "cuda"});
  p.add("particles", "1e4,1e5", "particle counts (each rounded to a lattice n^3), comma-separated; 1.68e7 = 256^3");
  p.add("box", "periodic", "periodic (the paper's box [0, 2 pi)^3, with images) or free (the same particles)")
      .one_of({"periodic", "free"});
  p.add("fmm.order", 10, "expansion order p").at_least(1).at_most(20);
  p.add("fmm.theta", 0.4, "multipole acceptance angle").greater_than(0).less_than(1);
  p.add("fmm.ncrit", 64, "most particles per leaf").at_least(1).at_most(100000);
  p.add("fmm.precision", "single", "the CUDA backend's kernels: single, single-fast, double")
      .one_of({"single", "single-fast", "double"});
  p.add("fmm.tree", "host",
        "where the tree and the lists are built: host or backend (the particles stay where the FMM runs, the "
        "tree re-fitted between steps)")
      .one_of({"host", "backend"});
  p.add("fmm.rebuild_cost", 1.05,
        "tree backend: rebuild once an evaluation on the re-fitted tree did more than this factor times the work of "
        "the first after the build (below 1: every evaluation)")
      .at_least(0)
      .at_most(10);
  p.add("time.dt", 0.01, "time step (Taylor-Green of amplitude 1: the particles move up to dt per step)")
      .greater_than(0)
      .at_most(1);
  p.add("steps", 2, "timed AB2 steps (after the warm-up); the mean is reported").at_least(1).at_most(1000);
  p.add("warmup", 1, "untimed steps before timing (the first starts AB2)").at_least(0).at_most(1000);
  p.add("reinit.every", 10, "a reinitialisation every this many steps (its time shared among them; 0: none)")
      .at_least(0)
      .at_most(1000000);
  p.add("json", "", "also write the results as JSON to this file");
  out.push_back({std::make_unique<io::ParameterCommand>(
                     bench, "vortex", "Vortex method: seconds per step split into tree, lists, FMM, update, reinit",
                     std::move(p), false),
                 run_bench_vortex});
}

}  // namespace loom::app
