// Development timing of the cluster route's components per cluster, for tuning on the device (not a test, and
// not the measurement of record: that is `loom spectral --strategy cluster`): the 50 GH components on SpEC's
// production shell, 1..4 components per cluster and 256 or 512 threads per block, one call per sample and 20
// back-to-back calls per sample, medians of `repeats` (argument 1, default 50), with each variant's error against
// the FFT reference; the compiled fixed extents of the production shell (G = 1, 2) against the run-time ones,
// the kernel built for 2 or 4 blocks per SM (wide or narrow register tiles), the products on the FP64 tensor
// cores (cluster_mma.hpp), shared rows padded against bank conflicts; last the dense strided-batched cuBLAS
// baseline timed the same way (one call, and per call of 20), and each variant's ratio to it in both modes.
// With `once`, each variant runs one call and nothing else (for a profiler: one launch per variant, in order);
// with `quick`, only the tensor-core variants at 10x19x38's fixed extents (2 per cluster of 8, 1 per cluster of
// 5, with and without d_r from shared memory) and the eleventh session's default; with `strips`, the twelfth
// session's default against the tensor-core products in strips (cluster_strips.hpp: 2 per cluster of 8, 1 per
// cluster of 5 and of 7). Beside each variant: an empty kernel launched with the same grid, clusters, threads and
// shared memory (gpu::cluster_floor), one call and of 20, the floor a single call cannot go below; then one call
// with clock stamps per block and phase (Plan::stamps): each phase's median and largest cycles over the blocks,
// and the blocks' spread of start and end on the global timer. A summary table is printed last.
// `strips-once`: the strips' variants one call each (for a profiler).
// Usage: spectral_cluster_timing [repeats] [once|quick|strips|strips-once]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/core/timer.hpp"
#include "loom/perf/timing.hpp"
#include "loom/spectral/cluster_route.hpp"
#include "loom/spectral/operations.hpp"
#include "spectral/gh_fields.hpp"
#include "spectral/per_call.hpp"

using namespace loom;
using namespace loom::spectral;

