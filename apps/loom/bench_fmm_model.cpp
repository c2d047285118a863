// `loom bench fmm --ranks_bodies M` under mpiexec: the FMM over the ranks (fmm/parallel/ranks_bench.hpp).
// `loom bench fmm --model_ranks 8,64,512,4096`: the FMM on P ranks by the model of fmm/parallel/model.hpp (P
// virtual ranks in this process; weak scaling at model_bodies_per_rank bodies per rank, uniform cube), with the
// extrapolation to model_target_bodies per rank (the paper: 1.68e7 Biot-Savart bodies per GPU, 74% efficiency
// on 4096 GPUs).
#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench_fmm_model.hpp"
#include "loom/core/error.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/comm/rank_device.hpp"
#include "loom/core/backend.hpp"
#include "loom/fmm/parallel/model.hpp"
#include "loom/fmm/parallel/ranks_bench.hpp"
#include "loom/io/derived_checks.hpp"
#include "loom/io/atomic_file.hpp"

namespace loom::app {
namespace {

std::vector<int> parse_ranks(const std::string& text) {
  std::vector<int> out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) {
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || v < 1 || v > 65536)
      throw UsageError("model_ranks = \"" + text + "\": expected a comma-separated list of integers in [1, 65536]");
    out.push_back(v);
  }
  return out;
}

}  // namespace

void declare_fmm_model_parameters(io::Parameters& p) {
  p.add("model_ranks", "", "model P virtual ranks instead of the benchmark: a list, e.g. 8,64,512,4096");
  p.add("model_kernel", "biot-savart", "kernel of the model").one_of({"laplace", "biot-savart"});
  p.add("model_bodies_per_rank", 2000, "bodies per virtual rank (weak scaling, uniform cube)").at_least(1);
  p.add("model_theta", 0.4,
        "acceptance criterion of the model's FMM (p is the key p): the one of the run behind model_target_seconds")
      .at_least(0.05)
      .at_most(1);
  p.add("model_network", "ndr", "network of the model: InfiniBand NDR or NVLink").one_of({"ndr", "nvlink"});
  p.add("model_bandwidth", 0.0, "bytes per second into a rank (0: the network's)").at_least(0).at_most(1e15);
  p.add("model_latency", -1.0, "seconds per message (negative: the network's)").at_least(-1).at_most(1);
  p.add("model_target_bodies", 16777216, "bodies per rank to extrapolate to (the paper's per GPU)").at_least(1);
  p.add("model_target_seconds", 0.0,
        "seconds of one rank's step at the target load, as the ranks run it (0: scaled from this machine; one GPU "
        "rank took 4.04 s at 1.68e7 Biot-Savart bodies, p 8, theta 0.6: `mpiexec -n 1 loom bench fmm "
        "--ranks_bodies 16777216`, docs/performance.md)")
      .at_least(0)
      .at_most(1e6);
  p.add("model_remote", "device",
        "where the received field and the LET selection run at the target: device (sped up as the local FMM, by "
        "model_target_seconds, times the received field's device/host cost relative to the local FMM, measured on "
        "a probe: needs a CUDA device), device_as_local (the same factor taken as 1) or host (this machine's CPU "
        "rates)")
      .one_of({"device", "device_as_local", "host"});
  p.add("model_probe_bodies", 262144,
        "model_remote = device: bodies in each half of the probe that measures the received field's cost on the "
        "device against the host's")
      .at_least(1000)
      .at_most(100000000);
  p.add("model_interior_bodies", 524288,
        "model_remote = device: bodies in each of the 27 parts of the interior probe (model.hpp (6)), whose centre "
        "part's received field against its local FMM on the device gives the target's; 0: none, (5) alone")
      .at_least(0)
      .at_most(20000000);
  p.add("ranks_bodies", 0,
        "bodies per MPI rank: run the FMM over the ranks of mpiexec -n N instead of the benchmark (weak scaling)")
      .at_least(0);
  p.add("ranks_kernel", "laplace", "kernel of the run over ranks").one_of({"laplace", "biot-savart"});
  p.add("ranks_theta", 0.4, "run over ranks: the acceptance criterion theta").at_least(0.05).at_most(0.95);
  p.add("ranks_tree", "auto",
        "run over ranks: where each rank builds its tree and lists: backend (gpu/device_tree.hpp, on the device "
        "with --backend cuda, thrust's host code on the CPU), host (the host tree, parallel/cubic_tree.hpp), or "
        "auto (backend with cuda, host on the CPU)")
      .one_of({"auto", "backend", "host"});
  p.add("ranks_dist", "cube", "bodies of the run over ranks").one_of({"cube", "sphere", "plummer"});
  p.add("parallel.repartition_threshold", 1.1,
        "run over ranks: partition again, by the measured costs, when their imbalance exceeds this")
      .at_least(1)
      .at_most(1000);
}

