// Development timing of the cluster route's components per cluster, for tuning on the device (not a test, and
// not the measurement of record: that is `loom spectral --strategy cluster`): the 50 GH components on SpEC's
// production shell, 1..4 components per cluster and 256 or 512 threads per block, one call per sample and 20
// back-to-back calls per sample, medians of `repeats` (argument 1, default 50), with each variant's error against
// the FFT reference; the compiled fixed extents of the production shell (G = 1, 2) against the run-time ones,
// and the kernel built for 2 or 4 blocks per SM (wide or narrow register tiles).
// Usage: spectral_cluster_timing [repeats]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "loom/core/backend.hpp"
#include "loom/core/timer.hpp"
#include "loom/perf/timing.hpp"
#include "loom/spectral/cluster_route.hpp"
#include "loom/spectral/operations.hpp"
#include "spectral/gh_fields.hpp"

using namespace loom;
using namespace loom::spectral;

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
  Shell s(10, 19, 1.62, 6);
  const Index n = s.size();
  auto f = gh::gh_fields(n);
  const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
  const auto ref = gh::reference_gradients(s, f, ij);
  const Differentiator d(s, AngularMethod::separable);
  OperatorCache cache;
  const auto route = sweep::separable_route(d.fused()->plan(cache, core::Where::host), Index{1} << 40);
  auto out = gh::outputs(f, 3);
  sweep::ComponentMap map;
  for (std::size_t t = 0; t < out.size(); ++t)
    add_part(map, f.tensors[t].data.read(core::Where::device), out[t].write(core::Where::device),
             f.tensors[t].components());
  const double* jacobian = ij.read(core::Where::device);
  std::printf("%-10s %8s %7s %8s %10s %8s %14s %18s %10s\n", "per clust", "threads", "per SM", "extents",
              "shared KB", "blocks", "one call us", "per call of 20 us", "error");
  struct Variant {
    int components, threads, per_sm;
    bool fixed;
  };
  for (const Variant v : {Variant{2, 256, 2, true}, Variant{2, 256, 2, false}, Variant{1, 256, 2, true},
                          Variant{1, 256, 4, true}, Variant{1, 256, 4, false}, Variant{2, 256, 4, true},
                          Variant{1, 256, 2, false}, Variant{2, 512, 1, true}, Variant{3, 256, 2, false},
                          Variant{4, 512, 1, false}}) {
    const int g = v.components;
    const auto c = ClusterShell::make(*route, g, 227 * 1024, v.threads, v.per_sm);
    if (!c) {
      std::printf("%-10d %8d does not fit\n", g, v.threads);
      continue;
    }
    auto plan = c->plan(core::Where::device);
    plan.fixed_extents = v.fixed;
    const bool fixed = cluster::Production1::matches(plan) || cluster::Production2::matches(plan);
    for (auto& o : out) {  // NaN on the device (same buffers as the map's): a value not written shows
      double* h = o.write(core::Where::host);
      std::fill(h, h + o.size(), std::nan(""));
      o.read(core::Where::device);
      o.write(core::Where::device);
    }
    double median[2];
    for (int k = 0; k < 2; ++k) {
      const int calls = k == 0 ? 1 : 20;
      core::Stopwatch watch(core::Backend::cuda);
      median[k] = perf::time_repeated(3, repeats, [&] {
                    watch.start();
                    for (int i = 0; i < calls; ++i) gpu::cluster_gradient(plan, map, jacobian);
                    return watch.stop() / calls;
                  }).median;
    }
    double error = 0;
    for (std::size_t t = 0; t < out.size(); ++t) error = std::max(error, gh::relative_difference(ref[t], out[t]));
    const Index blocks = (f.components + g - 1) / g * cluster::blocks;
    std::printf("%-10d %8d %7d %8s %10.1f %8lld %14.2f %18.2f %10.2e\n", g, v.threads, v.per_sm,
                fixed ? "fixed" : "plan",
                plan.shared * 8.0 / 1024,
                static_cast<long long>(blocks), median[0] * 1e6, median[1] * 1e6, error);
  }
  return 0;
}