namespace {

using timing::per_call;

double worst_error(const std::vector<core::Array<double>>& ref, const std::vector<core::Array<double>>& out) {
  double e = 0;
  for (std::size_t t = 0; t < out.size(); ++t) e = std::max(e, gh::relative_difference(ref[t], out[t]));
  return e;
}

// A timed variant: its label, one call and per call of 20, the empty launch of its shape both ways, and the
// stamps of one call (cluster::stamp_slots per block).
struct Row {
  std::string label;
  double one, stream, floor_one, floor_stream;
  std::vector<unsigned long long> stamps;
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Per variant: each phase's median and largest clock cycles over the blocks, the SM clock (cycles against the
// global timer over each block's life), and the global timer's spread of the blocks' starts and ends and the
// span from the first start to the last end (the kernel on the device, without the launch).
void print_phases(const std::vector<Row>& rows) {
  constexpr int phases = cluster::stamp_phases - 1;
  const char* names[phases] = {"load", "wait", "forward", "per-q", "inverse", "chain"};
  std::printf("\n== phases of one stamped call: median / largest cycles over the blocks; the blocks' spread (us) ==\n");
  std::printf("%-26s", "variant");
  for (const char* name : names) std::printf(" %13s", name);
  std::printf(" %13s %6s %7s %7s %7s\n", "block", "GHz", "starts", "ends", "span");
  for (const Row& r : rows) {
    const std::size_t blocks = r.stamps.size() / cluster::stamp_slots;
    std::vector<double> cycles[phases + 1], ghz;
    unsigned long long first_start = ~0ull, last_start = 0, first_end = ~0ull, last_end = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
      const unsigned long long* s = r.stamps.data() + b * cluster::stamp_slots;
      const unsigned long long* clock = s + 1;
      for (int k = 0; k < phases; ++k) cycles[k].push_back(double(clock[k + 1] - clock[k]));
      cycles[phases].push_back(double(clock[phases] - clock[0]));
      const unsigned long long start = s[0], end = s[cluster::stamp_slots - 1];
      if (end > start) ghz.push_back(double(clock[phases] - clock[0]) / double(end - start));
      first_start = std::min(first_start, start), last_start = std::max(last_start, start);
      first_end = std::min(first_end, end), last_end = std::max(last_end, end);
    }
    std::printf("%-26s", r.label.c_str());
    for (auto& c : cycles)
      std::printf(" %6.0f/%6.0f", median_of(c), c.empty() ? 0.0 : *std::max_element(c.begin(), c.end()));
    std::printf(" %6.2f %7.2f %7.2f %7.2f\n", median_of(ghz), (last_start - first_start) * 1e-3,
                (last_end - first_end) * 1e-3, (last_end - first_start) * 1e-3);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!core::backend_available(core::Backend::cuda)) {
    std::puts("spectral_cluster_timing: no CUDA device");
    return 0;
  }
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 50;
  if (repeats < 1) {
    std::fprintf(stderr, "spectral_cluster_timing: repeats '%s' is not a positive integer\n", argv[1]);
    return 2;
  }
  const bool strips_once = argc > 2 && std::strcmp(argv[2], "strips-once") == 0;
  const bool once = strips_once || (argc > 2 && std::strcmp(argv[2], "once") == 0);
  const bool quick = argc > 2 && std::strcmp(argv[2], "quick") == 0;
  const bool strips = strips_once || (argc > 2 && std::strcmp(argv[2], "strips") == 0);
  if (argc > 2 && !once && !quick && !strips) {
    std::fprintf(stderr,
                 "spectral_cluster_timing: second argument '%s' is not 'once', 'quick', 'strips' or 'strips-once'\n",
                 argv[2]);
    return 2;
  }
  Shell s(10, 19, 1.62, 6);
  const Index n = s.size();
  auto f = gh::gh_fields(n);
  const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
  const auto ref = gh::reference_gradients(s, f, ij);
  const Differentiator d(s, AngularMethod::separable);
  OperatorCache cache;
  const auto route = sweep::separable_route(d.fused()->plan(cache, core::Where::host), Index{1} << 40);
  auto out = gh::outputs(f, 3);
  const sweep::ComponentMap map = gh::device_map(f.tensors, out);
  const double* jacobian = ij.read(core::Where::device);
  std::printf("%-6s %-4s %7s %6s %8s %7s %9s %6s %7s %12s %12s %8s %8s %10s %11s %11s\n", "per cl", "mma", "padded",
              "thr", "per SM", "extents", "shared KB", "blocks", "held", "one call us", "of 20 us", "dense/1",
              "dense/20", "error", "floor/1 us", "floor/20 us");
  struct Variant {
    int components, threads, per_sm;
    bool fixed, tensor_cores = false, padded = false;
    int blocks = cluster::max_blocks;
    bool shared_radial = false, strips = false, prefetch = false;
  };
  // the tenth and eleventh sessions' variants first (the default first), then the register tiles padded, then
  // the tensor-core tiles, then clusters of 5 blocks (250 blocks: two on nearly every SM), then d_r from shared
  // memory (lines by whole theta columns)
  const std::vector<Variant> quick_variants{
      Variant{2, 256, 2, true}, Variant{2, 256, 2, true, true, true}, Variant{1, 256, 2, true, true, true, 5},
      Variant{1, 256, 2, true, true, true, 5, true}};
  // the thirteenth session's default (2 per cluster of 8 in strips on blocks of 512 threads, padded) and the
  // runner-up (1 per cluster of 8 in strips, four blocks per SM, natural rows), each without and with the inverse
  // Jacobian prefetched into L2 at the start; 2 per cluster of 5 and of 4 on blocks of 1024 threads, one block
  // per SM (125 and 100 blocks); the twelfth session's default last (the session's first call
  // also timed 2 per cluster of 8 in strips on 256 threads and 1 per cluster of 7 and of 6, at 05bf838)
  const std::vector<Variant> strip_variants{
      Variant{2, 512, 2, true, true, true, 8, false, true},
      Variant{2, 512, 2, true, true, true, 8, false, true, true},
      Variant{1, 256, 4, true, true, false, 8, false, true},
      Variant{1, 256, 4, true, true, false, 8, false, true, true},
      Variant{2, 1024, 1, true, true, true, 5, false, true},
      Variant{2, 1024, 1, true, true, true, 4, false, true},
      Variant{2, 256, 2, true, true, true}};
  const std::vector<Variant> all_variants{
      Variant{2, 256, 2, true},
      Variant{2, 256, 2, false},
      Variant{1, 256, 4, true},
      Variant{2, 256, 4, true},
      Variant{2, 256, 2, true, false, true},
      Variant{2, 256, 2, true, true, false},
      Variant{2, 256, 2, true, true, true},
      Variant{1, 256, 2, true, true, true},
      Variant{2, 256, 2, false, true, true},
      Variant{1, 256, 2, true, true, true, 5},
      Variant{1, 256, 2, false, true, true, 5},
      Variant{1, 256, 2, false, false, false, 5},
      Variant{1, 256, 2, true, true, true, 5, true},
      Variant{2, 256, 2, false, true, true, 8, true},
      Variant{2, 256, 3, true, true, true, 8, false, true},
      Variant{1, 256, 3, true, true, true, 7, false, true},
      Variant{1, 256, 3, true, true, false, 6, false, true},
      Variant{1, 256, 4, true, true, false, 8, false, true}};
  // the paper's way first (each variant's row is printed as soon as it is timed, so a failing variant leaves the
  // rows before it): the dense angular matrices by strided-batched cuBLAS, the same 50 components and calls
  double dense[2] = {1, 1};
  if (!once) {
    const Differentiator full(s, AngularMethod::dense);
    core::Array<double> scratch(full.gradient_scratch(f.components));
    auto dense_out = gh::outputs(f, 3);
    const auto call = [&] { full.cartesian_gradient(Strategy::batched, cache, ij, f.in, scratch, gh::pointers(dense_out)); };
    dense[0] = per_call(repeats, 1, call);
    dense[1] = per_call(repeats, 20, call);
    std::printf("%-6s %-4s %7s %6s %8s %7s %9s %6s %7s %12.2f %12.2f %8s %8s %10.2e %11s %11s\n", "dense", "-", "-",
                "-", "-", "cuBLAS", "-", "-", "-", dense[0] * 1e6, dense[1] * 1e6, "1x", "1x",
                worst_error(ref, dense_out), "-", "-");
    std::fflush(stdout);
  }
  std::vector<Row> rows;
  const auto& variants = quick ? quick_variants : strips ? strip_variants : all_variants;
  for (const Variant v : variants) {
    const int g = v.components;
    const auto c = ClusterShell::make(*route, g, 227 * 1024,
                                      {v.threads, v.per_sm, v.tensor_cores, v.padded, v.blocks, v.shared_radial,
                                       v.strips, v.prefetch});
    if (!c) {
      std::printf("%-10d %8d does not fit\n", g, v.threads);
      continue;
    }
    auto plan = c->plan(core::Where::device);
    plan.fixed_extents = v.fixed;
    const bool fixed = cluster::runs_fixed(plan);
    for (auto& o : out) {  // NaN on the device (same buffers as the map's): a value not written shows
      double* h = o.write(core::Where::host);
      std::fill(h, h + o.size(), std::nan(""));
      o.read(core::Where::device);
      o.write(core::Where::device);
    }
    const long long held = gpu::max_active_clusters(plan) * v.blocks;  // blocks the device holds at once
    const long long blocks = (f.components + g - 1) / g * v.blocks;
    if (once) {
      gpu::cluster_gradient(plan, map, jacobian);
      continue;
    }
    double median[2] = {0, 0}, floor[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      median[k] = per_call(repeats, k == 0 ? 1 : 20, [&] { gpu::cluster_gradient(plan, map, jacobian); });
      floor[k] = per_call(repeats, k == 0 ? 1 : 20, [&] { gpu::cluster_floor(plan, f.components); });
    }
    const bool strips_run = cluster::runs_strips(plan);
    const char* products = strips_run ? "s" : v.shared_radial ? "r" : v.tensor_cores ? "yes" : "no";
    std::printf("%-6d %-4s %7s %6d %8d %7s %9.1f %6lld %7lld %12.2f %12.2f %7.2fx %7.2fx %10.2e %11.2f %11.2f\n", g,
                products, v.padded ? "yes" : "no", v.threads, v.per_sm, fixed ? "fixed" : "plan",
                plan.shared * 8.0 / 1024, blocks, held, median[0] * 1e6, median[1] * 1e6, dense[0] / median[0],
                dense[1] / median[1], worst_error(ref, out), floor[0] * 1e6, floor[1] * 1e6);
    std::fflush(stdout);
    // one more call with the phases' clock stamps (a barrier per phase: slightly slower than the timed calls)
    core::Array<double> stamps(static_cast<std::size_t>(blocks * cluster::stamp_slots), 0.0);
    auto stamped = plan;
    stamped.stamps = reinterpret_cast<unsigned long long*>(stamps.read_write(core::Where::device));
    gpu::cluster_gradient(stamped, map, jacobian);
    const std::string threads = v.threads > 256 ? " " + std::to_string(v.threads) : "";
    Row row{std::string("G") + std::to_string(g) + " " + (strips_run ? "strips" : v.tensor_cores ? "mma" : "fma") +
                (v.padded ? " pad" : "") + threads + (v.prefetch ? " pf" : "") + " /" + std::to_string(v.blocks) +
                " " + std::to_string(blocks) + "b/" + std::to_string(held),
            median[0] * 1e6, median[1] * 1e6, floor[0] * 1e6, floor[1] * 1e6, {}};
    row.stamps.resize(stamps.size());
    std::memcpy(row.stamps.data(), stamps.read(core::Where::host), stamps.size() * sizeof(double));
    rows.push_back(std::move(row));
  }
  if (once) return 0;
  print_phases(rows);
  std::printf("\n== summary: 50 GH components, 10x19x38 (dense cuBLAS %.2f us one call, %.2f per call of 20) ==\n",
              dense[0] * 1e6, dense[1] * 1e6);
  std::printf("%-26s %9s %9s %9s %9s %11s %11s %8s %8s\n", "variant", "one us", "of 20 us", "floor/1", "floor/20",
              "one-floor", "20-floor20", "dense/1", "dense/20");
  for (const Row& r : rows)
    std::printf("%-26s %9.2f %9.2f %9.2f %9.2f %11.2f %11.2f %7.2fx %7.2fx\n", r.label.c_str(), r.one, r.stream,
                r.floor_one, r.floor_stream, r.one - r.floor_one, r.stream - r.floor_stream, dense[0] * 1e6 / r.one,
                dense[1] * 1e6 / r.stream);
  return 0;
}