void check_fmm_mode_keys(const io::Parameters& p) {
  if (p.get_string("model_ranks").empty())
    io::refuse_unread_keys(p,
                           {"model_kernel", "model_bodies_per_rank", "model_theta", "model_network", "model_bandwidth",
                            "model_latency", "model_target_bodies", "model_target_seconds", "model_remote",
                            "model_probe_bodies", "model_interior_bodies"},
                           "unless model_ranks is given");
  else if (p.get_string("model_remote") != "device")
    io::refuse_unread_keys(p, {"model_probe_bodies", "model_interior_bodies"}, "unless model_remote is device");
  if (p.get_int("ranks_bodies") == 0 && comm::Communicator::world().size() == 1)
    io::refuse_unread_keys(p,
                           {"ranks_kernel", "ranks_dist", "ranks_theta", "ranks_tree", "parallel.repartition_threshold"},
                           "unless ranks_bodies is given (or mpiexec -n N)");
}

int run_fmm_ranks_bench(const io::Parameters& p) {
  const auto world = comm::Communicator::world();
  if (p.get_int("ranks_bodies") == 0)
    throw UsageError(io::invalid_value_message("ranks_bodies", p.value("ranks_bodies"),
                                               "an integer >= 1 under mpiexec -n N with N > 1"));
  fmm::parallel::RanksBench b;
  b.kernel = fmm::parse_kernel(p.get_string("ranks_kernel"));
  b.distribution = fmm::parse_distribution(p.get_string("ranks_dist"));
  b.bodies_per_rank = p.get_int("ranks_bodies");
  std::string backend = p.get_string("backend");
  if (backend == "all" && p.user_set("backend"))
    throw UsageError(io::invalid_value_message("backend", backend, "cpu, cuda or auto with ranks_bodies"));
  if (backend == "all") backend = "cpu";  // the benchmark's default: the CPU on ranks
  b.options.backend = core::parse_backend(backend, "backend");
  b.options.order = static_cast<int>(p.get_int("p"));
  b.options.theta = p.get_real("ranks_theta");
  const bool gpu = b.options.backend == core::Backend::cuda;
  const std::string& tree = p.get_string("ranks_tree");
  b.options.tree_on_backend = tree == "backend" || (tree == "auto" && gpu);
  b.options.ncrit = static_cast<int>(p.get_int(gpu ? "ncrit_gpu" : "ncrit_cpu"));
  b.options.precision = fmm::parse_precision(p.get_string("precision"));
  b.warmup = static_cast<int>(p.get_int("warmup"));
  b.repeats = static_cast<int>(p.get_int("repeats"));
  b.repartition_threshold = p.get_real("parallel.repartition_threshold");
  b.json = p.get_string("json");
  if (gpu) comm::select_rank_device(world);  // ranks share the devices there are
  return fmm::parallel::run_bench_on_ranks(world, b, std::cout);
}

