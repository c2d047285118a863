// `loom bench fmm`: the FMM's speed (issue 6's benchmark). A size sweep (10^4 .. 1.68 x 10^7 bodies, the paper's
// load per GPU), error against time for p = 4..14 at one size, the GPU against the CPU, and the P2P kernel's
// interactions per second against a plain direct-sum kernel and the FP32 ceiling measured in the same run.
// Medians of repeated evaluations after warm-up; the tree is built once per configuration (timed apart).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench_fmm_model.hpp"
#include "commands.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/pinned_arena.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/gpu/kernels.hpp"
#include "loom/fmm/tree/reorder.hpp"
#include "loom/fmm/run/checks.hpp"
#include "loom/fmm/tree/tree.hpp"
#include "loom/io/atomic_file.hpp"
#include "loom/core/memory_budget.hpp"
#include "loom/fmm/run/memory_need.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/json_output.hpp"
#include "loom/perf/ceilings.hpp"
#include "loom/perf/timing.hpp"
#include "loom/perf/work.hpp"
#include "loom/io/build_identity.hpp"

namespace loom::app {
namespace {

constexpr double laplace_pair_flops = 20;  // per interaction: 3 sub, 3 mul + 2 fma (r^2), rsqrt, 8 for phi and grad

std::vector<double> parse_list(const std::string& key, const std::string& text) {
  std::vector<double> out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) {
    try {
      std::size_t used = 0;
      const double v = std::stod(item, &used);
      if (used != item.size() || !(v > 0)) throw std::invalid_argument(item);
      out.push_back(v);
    } catch (const std::exception&) {
      throw UsageError(key + " = \"" + text + "\": expected a comma-separated list of positive numbers");
    }
  }
  if (out.empty()) throw UsageError(key + " = \"" + text + "\": expected a comma-separated list of positive numbers");
  return out;
}

// The largest body count of the size sweep must fit in memory (Biot-Savart, the larger of the two kernels, at the
// default order), on the device when one is timed; checked before any timing.
void check_sizes_fit(const std::vector<double>& sizes, const std::vector<core::Backend>& backends, int order,
                     const std::string& text) {
  fmm::FmmConfig c;
  c.kernel = fmm::Kernel::biot_savart;
  c.options.order = order;
  const double largest = *std::max_element(sizes.begin(), sizes.end());
  if (!(largest < 9e18)) throw UsageError(io::invalid_value_message("sizes", text, "body counts below 9e18"));
  c.bodies.n = static_cast<Index>(largest);
  const bool device = std::count(backends.begin(), backends.end(), core::Backend::cuda) > 0;
  core::check_memory(fmm::memory_need(c), device, fmt::format("sizes = \"{}\"", text));
}

// Expansion orders: whole numbers in [1, fmm::max_order], checked before any timing.
std::vector<double> parse_orders(const std::string& key, const std::string& text) {
  const auto out = parse_list(key, text);
  for (double v : out)
    if (v != std::floor(v) || v > fmm::max_order)
      throw UsageError(fmt::format("{} = \"{}\": expected a comma-separated list of orders in [1, {}]", key, text,
                                   fmm::max_order));
  return out;
}

struct Record {
  std::string backend, kernel, precision;
  Index n = 0;
  int p = 0, ncrit = 0;
  int m2l_block = 0;  // the GPU M2L's orders per thread (0: the default)
  double theta = 0;
  fmm::Timings time;                // medians per phase
  double kernels = 0;               // median of the four phases' sum (device time on the GPU)
  double evaluate = 0;              // median wall time of the evaluation call (Laplace: lists reused)
  double error_a = 0, error_b = 0;  // gradient and potential, or velocity and stretching
  fmm::Statistics stats;
  nlohmann::json to_json() const {
    return {{"backend", backend},
            {"kernel", kernel},
            {"precision", precision},
            {"n", n},
            {"p", p},
            {"theta", theta},
            {"ncrit", ncrit},
            {"m2l_block", m2l_block},
            {"build", time.build},
            {"traversal", time.traversal},
            {"upward", time.upward},
            {"m2l", time.m2l},
            {"p2p", time.p2p},
            {"downward", time.downward},
            {"transfer", time.transfer},
            {"kernels", kernels},
            {"evaluate", evaluate},
            {kernel == "laplace" ? "gradient_error" : "velocity_error", error_a},
            {kernel == "laplace" ? "potential_error" : "stretching_error", error_b},
            {"m2l_pairs", stats.m2l_pairs},
            {"p2p_pairs", stats.p2p_pairs},
            {"p2p_interactions", stats.p2p_interactions},
            {"p2p_interactions_per_second", time.p2p > 0 ? stats.p2p_interactions / time.p2p : 0.0}};
  }
};

// build and travers are the set-up (once per positions; Biot-Savart traverses in every call); upward .. downward
// the phases (device time on the GPU), kernels their sum, transfer the strengths and results across PCIe and
// their reordering, evaluate the wall time of one evaluation call.
void print_header() {
  std::cout << fmt::format(
      "{:<5} {:<11} {:<11} {:>9} {:>3} {:>5} {:>5} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} "
      "{:>9} {:>9}\n",
      "back", "kernel", "precision", "n", "p", "theta", "ncrit", "build", "travers", "upward", "m2l", "p2p", "downward",
      "kernels", "transfer", "evaluate", "err_a", "err_b", "P2P/s");
}

void print(const Record& r) {
  std::cout << fmt::format(
      "{:<5} {:<11} {:<11} {:>9} {:>3} {:>5.2f} {:>5} {:>8.4f} {:>8.4f} {:>8.4f} {:>8.4f} {:>8.4f} {:>8.4f} {:>8.4f} "
      "{:>8.4f} {:>8.4f} {:>9.2e} {:>9.2e} {:>9.2e}\n",
      r.backend, r.kernel, r.precision, r.n, r.p, r.theta, r.ncrit, r.time.build, r.time.traversal, r.time.upward,
      r.time.m2l, r.time.p2p, r.time.downward, r.kernels, r.time.transfer, r.evaluate, r.error_a, r.error_b,
      r.time.p2p > 0 ? r.stats.p2p_interactions / r.time.p2p : 0.0);
  std::cout.flush();
}

struct Bench {
  const io::Parameters& p;
  int warmup, repeats;
  Index samples;
  std::vector<Record> records;

