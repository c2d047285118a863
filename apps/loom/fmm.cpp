// `loom fmm`: the fast multipole method on generated bodies (cube, sphere, plummer) or on a CSV file, with the
// time of each phase and the relative L2 errors against direct summation on a sample of targets (against an
// Ewald sum for periodic runs). `loom fmm --input bodies.csv --output result.csv` writes potential and gradient.
#include "loom/fmm/fmm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/body_file.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/ewald.hpp"
#include "loom/fmm/harmonics.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/version_info.hpp"

namespace loom::app {
namespace {

constexpr Index max_ewald_bodies = 20000;  // the Ewald reference costs O(N) per wave vector

nlohmann::json timings_json(const fmm::Timings& t) {
  return {{"build", t.build},       {"upward", t.upward}, {"traversal", t.traversal},
          {"m2l", t.m2l},           {"p2p", t.p2p},       {"downward", t.downward},
          {"transfer", t.transfer}, {"call", t.call},     {"total", t.total()}};
}

void print_run(const fmm::Timings& t, const fmm::Statistics& s) {
  std::cout << fmt::format(
      "tree: {} cells, {} leaves, {} levels; {} M2L pairs, {} P2P pairs ({:.3g} body interactions)\n", s.cells,
      s.leaves, s.levels, s.m2l_pairs, s.p2p_pairs, s.p2p_interactions);
  std::cout << "phase         seconds\n";
  const std::pair<const char*, double> rows[] = {
      {"build", t.build}, {"upward", t.upward},     {"traversal", t.traversal}, {"m2l", t.m2l},
      {"p2p", t.p2p},     {"downward", t.downward}, {"transfer", t.transfer},   {"total", t.total()}};
  for (const auto& [name, seconds] : rows) std::cout << fmt::format("{:<12}  {:.6f}\n", name, seconds);
  std::cout << fmt::format("{:<12}  {:.6f}  (wall time of the evaluation call: all but the build)\n", "call", t.call);
}

int run_fmm(const io::Parameters& p) {
  fmm::Options o;
  o.order = static_cast<int>(p.get_int("p"));
  o.theta = p.get_real("theta");
  o.ncrit = static_cast<int>(p.get_int("ncrit"));
  o.backend = core::parse_backend(p.get_string("backend"), "backend");
  o.precision = fmm::parse_precision(p.get_string("precision"));
  o.guard = p.get_real("guard");
  const bool laplace = p.get_string("kernel") == "laplace";
  const std::string& input = p.get_string("input");
  const std::string& output = p.get_string("output");
  const Index samples = p.get_int("samples");
  const auto seed = static_cast<std::uint64_t>(p.get_int("seed"));

  if (!input.empty()) {
    for (const char* key : {"n", "dist", "periodic"})
      if (p.user_set(key))
        throw UsageError(std::string(key) + ": does not apply with --input (the bodies come from the file)");
    if (!laplace) throw UsageError("kernel = \"biot-savart\": input files hold charges x,y,z,q; use kernel laplace");
  }
  if (!output.empty() && !laplace)
    throw UsageError("output = \"" + output + "\": only the Laplace kernel writes results (potential, gradient)");

  std::vector<fmm::Vec3d> x;
  std::vector<double> q;
  std::string source;
  if (!input.empty()) {
    auto bodies = fmm::read_bodies_csv(input);
    x = std::move(bodies.positions);
    q = std::move(bodies.charges);
    source = input;
  } else {
    const auto dist = fmm::parse_distribution(p.get_string("dist"));
    const Index n = p.get_int("n");
    x = fmm::make_positions(dist, n, seed);
    q = fmm::make_uniform(n, -1, 1, seed + 1);
    source = std::string(fmm::to_string(dist));
    if (p.get_bool("periodic")) {
      if (dist != fmm::Distribution::cube)
        throw UsageError("periodic = true: needs dist = \"cube\" (the box [-1, 1)^3)");
      o.periodic = true;
      o.period = 2;
      o.box_lower = {-1, -1, -1};
      o.image_levels = static_cast<int>(p.get_int("image_levels"));
      double mean = 0;  // periodic sums need a neutral system
      for (double v : q) mean += v / double(n);
      for (double& v : q) v -= mean;
    }
  }
  const Index n = static_cast<Index>(x.size());
  fmm::validate(o);

  std::cout << fmt::format("loom fmm: {} bodies ({}{}), {}, p {}, theta {}, ncrit {}, backend {}{}\n", n, source,
                           o.periodic ? ", periodic" : "", p.get_string("kernel"), o.order, o.theta, o.ncrit,
                           core::to_string(o.backend),
                           o.backend == core::Backend::cuda ? fmt::format(" ({})", fmm::to_string(o.precision))
                                                            : fmt::format(" ({} threads)", core::cpu_threads()));
  nlohmann::json j;
  j["loom"] = {{"version", LOOM_VERSION}, {"git_commit", LOOM_GIT_COMMIT}};
  j["bodies"] = n;
  j["source"] = source;
  j["kernel"] = p.get_string("kernel");
  j["p"] = o.order;
  j["theta"] = o.theta;
  j["ncrit"] = o.ncrit;
  j["backend"] = std::string(core::to_string(o.backend));
  j["precision"] = o.backend == core::Backend::cuda ? p.get_string("precision") : "double";
  j["periodic"] = o.periodic;
  // at most ~2e9 direct interactions (2e8 of the costlier Biot-Savart ones) for the reference
  const Index budget = laplace ? 2000000000 : 200000000;
  const auto targets =
      fmm::sample_targets(n, std::min(samples, std::max<Index>(std::min<Index>(samples, 10), budget / n)));

  if (laplace) {
    const auto r = fmm::laplace(x, q, o);
    print_run(r.time, r.stats);
    j["timings"] = timings_json(r.time);
    j["stats"] = {{"cells", r.stats.cells},
                  {"m2l_pairs", r.stats.m2l_pairs},
                  {"p2p_pairs", r.stats.p2p_pairs},
                  {"p2p_interactions", r.stats.p2p_interactions}};
    if (!targets.empty() && (!o.periodic || n <= max_ewald_bodies)) {
      std::vector<double> phi, fphi;
      std::vector<fmm::Vec3d> grad, fgrad;
      if (o.periodic)
        fmm::ewald_laplace(x, q, o.period, targets, phi, grad);
      else
        fmm::direct_laplace(x, q, targets, phi, grad);
      for (Index i : targets) {
        fphi.push_back(r.potential[static_cast<std::size_t>(i)]);
        fgrad.push_back(r.gradient[static_cast<std::size_t>(i)]);
      }
      const double e_phi = fmm::relative_l2_error(fphi, phi), e_grad = fmm::relative_l2_error(fgrad, grad);
      std::cout << fmt::format("relative L2 error ({} targets, against {}): potential {:.3e}, gradient {:.3e}\n",
                               targets.size(), o.periodic ? "Ewald" : "direct sum", e_phi, e_grad);
      j["errors"] = {{"targets", targets.size()}, {"potential", e_phi}, {"gradient", e_grad}};
    } else if (!targets.empty()) {
      std::cout << fmt::format("relative L2 error: not checked (the Ewald reference is limited to n <= {})\n",
                               max_ewald_bodies);
    }
    if (!output.empty()) {
      fmm::write_laplace_csv(output, r.potential, r.gradient);
      std::cerr << "wrote " << output << "\n";
    }
  } else {
    const double sigma = p.get_real("sigma") > 0 ? p.get_real("sigma") : 2.0 / std::cbrt(double(std::max<Index>(n, 1)));
    const auto alpha = fmm::make_uniform_vectors(n, -1, 1, seed + 2);
    const std::vector<double> sigmas(static_cast<std::size_t>(n), sigma);
    std::vector<fmm::Vec3d> alpha_used = alpha;
    if (o.periodic) {
      fmm::Vec3d mean{};
      for (const auto& a : alpha) mean += (1.0 / double(n)) * a;
      for (auto& a : alpha_used) a -= mean;
    }
    const auto r = fmm::biot_savart(x, alpha_used, sigmas, o);
    std::cout << fmt::format("core radius sigma {:.4g}, far-field guard {} sigma\n", sigma, o.guard);
    print_run(r.time, r.stats);
    j["sigma"] = sigma;
    j["timings"] = timings_json(r.time);
    j["stats"] = {{"cells", r.stats.cells},
                  {"m2l_pairs", r.stats.m2l_pairs},
                  {"p2p_pairs", r.stats.p2p_pairs},
                  {"p2p_interactions", r.stats.p2p_interactions}};
    if (!targets.empty() && !o.periodic) {
      std::vector<fmm::Vec3d> u, s, fu, fs;
      fmm::direct_biot_savart(x, alpha_used, sigmas, targets, u, s);
      for (Index i : targets) {
        fu.push_back(r.velocity[static_cast<std::size_t>(i)]);
        fs.push_back(r.stretching[static_cast<std::size_t>(i)]);
      }
      const double e_u = fmm::relative_l2_error(fu, u), e_s = fmm::relative_l2_error(fs, s);
      std::cout << fmt::format(
          "relative L2 error ({} targets, against direct sum): velocity {:.3e}, stretching {:.3e}\n", targets.size(),
          e_u, e_s);
      j["errors"] = {{"targets", targets.size()}, {"velocity", e_u}, {"stretching", e_s}};
    } else if (!targets.empty()) {
      std::cout << "relative L2 error: not checked (no periodic Biot-Savart reference in the tool)\n";
    }
  }
  if (const auto& path = p.get_string("json"); !path.empty()) {
    io::write_file_atomically(path, j.dump(2) + "\n");
    std::cerr << "wrote " << path << "\n";
  }
  return 0;
}

}  // namespace

void add_fmm_command(CLI::App& app, std::vector<Subcommand>& out) {
  io::Parameters p;
  p.add("n", 100000, "number of generated bodies").at_least(1);
  p.add("dist", "cube", "generated bodies: uniform in a cube, on a sphere, or Plummer")
      .one_of({"cube", "sphere", "plummer"});
  p.add("kernel", "laplace", "laplace: potential and gradient; biot-savart: velocity and stretching")
      .one_of({"laplace", "biot-savart"});
  p.add("p", 10, "expansion order (degrees 0..p-1)").at_least(1).at_most(fmm::max_order);
  p.add("theta", 0.4, "multipole acceptance criterion").greater_than(0).less_than(1);
  p.add("ncrit", 64, "most bodies per leaf").at_least(1);
  p.add("backend", "auto", "where to run").one_of({"auto", "cpu", "cuda"});
  p.add("precision", "single",
        "GPU P2P and M2L kernels: single (compensated float), single-fast (plain float P2P), double")
      .one_of({"single", "single-fast", "double"});
  p.add("samples", 1000, "targets checked against direct summation (0: no check; fewer for large n)").at_least(0);
  p.add("sigma", 0.0, "biot-savart: core radius (0: the mean spacing 2/n^(1/3))").at_least(0);
  p.add("guard", 6.0, "biot-savart: M2L only for cells this many sigma apart").at_least(0);
  p.add("periodic", false, "periodic box [-1, 1)^3 (dist cube; charges made neutral)");
  p.add("image_levels", 6, "periodic: image levels beyond the 3^3 near images").at_least(0);
  p.add("seed", 1, "seed of the generated bodies").at_least(0);
  p.add("input", "", "CSV file of bodies with header x,y,z,q (instead of generated bodies)");
  p.add("output", "", "write potential,grad_x,grad_y,grad_z per body to this CSV file");
  p.add("json", "", "also write the run's figures as JSON to this file");
  out.push_back({std::make_unique<io::ParameterCommand>(
                     app, "fmm", "Fast multipole method: Laplace or Biot-Savart, errors against direct summation",
                     std::move(p), false),
                 run_fmm});
}

}  // namespace loom::app
