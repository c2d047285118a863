#include "loom/gpe/bench/scaling_benchmark.hpp"

#include <algorithm>
#include <cmath>

#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/timer.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/model/lattice_domain.hpp"
#include "loom/gpe/parallel/slab_domain.hpp"

namespace loom::gpe {

std::array<int, 3> weak_scaling_structures(std::array<int, 3> base, int ranks, bool grow_xyz) {
  if (!grow_xyz) return {base[0], base[1], base[2] * ranks};
  const double f = std::cbrt(double(ranks));
  std::array<int, 3> out{};
  for (int d = 0; d < 3; ++d)
    out[std::size_t(d)] = std::max(1, static_cast<int>(std::lround(base[std::size_t(d)] * f)));
  return out;
}

namespace {

// psi of amplitude ~1e-3 from the global vertex index, as benchmark_leapfrog: the same state on any number of ranks.
core::Array<Complex> pseudo_random(const SlabDomain& slab, bool swap) {
  const Index n = slab.local().dof();
  const Index offset = slab.layer_size() * (slab.slab().begin - slab.halo_below());
  core::Array<Complex> a(static_cast<std::size_t>(n));
  Complex* p = a.write(core::Where::host);
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) {
    const double g = double(offset + i);
    const double x = 1e-3 * std::sin(0.618 * g), y = 1e-3 * std::cos(0.414 * g);
    p[i] = swap ? Complex{y, x} : Complex{x, y};
  }
  return a;
}

double timed_steps(LeapfrogIntegrator& integrator, const comm::Communicator& comm, core::Backend backend,
                   std::int64_t steps) {
  comm.barrier();
  core::WallTimer timer;
  integrator.step(steps);
  if (backend == core::Backend::cuda) cuda::synchronize();
  return comm.max(timer.seconds());  // the step is as slow as the slowest rank
}

ScalingPoint time_on(const comm::Communicator& comm, const ScalingOptions& o, std::array<int, 3> n) {
  const LatticeDomain domain = make_lattice_domain(o.grid, scale_for_dual_edge(o.grid, o.dual_edge), n[0], n[1], n[2]);
  const SlabDomain slab(domain, comm);
  LeapfrogIntegrator integrator(o.backend, slab, {1.0, 300.0}, o.transport);
  integrator.set_kernel(o.kernel);
  integrator.set_state(pseudo_random(slab, false), pseudo_random(slab, true), 0, 0, 0);
  const double dt = 0.5 * integrator.stability_bound();
  integrator.set_state(integrator.previous().clone(), integrator.current().clone(), 0, dt, 0);
  ScalingPoint r;
  r.ranks = comm.size();
  r.structures = n;
  r.dof = domain.dof();
  const double one = std::max(timed_steps(integrator, comm, o.backend, 1), 1e-7);
  r.steps_per_run = std::max<std::int64_t>(1, std::llround(o.seconds_per_run / one));  // the same on every rank
  r.time = perf::time_repeated(o.warmup, o.repeats,
                               [&] { return timed_steps(integrator, comm, o.backend, r.steps_per_run); });
  return r;
}

}  // namespace

std::vector<ScalingPoint> time_over_ranks(const comm::Communicator& world, const ScalingOptions& options,
                                          const std::vector<int>& rank_counts,
                                          const std::vector<std::array<int, 3>>& structures) {
  LOOM_REQUIRE(rank_counts.size() == structures.size(), "time_over_ranks: one problem per rank count");
  std::vector<ScalingPoint> out;
  for (std::size_t k = 0; k < rank_counts.size(); ++k) {
    const int ranks = rank_counts[k];
    LOOM_REQUIRE(ranks >= 1 && ranks <= world.size(), "time_over_ranks: more ranks than the job has");
    const bool member = world.rank() < ranks;
    const comm::Communicator part = world.split(member ? 0 : 1);
    if (member) {
      const ScalingPoint p = time_on(part, options, structures[k]);
      if (world.is_root()) out.push_back(p);
    }
    world.barrier();
  }
  return out;
}

}  // namespace loom::gpe
