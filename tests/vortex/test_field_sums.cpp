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
#include "vortex/hit_field.hpp"

namespace loom::vortex {
namespace {

using test::hit_field;
using test::period;

constexpr double nu = 0.05;

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
  VortexConfig c = hit_field(n, 1, nu);
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
