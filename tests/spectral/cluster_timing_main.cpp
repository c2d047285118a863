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
// 5, with and without d_r from shared memory) and the eleventh session's default.
// Usage: spectral_cluster_timing [repeats] [once|quick]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/core/timer.hpp"
#include "loom/perf/timing.hpp"
#include "loom/spectral/cluster_route.hpp"
#include "loom/spectral/operations.hpp"
#include "spectral/gh_fields.hpp"

using namespace loom;
using namespace loom::spectral;

namespace {

// The median over `repeats` samples (after 3 warm-ups) of the time per call of `calls` back-to-back calls.
template <class F>
double per_call(int repeats, int calls, const F& call) {
  core::Stopwatch watch(core::Backend::cuda);
  return perf::time_repeated(3, repeats, [&] {
           watch.start();
           for (int i = 0; i < calls; ++i) call();
           return watch.stop() / calls;
         }).median;
}

double worst_error(const std::vector<core::Array<double>>& ref, const std::vector<core::Array<double>>& out) {
  double e = 0;
  for (std::size_t t = 0; t < out.size(); ++t) e = std::max(e, gh::relative_difference(ref[t], out[t]));
  return e;
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
  const bool once = argc > 2 && std::strcmp(argv[2], "once") == 0;
  const bool quick = argc > 2 && std::strcmp(argv[2], "quick") == 0;
  if (argc > 2 && !once && !quick) {
    std::fprintf(stderr, "spectral_cluster_timing: second argument '%s' is not 'once' or 'quick'\n", argv[2]);
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
  std::printf("%-6s %-4s %7s %6s %8s %7s %9s %6s %7s %12s %12s %8s %8s %10s\n", "per cl", "mma", "padded", "thr",
              "per SM", "extents", "shared KB", "blocks", "held", "one call us", "of 20 us", "dense/1", "dense/20",
              "error");
  struct Variant {
    int components, threads, per_sm;
    bool fixed, tensor_cores = false, padded = false;
    int blocks = cluster::max_blocks;
    bool shared_radial = false;
  };
  // the tenth and eleventh sessions' variants first (the default first), then the register tiles padded, then
  // the tensor-core tiles, then clusters of 5 blocks (250 blocks: two on nearly every SM), then d_r from shared
  // memory (lines by whole theta columns)
  const std::vector<Variant> quick_variants{
      Variant{2, 256, 2, true}, Variant{2, 256, 2, true, true, true}, Variant{1, 256, 2, true, true, true, 5},
      Variant{1, 256, 2, true, true, true, 5, true}};
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
      Variant{2, 256, 2, false, true, true, 8, true}};
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
    std::printf("%-6s %-4s %7s %6s %8s %7s %9s %6s %7s %12.2f %12.2f %8s %8s %10.2e\n", "dense", "-", "-", "-", "-",
                "cuBLAS", "-", "-", "-", dense[0] * 1e6, dense[1] * 1e6, "1x", "1x", worst_error(ref, dense_out));
    std::fflush(stdout);
  }
  for (const Variant v : quick ? quick_variants : all_variants) {
    const int g = v.components;
    const auto c = ClusterShell::make(*route, g, 227 * 1024,
                                      {v.threads, v.per_sm, v.tensor_cores, v.padded, v.blocks, v.shared_radial});
    if (!c) {
      std::printf("%-10d %8d does not fit\n", g, v.threads);
      continue;
    }
    auto plan = c->plan(core::Where::device);
    plan.fixed_extents = v.fixed;
    const bool fixed = cluster::Production1::matches(plan) || cluster::Production2::matches(plan) ||
                       cluster::Production1Padded::matches(plan) || cluster::Production2Padded::matches(plan) ||
                       cluster::Production1Padded5::matches(plan) || cluster::Production1Padded5Radial::matches(plan);
    for (auto& o : out) {  // NaN on the device (same buffers as the map's): a value not written shows
      double* h = o.write(core::Where::host);
      std::fill(h, h + o.size(), std::nan(""));
      o.read(core::Where::device);
      o.write(core::Where::device);
    }
    const long long held = gpu::max_active_clusters(plan) * v.blocks;  // blocks the device holds at once
    double median[2] = {0, 0};
    if (once) {
      gpu::cluster_gradient(plan, map, jacobian);
      continue;
    }
    for (int k = 0; k < 2; ++k)
      median[k] = per_call(repeats, k == 0 ? 1 : 20, [&] { gpu::cluster_gradient(plan, map, jacobian); });
    std::printf("%-6d %-4s %7s %6d %8d %7s %9.1f %6lld %7lld %12.2f %12.2f %7.2fx %7.2fx %10.2e\n", g,
                v.shared_radial ? "r" : v.tensor_cores ? "yes" : "no", v.padded ? "yes" : "no", v.threads, v.per_sm,
                fixed ? "fixed" : "plan", plan.shared * 8.0 / 1024,
                static_cast<long long>((f.components + g - 1) / g * v.blocks), held, median[0] * 1e6, median[1] * 1e6,
                dense[0] / median[0], dense[1] / median[1], worst_error(ref, out));
    std::fflush(stdout);
  }
  return 0;
}