  // Evaluates `repeats` times after `warmup` runs with one evaluator (tree built once); medians per phase.
  Record run(fmm::Evaluator& e, const std::string& kernel, const std::vector<fmm::Vec3d>& x,
             const std::vector<double>& q, const std::vector<fmm::Vec3d>& alpha, const std::vector<double>& sigma,
             const fmm::Reference& ref) {
    std::vector<fmm::Timings> times;
    fmm::LaplaceResult lr;
    fmm::BiotSavartResult br;
    for (int i = 0; i < warmup + repeats; ++i) {
      fmm::Timings t;
      if (kernel == "laplace") {
        e.laplace(q, lr);  // the results' memory reused, as in a time stepper
        t = lr.time;
      } else {
        e.biot_savart(alpha, sigma, br);
        t = br.time;
      }
      if (i >= warmup) times.push_back(t);
    }
    Record r;
    r.backend = std::string(core::to_string(e.options().backend));
    r.precision = e.options().backend == core::Backend::cuda ? std::string(fmm::to_string(e.options().precision))
                                                             : std::string("double");
    r.kernel = kernel;
    r.n = static_cast<Index>(x.size());
    r.p = e.options().order;
    r.theta = e.options().theta;
    r.ncrit = e.options().ncrit;
    if (e.options().backend == core::Backend::cuda) {
      r.m2l_block = e.options().m2l_block;
      if (r.m2l_block > 0) r.precision += "/m" + std::to_string(r.m2l_block);
    }
    auto median = [&](auto field) {
      std::vector<double> v;
      for (const auto& t : times) v.push_back(field(t));
      return perf::summarize(v).median;
    };
    r.time.build = times.front().build;
    r.time.traversal = median([](const fmm::Timings& t) { return t.traversal; });
    r.time.upward = median([](const fmm::Timings& t) { return t.upward; });
    r.time.m2l = median([](const fmm::Timings& t) { return t.m2l; });
    r.time.p2p = median([](const fmm::Timings& t) { return t.p2p; });
    r.time.downward = median([](const fmm::Timings& t) { return t.downward; });
    r.time.transfer = median([](const fmm::Timings& t) { return t.transfer; });
    r.kernels = median([](const fmm::Timings& t) { return t.evaluation(); });
    r.evaluate = median([](const fmm::Timings& t) { return t.call; });
    if (kernel == "laplace") {
      const auto err = fmm::errors(lr, ref);
      r.error_a = err.gradient;
      r.error_b = err.potential;
    } else {
      const auto err = fmm::errors(br, ref);
      r.error_a = err.velocity;
      r.error_b = err.stretching;
    }
    r.stats = kernel == "laplace" ? lr.stats : br.stats;
    print(r);
    records.push_back(r);
    return r;
  }
};

// The host's share of one GPU call's transfers, without a GPU: before, the strengths gathered into tree order on
// the host (a pass per component) and the results scattered into freshly allocated vectors; now the caller's
// arrays copied into and out of the staging buffers as they are (the permutation runs on the device) and the
// results' vectors reused. Laplace moves 1 value in and 4 out per body, Biot-Savart 4 in and 6 out.
int run_host_reorder(const io::Parameters& p) {
  const auto sizes = parse_list("host_reorder", p.get_string("host_reorder"));
  const int repeats = static_cast<int>(p.get_int("repeats"));
  std::cout << fmt::format("host side of one call's transfers, {} threads, medians of {} (s)\n", core::cpu_threads(),
                           repeats);
  std::cout << fmt::format("{:>10} {:>12} {:>12} {:>12} {:>12} {:>12}\n", "n", "kernel", "before_in", "before_out",
                           "after_in", "after_out");
  for (double size : sizes) {
    const auto n = static_cast<Index>(size);
    const fmm::Tree tree(fmm::make_positions(fmm::Distribution::cube, n, 1), 64);
    const Index* order = tree.order().data();
    for (const std::string kernel : {"laplace", "biot-savart"}) {
      const bool laplace = kernel == "laplace";
      const int in = laplace ? 1 : 4, out = laplace ? 4 : 6;
      const auto user_in = fmm::make_uniform(in * n, -1, 1, 2);  // Laplace: q; Biot-Savart: alpha (3n), sigma
      const auto tree_out = fmm::make_uniform(out * n, -1, 1, 3);
      std::vector<double> staged_in(static_cast<std::size_t>(in * n)), staged_out(tree_out.size());
      std::vector<double> reused_out(tree_out.size());
      core::copy_parallel(staged_out.data(), tree_out.data(), tree_out.size() * sizeof(double));
      auto before_in = perf::time_repeated(1, repeats, [&] {
        const core::WallTimer watch;
        if (laplace) {
          fmm::gather_to_tree_order(core::Backend::cpu, n, order, user_in.data(), 1, 1, staged_in.data());
        } else {
          for (int d = 0; d < 3; ++d)
            fmm::gather_to_tree_order(core::Backend::cpu, n, order, user_in.data() + d, 3, 1, staged_in.data() + d * n);
          fmm::gather_to_tree_order(core::Backend::cpu, n, order, user_in.data() + 3 * n, 1, 1,
                                    staged_in.data() + 3 * n);
        }
        return watch.seconds();
      });
      auto before_out = perf::time_repeated(1, repeats, [&] {
        const core::WallTimer watch;
        std::vector<double> a(static_cast<std::size_t>(n) * (laplace ? 1 : 3));
        std::vector<fmm::Vec3d> b(static_cast<std::size_t>(n));
        fmm::scatter_to_user_order(core::Backend::cpu, n, order, staged_out.data(), 0, laplace ? 1 : 3, 1.0, a.data());
        fmm::scatter_to_user_order(core::Backend::cpu, n, order, staged_out.data(), laplace ? 1 : 3, 3, 1.0, &b[0].x);
        return watch.seconds();
      });
      // the host's part of PinnedArena's upload and download: chunked parallel copies
      auto staged_copy = [&](double* dst, const double* src, std::size_t count) {
        const core::WallTimer watch;
        const auto at = core::chunk_offsets(count * sizeof(double));
        for (std::size_t k = 0; k + 1 < at.size(); ++k)
          core::copy_parallel(reinterpret_cast<std::byte*>(dst) + at[k],
                              reinterpret_cast<const std::byte*>(src) + at[k], at[k + 1] - at[k]);
        return watch.seconds();
      };
      auto after_in = perf::time_repeated(
          1, repeats, [&] { return staged_copy(staged_in.data(), user_in.data(), staged_in.size()); });
      auto after_out = perf::time_repeated(
          1, repeats, [&] { return staged_copy(reused_out.data(), staged_out.data(), staged_out.size()); });
      std::cout << fmt::format("{:>10} {:>12} {:>12.5f} {:>12.5f} {:>12.5f} {:>12.5f}\n", n, kernel, before_in.median,
                               before_out.median, after_in.median, after_out.median);
    }
  }
  return 0;
}

int run_bench_fmm(const io::Parameters& p) {
  io::check_json_output(p);  // before any timing
  check_fmm_mode_keys(p);
  if (!p.get_string("host_reorder").empty()) return run_host_reorder(p);
  if (!p.get_string("model_ranks").empty()) return run_fmm_model(p);  // the model of many ranks (issue 22)
  if (p.get_int("ranks_bodies") > 0 || comm::Communicator::world().size() > 1) return run_fmm_ranks_bench(p);
  const std::string choice = p.get_string("backend");
  const std::vector<core::Backend> backends =
      choice == "all" ? core::available_backends() : std::vector<core::Backend>{core::parse_backend(choice, "backend")};
  const bool quick = p.get_bool("quick");
  Bench bench{
      p, static_cast<int>(p.get_int("warmup")), static_cast<int>(p.get_int("repeats")), p.get_int("samples"), {}};
  const auto sizes = parse_list("sizes", quick ? std::string("5000,10000") : p.get_string("sizes"));
  const auto orders = parse_orders("orders", quick ? std::string("4,8") : p.get_string("orders"));
  const auto cpu_orders = parse_orders("cpu_orders", quick ? std::string("4,8") : p.get_string("cpu_orders"));
  const auto thetas = parse_list("thetas", p.get_string("thetas"));
  const Index sweep_n = quick ? 10000 : p.get_int("sweep_n");
  const Index cpu_max_n = p.get_int("cpu_max_n");
  check_sizes_fit(sizes, backends, static_cast<int>(p.get_int("p")), quick ? "5000,10000" : p.get_string("sizes"));
  const int p_default = static_cast<int>(p.get_int("p"));
  const fmm::Precision precision = fmm::parse_precision(p.get_string("precision"));
  const auto reference_pairs = static_cast<Index>(p.get_real("reference_pairs"));
  std::vector<double> m2l_blocks;
  {
    std::stringstream list(p.get_string("m2l_blocks"));
    std::string item;
    while (std::getline(list, item, ',')) {
      if (item != "0" && item != "1" && item != "2" && item != "4")
        throw UsageError(io::invalid_value_message("m2l_blocks", p.value("m2l_blocks"), "a list of 0, 1, 2 and 4"));
      m2l_blocks.push_back(std::stod(item));
    }
    if (m2l_blocks.empty())
      throw UsageError(io::invalid_value_message("m2l_blocks", p.value("m2l_blocks"), "a list of 0, 1, 2 and 4"));
  }
  std::vector<fmm::Precision> sweep_precisions;
  {
    std::stringstream list(p.get_string("sweep_precisions"));
    std::string item;
    while (std::getline(list, item, ',')) try {
        sweep_precisions.push_back(fmm::parse_precision(item));
      } catch (const UsageError&) {
        throw UsageError(io::invalid_value_message("sweep_precisions", p.value("sweep_precisions"),
                                                   "a comma-separated list of single, single-fast, double"));
      }
    if (sweep_precisions.empty())
      throw UsageError(io::invalid_value_message("sweep_precisions", p.value("sweep_precisions"),
                                                 "a comma-separated list of single, single-fast, double"));
  }
  const std::string kernels = p.get_string("kernel");
  auto ncrit_for = [&](core::Backend b) {
    return static_cast<int>(b == core::Backend::cuda ? p.get_int("ncrit_gpu") : p.get_int("ncrit_cpu"));
  };

  nlohmann::json j;
  j["loom"] = loom::io::build_identity();
  j["cpu_threads"] = core::cpu_threads();
  nlohmann::json devices = nlohmann::json::array();
  std::cerr << fmt::format("loom bench fmm: {} CPU threads", core::cpu_threads());
  for (auto b : backends)
    if (b == core::Backend::cuda) {
      const auto info = cuda::device_info(cuda::current_device());
      std::cerr << fmt::format("; cuda device {} ({} SMs)", info.name, info.multiprocessors);
      devices.push_back({{"name", info.name}, {"multiprocessors", info.multiprocessors}});
    }
  std::cerr << "\n";
  j["devices"] = devices;

  // The yardstick: a plain direct-sum kernel on each backend.
  nlohmann::json yard = nlohmann::json::array();
  std::map<core::Backend, double> direct_rate;
  for (auto b : backends) {
    const Index n = b == core::Backend::cuda ? (quick ? 32768 : 262144) : (quick ? 2000 : 16384);
    const auto x = fmm::make_positions(fmm::Distribution::cube, n, 7);
    const auto q = fmm::make_uniform(n, -1, 1, 8);
    perf::TimingSummary t;
    if (b == core::Backend::cuda) {
      auto xs = core::Array<fmm::Vec3d>::from(std::span<const fmm::Vec3d>(x));
      auto qs = core::Array<double>::from(std::span<const double>(q));
      core::Array<double> out(static_cast<std::size_t>(4 * n));
      const fmm::Vec3d* xd = xs.read(core::Where::device);
      const double* qd = qs.read(core::Where::device);
      double* od = out.write(core::Where::device);
      core::Stopwatch w(b);
      t = perf::time_repeated(1, 5, [&] {
        w.start();
        fmm::gpu::direct_laplace(n, xd, qd, od);
        return w.stop();
      });
    } else {
      const auto all = fmm::sample_targets(n, n);
      std::vector<double> phi;
      std::vector<fmm::Vec3d> grad;
      t = perf::time_repeated(1, 3, [&] {
        core::WallTimer w;
        fmm::direct_laplace(x, q, all, phi, grad);
        return w.seconds();
      });
    }
    const double rate = double(n) * double(n) / t.median;
    direct_rate[b] = rate;
    std::cout << fmt::format("direct-sum kernel ({}, n {}): {:.3e} interactions/s ({:.2f} TFLOP/s at {} flops each)\n",
                             core::to_string(b), n, rate, rate * laplace_pair_flops * 1e-12, laplace_pair_flops);
    yard.push_back({{"backend", std::string(core::to_string(b))},
                    {"n", n},
                    {"seconds", t.median},
                    {"interactions_per_second", rate}});
  }
  j["direct_kernel"] = yard;

  print_header();
  // 1. Size sweep at the default order and first theta.
  // direct sums at sampled targets, at most --reference_pairs interactions each (default: the library's)
  auto reference = [&](Index n, const std::string& kernel, const std::vector<fmm::Vec3d>& x,
                       const std::vector<double>& q, const std::vector<fmm::Vec3d>& alpha,
                       const std::vector<double>& sigma) {
    const fmm::Kernel k = fmm::parse_kernel(kernel);
    auto targets = fmm::reference_targets(n, bench.samples,
                                          reference_pairs > 0 ? reference_pairs : fmm::default_reference_pairs(k));
    return k == fmm::Kernel::laplace ? fmm::laplace_reference(x, q, std::move(targets), fmm::Options{})
                                     : fmm::biot_savart_reference(x, alpha, sigma, std::move(targets));
  };
  for (const std::string kernel : {"laplace", "biot-savart"}) {
    if (kernels != "both" && kernels != kernel) continue;
    for (double nd : sizes) {
      const auto n = static_cast<Index>(nd);
      const bool any = std::any_of(backends.begin(), backends.end(),
                                   [&](core::Backend b) { return b == core::Backend::cuda || n <= cpu_max_n; });
      if (!any) continue;  // too large for the CPU, and no GPU here
      const auto x = fmm::make_positions(fmm::Distribution::cube, n, 1);
      const auto q = kernel == "laplace" ? fmm::make_uniform(n, -1, 1, 2) : std::vector<double>{};
      const auto alpha = kernel == "laplace" ? std::vector<fmm::Vec3d>{} : fmm::make_uniform_vectors(n, -1, 1, 3);
      const std::vector<double> sigma(kernel == "laplace" ? 0 : static_cast<std::size_t>(n),
                                      2.0 / std::cbrt(double(n)));
      const fmm::Reference ref = reference(n, kernel, x, q, alpha, sigma);
      for (auto b : backends) {
        if (b == core::Backend::cpu && n > cpu_max_n) continue;
        for (const double block : b == core::Backend::cuda ? m2l_blocks : std::vector<double>{0}) {
          fmm::Options o;
          o.order = p_default;
          o.theta = thetas.front();
          o.ncrit = ncrit_for(b);
          o.backend = b;
          o.precision = precision;
          o.m2l_block = static_cast<int>(block);
          o.tree_on_backend = b == core::Backend::cuda && p.get_string("tree_gpu") == "backend";
          fmm::Evaluator e(o);
          e.set_positions(x);
          bench.run(e, kernel, x, q, alpha, sigma, ref);
        }
      }
    }
  }

  // 2. Error against time at sweep_n: every order and theta, Laplace, on each backend.
  const bool sweep_runs = std::any_of(backends.begin(), backends.end(), [&](core::Backend b) {
    return b == core::Backend::cuda || sweep_n <= cpu_max_n;
  });
  if (kernels != "biot-savart" && sweep_runs) {
    const auto x = fmm::make_positions(fmm::Distribution::cube, sweep_n, 1);
    const auto q = fmm::make_uniform(sweep_n, -1, 1, 2);
    const fmm::Reference ref = reference(sweep_n, "laplace", x, q, {}, {});
    for (auto b : backends) {
      if (b == core::Backend::cpu && sweep_n > cpu_max_n) continue;
      const auto& use_orders = b == core::Backend::cpu ? cpu_orders : orders;
      for (double theta : thetas) {
        fmm::Options o;
        o.order = static_cast<int>(use_orders.front());
        o.theta = theta;
        o.ncrit = ncrit_for(b);
        o.backend = b;
        fmm::Evaluator e(o);
        e.set_positions(x);
        const auto use_precisions =
            b == core::Backend::cuda ? sweep_precisions : std::vector<fmm::Precision>{fmm::Precision::double_};
        for (const fmm::Precision prec : use_precisions) {
          e.set_precision(prec);
          for (double order : use_orders) {
            e.set_order(static_cast<int>(order));
            bench.run(e, "laplace", x, q, {}, {}, ref);
          }
        }
      }
    }
    // The fastest evaluation at each accuracy target, per backend.
    for (auto b : backends) {
      for (double target : {1e-4, 1e-6}) {
        const Record* best = nullptr;
        for (const auto& r : bench.records)
          if (r.backend == core::to_string(b) && r.n == sweep_n && r.kernel == "laplace" && r.error_a <= target &&
              (!best || r.evaluate < best->evaluate))
            best = &r;
        if (best)
          std::cout << fmt::format(
              "fastest {} evaluation of {} bodies at gradient error <= {:.0e}: {:.4f} s (kernels {:.4f} s; {}, p {}, "
              "theta {}, error {:.2e}; set-up: tree {:.4f} s, lists {:.4f} s)\n",
              core::to_string(b), sweep_n, target, best->evaluate, best->kernels, best->precision, best->p, best->theta,
              best->error_a, best->time.build, best->time.traversal);
      }
    }
  }
  // The machine's ceilings, measured in the same run (last: BLAS threads left spinning would slow the FMM).
  std::vector<perf::Ceiling> ceilings;
  for (auto b : backends) {
    auto c = perf::measure_ceilings(b, perf::quick_ceiling_options());
    ceilings.insert(ceilings.end(), c.begin(), c.end());
  }
  j["ceilings"] = perf::to_json(ceilings);
  for (auto b : backends) {
    // the GPU's direct kernel runs in float, the CPU's in double
    const char* name = b == core::Backend::cuda ? "fma_fp32" : "fma_fp64";
    const auto ceiling = perf::find_ceiling(ceilings, b, name);
    if (ceiling && direct_rate.count(b))
      std::cout << fmt::format(
          "{} {} ceiling {:.2f} TFLOP/s: the direct-sum kernel reaches {:.0f}% of it at {} flops "
          "per interaction\n",
          core::to_string(b), name, *ceiling * 1e-12, 100 * direct_rate[b] * laplace_pair_flops / *ceiling,
          laplace_pair_flops);
  }
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : bench.records) {
    auto rj = r.to_json();
    const auto b = r.backend == "cuda" ? core::Backend::cuda : core::Backend::cpu;
    // Work (DESIGN.md, "Work is counted"): the O(p^4) M2L does 8 flops per complex multiply-add, p^2 of them per
    // local coefficient (n, m); the Laplace P2P laplace_pair_flops per interaction. Rates against the FMA
    // ceiling of the precision the kernels ran in.
    const int ncomp = r.kernel == "laplace" ? 1 : 3;
    double per_m2l = 0;
    for (int n = 0; n < r.p; ++n) per_m2l += 8.0 * (n + 1) * r.p * r.p * ncomp;
    const perf::Work m2l_work{0, per_m2l * double(r.stats.m2l_pairs)};
    const perf::Work p2p_work{0, r.kernel == "laplace" ? laplace_pair_flops * r.stats.p2p_interactions : 0.0};
    const bool fp32 = b == core::Backend::cuda && r.precision != "double";
    const auto ceiling = perf::find_ceiling(ceilings, b, fp32 ? "fma_fp32" : "fma_fp64");
    rj["m2l_flops"] = m2l_work.flops;
    rj["m2l_flops_per_second"] = perf::rates(m2l_work, r.time.m2l).flops_per_second;
    if (p2p_work.flops > 0) rj["p2p_flops_per_second"] = perf::rates(p2p_work, r.time.p2p).flops_per_second;
    if (ceiling && *ceiling > 0) {
      rj["m2l_fraction_of_fma_ceiling"] = perf::rates(m2l_work, r.time.m2l).flops_per_second / *ceiling;
      if (p2p_work.flops > 0)
        rj["p2p_fraction_of_fma_ceiling"] = perf::rates(p2p_work, r.time.p2p).flops_per_second / *ceiling;
    }
    if (direct_rate.count(b) && r.time.p2p > 0 && r.kernel == "laplace")
      rj["p2p_rate_over_direct_kernel"] = r.stats.p2p_interactions / r.time.p2p / direct_rate[b];
    runs.push_back(rj);
  }
  j["runs"] = runs;
  if (const auto& path = p.get_string("json"); !path.empty()) {
    io::write_file_atomically(path, j.dump(2) + "\n");
    std::cerr << "wrote " << path << "\n";
  }
  return 0;
}

}  // namespace

