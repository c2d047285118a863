// Development timing of SpinFilter (not a test; the measurement of record is `loom bench bh`'s Filter module):
// the 50 GH components (T_aa, T_aa, T_iaa) on one shell of 8x11x22 and 10x19x38 at the default l_keep l_max - 3,
// ms per call (median of `repeats`, argument 1, default 10, after 2 warm-ups) of apply (one triad field per class;
// FFTW ring sets on the host, a block per ring set on the device) and apply_direct (the twelfth session's five
// loops, every triad field), on 1 CPU thread, on all, and on the GPU when there is one. The flop model counts
// the ring form's arithmetic with direct phi sums (the device's): per ring set 8 N_theta N_phi (2L+1) for the
// phi transform and as much for the synthesis, 4 N_theta^2 (2L+1) for (5); the triad transforms are left out.
// Usage: spin_filter_timing [repeats]
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/timer.hpp"
#include "loom/perf/timing.hpp"
#include "loom/spectral/spin_filter.hpp"

using namespace loom;
using namespace loom::spectral;

namespace {

std::vector<SpatialBlock> gh_blocks() {
  std::vector<SpatialBlock> blocks;
  for (auto [kind, offset] :
       {std::pair{TensorKind::aa, 0}, std::pair{TensorKind::aa, 10}, std::pair{TensorKind::iaa, 20}})
    for (auto& b : spatial_blocks(shape_of(kind), offset)) blocks.push_back(std::move(b));
  return blocks;
}

double median_ms(core::Backend backend, int repeats, const SpinFilter& filter, bool direct, core::Array<double>& f) {
  core::Stopwatch watch(backend);
  double* x = f.read_write(core::where(backend));
  return 1e3 * perf::time_repeated(2, repeats, [&] {
                 watch.start();
                 direct ? filter.apply_direct(backend, x) : filter.apply(backend, x);
                 return watch.stop();
               }).median;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 10;
  const int all = omp_get_max_threads();
  std::printf("| shell | l_keep | where | apply ms | apply_direct ms | direct/apply | ring-form GFlop/s |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- |\n");
  for (auto [nr, nt] : {std::pair{8, 11}, std::pair{10, 19}}) {
    const Shell shell(nr, nt, 1.62, 6);
    const int np = 2 * nt, L = nt - 4;
    const SpinFilter filter(shell, L, gh_blocks(), 50);
    std::vector<double> values(static_cast<std::size_t>(50 * shell.size()));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = 1e-3 * double(i % 97) - 0.04;
    auto f = core::Array<double>::from(values);
    const double flops = double(filter.filtered_fields()) * nr * (16.0 * nt * np + 4.0 * nt * nt) * (2 * L + 1);
    auto row = [&](core::Backend backend, const char* where) {
      const double ring = median_ms(backend, repeats, filter, false, f);
      const double direct =
          median_ms(backend, backend == core::Backend::cpu ? std::max(3, repeats / 3) : repeats, filter, true, f);
      std::printf("| %dx%dx%d | %d | %s | %.4f | %.4f | %.2f | %.1f |\n", nr, nt, np, L, where, ring, direct,
                  direct / ring, flops / (ring * 1e6));
    };
    omp_set_num_threads(1);
    row(core::Backend::cpu, "cpu x1");
    omp_set_num_threads(all);
    char label[32];
    std::snprintf(label, sizeof label, "cpu x%d", all);
    row(core::Backend::cpu, label);
    if (core::backend_available(core::Backend::cuda)) row(core::Backend::cuda, "cuda");
  }
  return 0;
}
