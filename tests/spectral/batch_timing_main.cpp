// Development timing of several shells' gradients in one launch of the cluster route (cluster::Shells), for the
// device (not a test; the tests are ShellsInOneLaunch*): the 50 GH components on K = 1, 2, 4, 8, 16 shells of SpEC's
// production extents (10 x 19 x 38; radii 1.62, 6, 12, 20, ... as loom bh's and SpEC's nested shells, so each
// shell its own radial matrix, inverse Jacobian and fields), per variant of the route one launch per call: the
// time of one call and per call of 20 back-to-back, each divided by K (the time per shell), the empty launch of
// the same grid both ways, the error against the FFT reference of every shell; the dense strided-batched cuBLAS
// gradient of one shell timed the same way (per tensor: the baseline per shell; and as one block) and each row's
// ratio to it; last the route as loom bh calls it (Differentiator::cartesian_gradients, host work included) at
// K = 2, 8 and 16. A summary table is printed last.
// With `quick`: the whole and the split groups of 2 per cluster of 8 on 512 threads and of 1 per cluster of 8 at
// 4/SM only.
// Usage: spectral_batch_timing [repeats] [quick]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/spectral/cluster_route.hpp"
#include "loom/spectral/operations.hpp"
#include "spectral/gh_fields.hpp"
#include "spectral/per_call.hpp"
#include "spectral/random_fields.hpp"

using namespace loom;
using namespace loom::spectral;
using timing::per_call;

namespace {

constexpr Index components = 50;
constexpr int most = cluster::max_shells;

// The shells and their arrays: fields, inverse Jacobians, outputs, scratch, the FFT reference's gradient.
struct Shells {
  std::deque<Shell> shells;  // (not movable)
  std::deque<Differentiator> separable;
  std::vector<core::Array<double>> ij, in, out, scratch, ref;

  explicit Shells(int count) {
    const double radii[most + 1] = {1.62, 6, 12, 20, 30, 45, 65, 90, 120, 160, 210, 270, 340, 420, 510, 610, 720};
    OperatorCache cache;
    for (int s = 0; s < count; ++s) {
      shells.emplace_back(10, 19, radii[s], radii[s + 1]);
      separable.emplace_back(shells.back(), AngularMethod::separable);
      const Index n = shells.back().size();
      ij.push_back(core::Array<double>::from(shells.back().inverse_jacobian()));
      in.push_back(fields::random_array(components * n, 5 + static_cast<unsigned>(s)));
      out.emplace_back(3 * components * n);
      scratch.emplace_back(3 * components * n);
      ref.emplace_back(3 * components * n);
      const Differentiator dense(shells.back(), AngularMethod::dense);
      dense.cartesian_gradient(Strategy::reference, cache, ij.back(), components, in.back(), scratch.back(),
                               ref.back());
    }
  }
  double worst_error(int k) {
    double e = 0;
    for (int s = 0; s < k; ++s) e = std::max(e, gh::relative_difference(ref[s], out[s]));
    return e;
  }
};

struct Variant {
  const char* label;
  int per_cluster;
  ClusterOptions options;
};

struct Row {
  std::string label;
  int k;
  long long blocks, held;
  double one, stream, floor_one, floor_stream, error;
};

}  // namespace