void add_bench_fmm_command(CLI::App& bench, std::vector<Subcommand>& out) {
  io::Parameters p;
  p.add("backend", "all", "backend to measure").one_of({"all", "auto", "cpu", "cuda"});
  p.add("kernel", "both", "kernels of the size sweep").one_of({"laplace", "biot-savart", "both"});
  p.add("sizes", "10000,100000,1000000,16777216", "body counts of the size sweep (uniform cube)");
  p.add("cpu_max_n", 1000000, "largest body count run on the CPU").at_least(1);
  p.add("p", 10, "expansion order of the size sweep").at_least(1).at_most(16);
  p.add("sweep_n", 1000000, "body count of the error-against-time sweep").at_least(1);
  p.add("orders", "4,6,8,10,12,14", "orders of the error-against-time sweep (GPU)");
  p.add("cpu_orders", "4,6,8,10,12", "orders of the error-against-time sweep on the CPU");
  p.add("thetas", "0.4,0.6", "acceptance criteria of the sweep (the first also for the size sweep)");
  p.add("ncrit_cpu", 64, "leaf size on the CPU").at_least(1);
  p.add("ncrit_gpu", 64, "leaf size on the GPU").at_least(1);
  p.add("tree_gpu", "host", "size sweep on the GPU: tree and lists built on the host or on the device (backend)")
      .one_of({"host", "backend"});
  p.add("precision", "single", "GPU P2P and M2L kernels of the size sweep").one_of({"single", "single-fast", "double"});
  p.add("sweep_precisions", "single,single-fast", "GPU kernels' precisions of the error-against-time sweep");
  p.add("m2l_blocks", "0",
        "GPU M2L of the size sweep: orders m per thread, a list of 1, 2, 4 (0: the default); each is timed");
  p.add("samples", 200, "targets checked against direct summation per configuration").at_least(0);
  p.add("reference_pairs", 0.0,
        "direct-sum interactions a reference may take (samples are cut to fit); 0: 2e9 for Laplace, 2e8 for "
        "Biot-Savart")
      .at_least(0)
      .at_most(1e12);  // an hour of direct sums on a CPU core
  p.add("repeats", 3, "timed evaluations; medians are reported").at_least(1);
  p.add("warmup", 1, "untimed evaluations first").at_least(0);
  p.add("quick", false, "small sizes and few orders (a smoke test, not a measurement)");
  io::declare_json_output(p, "also write the results as JSON to this file");
  p.add("host_reorder", "", "only time the host side of a GPU call's transfers at these body counts (no GPU needed)");
  declare_fmm_model_parameters(p);
  out.push_back({std::make_unique<io::ParameterCommand>(
                     bench, "fmm", "FMM: size sweep, error against time, GPU against CPU, P2P against direct sum",
                     std::move(p), false),
                 run_bench_fmm});
}

}  // namespace loom::app