int run_fmm_model(const io::Parameters& p) {
  const std::vector<int> ranks = parse_ranks(p.get_string("model_ranks"));
  const fmm::Kernel kernel = fmm::parse_kernel(p.get_string("model_kernel"));
  fmm::parallel::Network net = fmm::parallel::parse_network(p.get_string("model_network"));
  if (p.get_real("model_bandwidth") > 0) net.bandwidth = p.get_real("model_bandwidth");
  if (p.get_real("model_latency") >= 0) net.latency = p.get_real("model_latency");
  const auto m = static_cast<Index>(p.get_int("model_bodies_per_rank"));
  const double target = double(p.get_int("model_target_bodies")), target_seconds = p.get_real("model_target_seconds");
  const std::string where = p.get_string("model_remote");
  const bool remote_on_host = where == "host", probe = where == "device";
  if (probe && !core::backend_available(core::Backend::cuda))
    throw UsageError(io::invalid_value_message("model_remote", p.value("model_remote"),
                                               "device_as_local or host: no CUDA device here to measure the probe on"));
  fmm::Options o;
  o.order = static_cast<int>(p.get_int("p"));
  o.theta = p.get_real("model_theta");
  o.ncrit = static_cast<int>(p.get_int("ncrit_cpu"));
  const int ncomp = kernel == fmm::Kernel::laplace ? 1 : 3;
  double factor = 1;
  nlohmann::json probe_json;
  if (probe) {
    const auto r = fmm::parallel::probe_remote(kernel, o, p.get_int("model_probe_bodies"));
    factor = r.factor();
    std::cout << fmt::format(
        "probe (5), two halves of {} bodies: host local {:.4f} s, remote {:.4f} s (walk {:.4f}); device local "
        "{:.4f} s, remote {:.4f} s (walk {:.4f}); the received field's factor on the device f = {:.3f}\n",
        r.bodies, r.host_local, r.host_remote, r.host_walk, r.device_local, r.device_remote, r.device_walk, factor);
    probe_json = {{"bodies", r.bodies},          {"host_local", r.host_local},
                  {"host_remote", r.host_remote}, {"device_local", r.device_local},
                  {"device_remote", r.device_remote}, {"host_walk", r.host_walk},
                  {"device_walk", r.device_walk},   {"factor", factor}};
  }
  std::optional<fmm::parallel::ModelRanks> interior;
  nlohmann::json interior_json;
  if (probe && p.get_int("model_interior_bodies") > 0) {
    fmm::Options device = o;
    device.backend = core::Backend::cuda;
    interior = fmm::parallel::model_interior(kernel, device, p.get_int("model_interior_bodies"));
    const auto& i = *interior;
    const double growth = fmm::parallel::received_growth(i, target / double(i.timed_bodies));
    std::cout << fmt::format(
        "interior probe (6), the centre of 27 parts of {} bodies: device local {:.4f} s, remote {:.4f} s (walk "
        "{:.4f}), remote / local {:.4f}, local after the received LET is needed (its downward pass) {:.4f} s; "
        "{} LET bodies, {} cells received; selection (host) {:.4f} s (walk {:.4f}, writing {:.4f}; into fresh "
        "pages {:.4f}); growth (3) to the target {:.1f}\n",
        i.timed_bodies, i.local, i.remote, i.walk, i.remote / i.local, i.after_far, i.max_let_bodies, i.max_cells,
        i.select, i.plan, i.select - i.plan, i.select_fresh - i.plan, growth);
    interior_json = {{"bodies", i.timed_bodies}, {"device_local", i.local}, {"device_remote", i.remote},
                     {"device_walk", i.walk},    {"select", i.select},      {"let_bodies", i.max_let_bodies},
                     {"let_cells", i.max_cells}, {"growth", growth},        {"bytes_received", i.max_bytes},
                     {"plan", i.plan},           {"device_local_after_far", i.after_far},
                     {"select_fresh", i.select_fresh}, {"written_bytes", i.written_bytes}};
  }
  std::cout << fmt::format(
      "model of {} on P ranks: {} bodies per rank (uniform cube), p {}, theta {}, ncrit {}; network {:.3g} GB/s, "
      "{:.3g} us per message\n",
      fmm::to_string(kernel), m, o.order, o.theta, o.ncrit, net.bandwidth * 1e-9, net.latency * 1e6);
  std::cout << "ranks  bodies/rank  imbalance  messages  MB_in(max)  MB_in(mean)  let_cells  let_bodies    local   "
               "select   remote     comm     step  efficiency  | at target: step  efficiency  | by (6): step  efficiency  "
               "| (6) hidden behind the whole local FMM (1'): efficiency\n";
  nlohmann::json runs = nlohmann::json::array();
  for (int P : ranks) {
    const Index n = m * P;
    const auto x = fmm::make_positions(fmm::Distribution::cube, n, 1);
    const auto strength = fmm::make_uniform(n * ncomp, -1, 1, 2);
    std::vector<double> sigma;
    if (ncomp == 3) sigma.assign(static_cast<std::size_t>(n), 2 / std::cbrt(double(n)));  // the mean spacing
    const auto r = fmm::parallel::model_ranks(kernel, o, x, strength, sigma, P, probe ? core::cpu_threads() : 1);
    const auto here = fmm::parallel::model_step(r, net, 1);
    const auto scaled =
        fmm::parallel::model_step(r, net, target / double(m), target_seconds, remote_on_host, factor);
    const double interior_local = target_seconds > 0 || !interior
                                      ? target_seconds
                                      : interior->local * target / double(interior->timed_bodies);
    const auto there = interior ? fmm::parallel::model_step_interior(r, *interior, net, target, interior_local) : scaled;
    std::cout << fmt::format(
        "{:>5} {:>12} {:>10.3f} {:>9.0f} {:>11.3f} {:>12.3f} {:>10} {:>11} {:>8.4f} {:>8.4f} {:>8.4f} {:>8.5f} "
        "{:>8.4f} {:>10.1f}%  | {:>14.3f} {:>10.1f}%  | {:>11.3f} {:>10.1f}%  | {:>10.1f}%\n",
        P, m, r.imbalance, r.max_messages, r.max_bytes * 1e-6, r.mean_bytes * 1e-6, r.max_cells, r.max_let_bodies,
        here.local, here.select, here.remote, here.communication, here.step, 100 * here.efficiency, scaled.step,
        100 * scaled.efficiency, there.step, 100 * there.efficiency, 100 * there.efficiency_whole);
    std::cout.flush();
    runs.push_back({{"ranks", P},
                    {"bodies_per_rank", m},
                    {"imbalance", r.imbalance},
                    {"messages_max", r.max_messages},
                    {"messages_mean", r.mean_messages},
                    {"bytes_received_max", r.max_bytes},
                    {"bytes_received_mean", r.mean_bytes},
                    {"let_cells_received_max", r.max_cells},
                    {"let_bodies_received_max", r.max_let_bodies},
                    {"local", here.local},
                    {"select", here.select},
                    {"select_fresh_pages", r.select_fresh},
                    {"remote", here.remote},
                    {"communication", here.communication},
                    {"step", here.step},
                    {"efficiency", here.efficiency},
                    {"target_bodies_per_rank", target},
                    {"target_local", there.local},
                    {"target_communication", there.communication},
                    {"target_step", there.step},
                    {"target_remote", there.remote},
                    {"target_select", there.select},
                    {"target_efficiency", there.efficiency},
                    {"target_plan", there.plan},
                    {"target_hidden", there.hidden},
                    {"target_step_whole", there.step_whole},
                    {"target_efficiency_whole", there.efficiency_whole},
                    {"target_efficiency_by_5", scaled.efficiency},
                    {"target_step_by_5", scaled.step},
                    {"target_remote_by_5", scaled.remote},
                    {"target_write", there.write},
                    {"target_volume_bytes", there.volume},
                    {"target_volume_near_bytes", there.volume_near}});
  }
  if (interior) {
    const auto& t = runs.back();
    const double local = t["target_local"], hidden = t["target_hidden"];
    std::cout << fmt::format(
        "at the target by (6)-(8), {} ranks: volume {:.3f} GB written, sent and received (near {:.3f} + distant "
        "{:.3f}); plan {:.4f} + max(hidden {:.4f}, write {:.4f} + comm {:.4f}) + rest {:.4f} + remote {:.4f} = "
        "{:.4f} s against local {:.4f} s\n",
        ranks.back(), double(t["target_volume_bytes"]) * 1e-9, double(t["target_volume_near_bytes"]) * 1e-9,
        (double(t["target_volume_bytes"]) - double(t["target_volume_near_bytes"])) * 1e-9, double(t["target_plan"]),
        hidden, double(t["target_write"]), double(t["target_communication"]), local - hidden,
        double(t["target_remote"]), double(t["target_step"]), local);
  }
  std::cout << fmt::format("predicted weak-scaling efficiency at {:.3g} bodies per rank on {} ranks, by {}: {:.1f}% "
                           "(the LETs hidden behind the local FMM up to its downward pass; behind the whole of "
                           "it (1'): {:.1f}%; the paper: 74% on 4096 GPUs)\n",
                           target, ranks.back(), interior ? "(6)" : "(5)",
                           100 * runs.back()["target_efficiency"].get<double>(),
                           100 * runs.back()["target_efficiency_whole"].get<double>());
  if (const auto& path = p.get_string("json"); !path.empty()) {
    nlohmann::json j;
    j["model"] = runs;
    j["network"] = {{"bandwidth", net.bandwidth}, {"latency", net.latency}};
    j["model_remote"] = where;
    if (probe) j["probe"] = probe_json;
    if (interior) j["interior"] = interior_json;
    io::write_file_atomically(path, j.dump(2) + "\n");
    std::cerr << "wrote " << path << "\n";
  }
  return 0;
}

}  // namespace loom::app