int main(int argc, char** argv) {
  if (!core::backend_available(core::Backend::cuda) || !gpu::clusters_available()) {
    std::puts("spectral_batch_timing: no CUDA device with thread-block clusters");
    return 0;
  }
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 20;
  if (repeats < 1) {
    std::fprintf(stderr, "spectral_batch_timing: repeats '%s' is not a positive integer\n", argv[1]);
    return 2;
  }
  const bool quick = argc > 2 && std::string(argv[2]) == "quick";
  if (argc > 2 && !quick) {
    std::fprintf(stderr, "spectral_batch_timing: second argument '%s' is not 'quick'\n", argv[2]);
    return 2;
  }
  Shells all(most);
  OperatorCache cache;
  // dense strided-batched cuBLAS on one shell (the paper's way), per tensor (T_aa, T_iaa, T_aa) as the thirteenth
  // session timed it: the baseline per shell; and the 50 components as one block (fewer launches)
  const Differentiator dense(all.shells[0], AngularMethod::dense);
  auto f = gh::gh_fields(all.shells[0].size());
  auto dense_out = gh::outputs(f, 3);
  core::Array<double> dense_scratch(dense.gradient_scratch(f.components));
  const auto dense_call = [&] {
    dense.cartesian_gradient(Strategy::batched, cache, all.ij[0], f.in, dense_scratch, gh::pointers(dense_out));
  };
  const auto dense_block = [&] {
    dense.cartesian_gradient(Strategy::batched, cache, all.ij[0], components, all.in[0], all.scratch[0], all.out[0]);
  };
  const double dense_one = per_call(repeats, 1, dense_call), dense_stream = per_call(repeats, 20, dense_call);
  std::printf("dense cuBLAS per tensor, one shell: %.2f us one call, %.2f us per call of 20\n", dense_one * 1e6,
              dense_stream * 1e6);
  const double block_one = per_call(repeats, 1, dense_block), block_stream = per_call(repeats, 20, dense_block);
  std::printf("dense cuBLAS, 50 components as one block: %.2f us one call, %.2f per call of 20, error %.2e\n",
              block_one * 1e6, block_stream * 1e6, all.worst_error(1));
  // the thirteenth session's default first; with the inverse Jacobian prefetched into L2; with cos and sin of one
  // m split between blocks (5 coefficients on the largest block, not 6), and both; one component per cluster of 8 at
  // four blocks per SM (400 blocks per shell: finer for the SMs to share), also split; 2 per cluster of 5 and of 4 on
  // blocks of 1024 threads (one block per SM)
  const std::vector<Variant> variants{{"G2/8 512 pad", 2, {512, 2, true, true, 8, false, true, false}},
                                      {"G2/8 512 pad pf", 2, {512, 2, true, true, 8, false, true, true}},
                                      {"G2/8 512 pad split", 2, {512, 2, true, true, 8, false, true, false, true}},
                                      {"G2/8 512 pad pf split", 2, {512, 2, true, true, 8, false, true, true, true}},
                                      {"G1/8 256x4", 1, {256, 4, true, false, 8, false, true, false}},
                                      {"G1/8 256x4 split", 1, {256, 4, true, false, 8, false, true, false, true}},
                                      {"G2/5 1024 pad", 2, {1024, 1, true, true, 5, false, true, false}},
                                      {"G2/4 1024 pad", 2, {1024, 1, true, true, 4, false, true, false}}};
  std::vector<Row> rows;
  std::printf("%-22s %2s %6s %5s %10s %10s %10s %10s %9s\n", "variant", "K", "blocks", "held", "one/shell", "20/shell",
              "floor/1", "floor/20", "error");
  for (const Variant& v : variants) {
    const std::string label = v.label;
    if (quick && label != "G2/8 512 pad" && label != "G2/8 512 pad split" && label != "G1/8 256x4" &&
        label != "G1/8 256x4 split")
      continue;
    std::vector<ClusterShell> routes;
    for (int s = 0; s < most; ++s) {
      const auto route =
          sweep::separable_route(all.separable[s].fused()->plan(cache, core::Where::host), Index{1} << 40);
      auto c = route ? ClusterShell::make(*route, v.per_cluster, 227 * 1024, v.options) : std::nullopt;
      if (!c) break;
      routes.push_back(std::move(*c));
    }
    if (routes.size() < most) {
      std::printf("%-22s does not fit\n", v.label);
      continue;
    }
    const cluster::Plan& plan = routes[0].plan(core::Where::device);
    std::vector<sweep::ComponentMap> maps;
    std::vector<const double*> jacobians, radials;
    for (int s = 0; s < most; ++s) {
      maps.push_back(
          component_map(all.in[s].read(core::Where::device), all.out[s].write(core::Where::device), components));
      jacobians.push_back(all.ij[s].read(core::Where::device));
      radials.push_back(routes[s].plan(core::Where::device).radial);
    }
    for (const int k : {1, 2, 4, 8, 16}) {
      for (int s = 0; s < k; ++s) {  // NaN on the device: a value not written shows
        all.out[s] = core::Array<double>(all.out[s].size(), std::nan(""));
        all.out[s].read(core::Where::device);
        maps[s] = component_map(all.in[s].read(core::Where::device), all.out[s].write(core::Where::device), components);
      }
      const auto table =
          shell_table(plan, std::span(maps).first(k), std::span(jacobians).first(k), std::span(radials).first(k));
      const auto call = [&] { gpu::cluster_gradient(plan, table); };
      const auto floor = [&] { gpu::cluster_floor(plan, k * components); };
      Row r{v.label,
            k,
            table.clusters() * plan.blocks,
            Index{gpu::max_active_clusters(plan)} * plan.blocks,
            per_call(repeats, 1, call) / k,
            per_call(repeats, 20, call) / k,
            per_call(repeats, 1, floor),
            per_call(repeats, 20, floor),
            all.worst_error(k)};
      std::printf("%-22s %2d %6lld %5lld %10.2f %10.2f %10.2f %10.2f %9.2e\n", r.label.c_str(), k, r.blocks, r.held,
                  r.one * 1e6, r.stream * 1e6, r.floor_one * 1e6, r.floor_stream * 1e6, r.error);
      std::fflush(stdout);
      rows.push_back(r);
    }
  }
  // as loom bh calls it: the strategy's default plan, the host's table per call
  for (const int k : {2, 8, 16}) {
    std::vector<ShellGradient> list;
    for (int s = 0; s < k; ++s)
      list.push_back({&all.separable[s], &all.ij[s], &all.in[s], &all.scratch[s], &all.out[s]});
    const auto call = [&] { Differentiator::cartesian_gradients(Strategy::cluster, cache, components, list); };
    rows.push_back(Row{"cartesian_gradients", k, 0, 0, per_call(repeats, 1, call) / k, per_call(repeats, 20, call) / k,
                       0, 0, all.worst_error(k)});
  }
  std::printf(
      "\n== per shell (us): 50 GH components on 10x19x38, K shells in one launch; dense cuBLAS per tensor, "
      "one shell: %.2f us one call, %.2f per call of 20 (as one block: %.2f / %.2f); floor: the empty "
      "launch of the same grid, per launch ==\n",
      dense_one * 1e6, dense_stream * 1e6, block_one * 1e6, block_stream * 1e6);
  std::printf("%-22s %2s %6s %5s %9s %9s %8s %8s %8s %8s %9s\n", "variant", "K", "blocks", "held", "one/shell",
              "20/shell", "floor/1", "floor/20", "dense/1", "dense/20", "error");
  for (const Row& r : rows)
    std::printf("%-22s %2d %6lld %5lld %9.2f %9.2f %8.2f %8.2f %7.2fx %7.2fx %9.2e\n", r.label.c_str(), r.k, r.blocks,
                r.held, r.one * 1e6, r.stream * 1e6, r.floor_one * 1e6, r.floor_stream * 1e6, dense_one / r.one,
                dense_stream / r.stream, r.error);
  return 0;
}
