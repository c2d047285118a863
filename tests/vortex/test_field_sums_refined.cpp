// Particles twice finer than loom hit's grid, stepped and reinitialised: their statistics need the lattice's grid
// (slow: ~70 s on two cores, so apart from test_field_sums.cpp and labelled slow).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "loom/vortex/field_sums.hpp"
#include "loom/vortex/initial.hpp"
#include "loom/vortex/integrator.hpp"
#include "loom/vortex/reinit.hpp"
#include "loom/vortex/statistics.hpp"
#include "vortex/hit_field.hpp"

namespace loom::vortex {
namespace {

using test::hit_field;
using test::period;

// Particles twice finer than loom hit's grid (particles.refine 2), stepped as loom vortex steps them (AB2, the
// lattice reinitialisation every 5 steps) until the cascade reaches past hit's grid: the dissipation measured on
// hit's grid misses the modes between that grid's 2/3 cut and the lattice's; on the lattice's grid it equals the
// field's Fourier series. At a reinitialisation the particles sit on the nodes and the statistics take their own
// velocity (one FMM call), which must equal the velocity at extra target bodies on the nodes (within the FMM's
// error: another tree; 1e-8 measured).
TEST(VortexFieldSums, RefinedParticlesNeedTheLatticesGrid) {
  const Index n = 8;
  const double viscosity = 0.1, dt = 0.02, tolerance = 1e-4;
  VortexConfig c = hit_field(n, 2, viscosity);
  const Domain box{true, 0, period};
  Particles p = initial_state(c).state.particles;
  RateEvaluator rates(c.fmm, StretchingForm::classical);
  TurbulenceStatistics hit_grid(n, viscosity, period), lattice_grid(2 * n, viscosity, period);
  ASSERT_TRUE(lattice_grid.on_grid(p));
  Integrator integrator(c.scheme, viscosity, box);
  const RateFunction evaluate = [&](const Particles& q, Rates& out) { rates.evaluate(q, out); };
  for (int step = 1; step <= 10; ++step) {
    integrator.step(p, dt, evaluate);
    if (step % 5 != 0) continue;
    EXPECT_FALSE(lattice_grid.on_grid(p));
    const FieldSums exact = particle_field_sums(p, period, viscosity);
    const hit::Statistics coarse = hit_grid.measure(rates, p, 0), fine = lattice_grid.measure(rates, p, 0);
    std::printf("step %d: series E %.9g eps %.9g | hit's grid E %.9g eps %.9g (%+.3f%%) | the lattice's grid E "
                "%.9g eps %.9g (%+.5f%%)\n",
                step, exact.energy, exact.dissipation, coarse.energy, coarse.dissipation,
                100 * (coarse.dissipation / exact.dissipation - 1), fine.energy, fine.dissipation,
                100 * (fine.dissipation / exact.dissipation - 1));
    EXPECT_NEAR(fine.energy / exact.energy, 1, tolerance) << "step " << step;
    EXPECT_NEAR(fine.dissipation / exact.dissipation, 1, tolerance) << "step " << step;
    if (step == 10) {
      EXPECT_LT(coarse.dissipation / exact.dissipation - 1, -10 * tolerance) << "hit's grid";
    }
    p = reinitialise(p, box, period / double(2 * n), 2 * n, c.reinit).particles;
    integrator.forget();
    ASSERT_TRUE(lattice_grid.on_grid(p));
    const FieldSums on = particle_field_sums(p, period, viscosity);
    const hit::Statistics own = lattice_grid.measure(rates, p, 0);
    const Lattice nodes = periodic_lattice(box, 2 * n);
    std::vector<Vec3d> targets(static_cast<std::size_t>(nodes.size()));
    for (Index m = 0; m < nodes.size(); ++m) targets[static_cast<std::size_t>(m)] = nodes.node(m);
    const hit::Statistics extra = lattice_grid.measure_velocity(rates.velocity_at(p, targets), 0);
    EXPECT_NEAR(own.dissipation / extra.dissipation, 1, 1e-6) << "step " << step;
    EXPECT_NEAR(own.energy / extra.energy, 1, 1e-6) << "step " << step;
    EXPECT_NEAR(own.dissipation / on.dissipation, 1, tolerance) << "step " << step;
  }
}

}  // namespace
}  // namespace loom::vortex
