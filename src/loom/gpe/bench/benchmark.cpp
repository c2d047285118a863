#include "loom/gpe/bench/benchmark.hpp"

#include <cmath>

#include "loom/core/timer.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/model/lattice_domain.hpp"

namespace loom::gpe {

LeapfrogBenchmark benchmark_leapfrog(core::Backend backend, dec::GridType grid, std::array<int, 3> structures,
                                     LeapfrogKernel kernel, int warmup, int repeats, double seconds_per_run,
                                     const LaunchChoice& choice) {
  // A BEC-sized lattice (dual edge 0.1) with pseudo-random psi of amplitude ~1e-3: never zeros, which can run
  // faster than real data, and small enough that g |psi|^2 leaves the step size unchanged.
  const LatticeDomain domain =
      make_lattice_domain(grid, scale_for_dual_edge(grid, 0.1), structures[0], structures[1], structures[2]);
  const Index n = domain.dof();
  const int m_s = domain.lattice.cells;
  core::Array<Complex> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
  {
    Complex* pa = a.write(core::Where::host);
    Complex* pb = b.write(core::Where::host);
#pragma omp parallel for schedule(static)
    for (Index i = 0; i < n; ++i) {
      const double x = 1e-3 * std::sin(0.618 * double(i)), y = 1e-3 * std::cos(0.414 * double(i));
      pa[i] = {x, y};
      pb[i] = {y, x};
    }
  }
  LeapfrogIntegrator integrator(backend, domain, {1.0, 300.0});
  integrator.set_kernel(kernel);
  if (choice.soa) integrator.set_soa_tuning(*choice.soa);
  if (choice.march && kernel == LeapfrogKernel::march) integrator.set_march_tiling(*choice.march);
  integrator.set_state(std::move(a), std::move(b), 0, 0, 0);
  const double dt = 0.5 * integrator.stability_bound();
  integrator.set_state(integrator.previous().clone(), integrator.current().clone(), 0, dt, 0);

  core::Stopwatch watch(backend);
  watch.start();
  integrator.step(1);
  const double one = std::max(watch.stop(), 1e-7);
  LeapfrogBenchmark r;
  r.backend = backend;
  r.grid = grid;
  r.variant = std::string(to_string(kernel));
  const SoaTuning used = integrator.soa_tuning();
  if (kernel == LeapfrogKernel::soa && backend == core::Backend::cuda && !(used == default_soa_tuning(m_s, n)))
    r.variant += ":b" + std::to_string(used.band_rows) + "v" + std::to_string(used.vertices_per_thread) +
                 (used.row_tiles ? "r" : "") + (used.ordered_tiles ? "o" : "") +
                 (used.column_layers > 0 ? "c" + std::to_string(used.column_layers) : "");
  const MarchTiling tiling = integrator.march_tiling();
  if (kernel == LeapfrogKernel::march && !(tiling == default_march_tiling(m_s)))
    r.variant += ":" + std::to_string(tiling.tile_x) + "x" + std::to_string(tiling.tile_y) + "z" +
                 (tiling.segment_layers > 0 ? std::to_string(tiling.segment_layers) : "bal") + "a" +
                 std::to_string(tiling.ahead) + (tiling.pitched_rows ? "" : "l");
  r.structures = structures;
  r.dof = n;
  r.steps_per_run = std::max<std::int64_t>(1, std::llround(seconds_per_run / one));
  r.time = perf::time_repeated(warmup, repeats, [&] {
    watch.start();
    integrator.step(r.steps_per_run);
    return watch.stop();
  });
  double faces = 0;
  for (const auto& c : domain.structure.cells) faces += double(c.faces.size());
  faces /= double(domain.structure.cell_count());
  // Per DOF: per face a complex difference and a weighted add (6 flops); then scaling, potential from the
  // position, |psi|^2, the nonlinear product and the update (about 28 flops).
  r.work_per_step = {leapfrog_bytes_per_dof * double(n), (6 * faces + 28) * double(n)};
  return r;
}

}  // namespace loom::gpe
