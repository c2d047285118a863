// The statistics' grid measurement (vortex/statistics.hpp: the Biot-Savart velocity at loom hit's grid points,
// measured by hit::measure) against the particle field's own Fourier series (vortex/field_sums.hpp), which needs
// neither the FMM nor a grid: loom hit's seeded field on the particle lattice, then moved off it by a smooth map
// with cores of several sizes (a state as after some steps). Grid and series agree; on a grid of half the
// points the measurement misses the dissipation by far more than the tolerance (so the check can fail).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "loom/vortex/config.hpp"
#include "loom/vortex/field_sums.hpp"
#include "loom/vortex/initial.hpp"
#include "loom/vortex/integrator.hpp"
#include "loom/vortex/reinit.hpp"
#include "loom/vortex/statistics.hpp"

namespace loom::vortex {
namespace {

constexpr double period = 2 * std::numbers::pi, nu = 0.05;

VortexConfig hit_field(Index n, int refine = 1, double viscosity = nu) {
  io::Parameters p = vortex_parameters();
  const std::pair<const char*, std::string> flags[] = {
      {"initial.type", "hit"}, {"particles.n", std::to_string(n)}, {"initial.k_peak", "1.5"},
      {"particles.refine", std::to_string(refine)}, {"physics.nu", std::to_string(viscosity)},
      {"backend", "cpu"}, {"fmm.order", "8"}, {"fmm.theta", "0.5"}};
  for (const auto& [key, text] : flags) p.set_text(key, text, io::ParamSource::flag);
  return make_vortex_config(p);
}

// x + 0.3 h (sin(y + 1), sin(2 z), sin(x - 2)) and sigma in [sigma, 1.25 sigma]: off the lattice, smoothly.
void move_off_lattice(Particles& p, double h) {
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    const Vec3d x = p.x[i];
    p.x[i] = x + 0.3 * h * Vec3d{std::sin(x.y + 1), std::sin(2 * x.z), std::sin(x.x - 2)};
    p.sigma[i] *= 1 + 0.25 * std::pow(std::sin(x.x + x.y + x.z), 2);
  }
  wrap_positions(Domain{true, 0, period}, p.x);
}

TEST(VortexFieldSums, GridMeasurementEqualsTheParticleFieldsSeries) {
  const Index n = 12;
  VortexConfig c = hit_field(n);
  Particles p = initial_state(c).state.particles;
  move_off_lattice(p, period / double(n));
  const FieldSums exact = particle_field_sums(p, period, nu);
  RateEvaluator rates(c.fmm, StretchingForm::classical);
  const hit::Statistics grid = TurbulenceStatistics(n, nu, period).measure(rates, p, 0);
  const hit::Statistics coarse = TurbulenceStatistics(n / 2, nu, period).measure(rates, p, 0);
  std::printf("energy grid %.9g series %.9g | dissipation grid %.9g series %.9g (all %.9g), half grid %.9g\n",
              grid.energy, exact.energy, grid.dissipation, exact.dissipation, 2 * nu * exact.enstrophy_all,
              coarse.dissipation);
  EXPECT_NEAR(grid.energy / exact.energy, 1, 1e-3);
  EXPECT_NEAR(grid.dissipation / exact.dissipation, 1, 1e-3);
  EXPECT_GT(std::abs(coarse.dissipation / exact.dissipation - 1), 1e-2);
}

}  // namespace
}  // namespace loom::vortex

namespace loom::vortex {
namespace {

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
