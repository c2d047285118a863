// The vortex method's energy budget (issue 21): in loom hit's box, from loom hit's seeded field, the particle
// field's kinetic energy must fall at the rate of its own dissipation, -dE/dt = 2 nu Z (Z = 1/2 <|omega|^2>), as
// loom hit's does to 0.1% (the Galerkin truncation conserves energy). Particles on hit's grid with sigma = h lose
// energy the statistics never see as dissipation (the smoothing error of the Gaussian cores in the Lagrangian step:
// the same loss at nu = 0, independent of dt); particles twice finer per direction (particles.refine 2) lose a
// quarter of it. E and Z are measured on a grid of twice hit's points per direction (every mode either field carries;
// test_vortex_field_sums checks that measurement against the field's Fourier series), two AB2 steps apart (the first
// by the midpoint rule). Slow: ~1 minute on two cores.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "loom/vortex/config.hpp"
#include "loom/vortex/initial.hpp"
#include "loom/vortex/integrator.hpp"
#include "loom/vortex/statistics.hpp"

namespace loom::vortex {
namespace {

constexpr double nu = 0.1, dt = 0.02;
constexpr int steps = 2;

// (-dE/dt) / (2 nu Z) over two steps (Z by the trapezoidal rule) from hit's field on a 16^3 grid, k_peak 1.5.
double budget_ratio(int refine) {
  io::Parameters p = vortex_parameters();
  const std::pair<const char*, std::string> flags[] = {
      {"initial.type", "hit"},        {"particles.n", "16"},     {"particles.refine", std::to_string(refine)},
      {"initial.k_peak", "1.5"},      {"initial.seed", "7"},     {"physics.nu", std::to_string(nu)},
      {"backend", "cpu"},             {"fmm.order", "8"},        {"fmm.theta", "0.5"}};
  for (const auto& [key, text] : flags) p.set_text(key, text, io::ParamSource::flag);
  VortexConfig c = make_vortex_config(p);
  Particles particles = initial_state(c).state.particles;
  RateEvaluator rates(c.fmm, c.stretching);
  TurbulenceStatistics statistics(2 * c.grid_n, nu, box_period);  // both fields' every mode
  const hit::Statistics before = statistics.measure(rates, particles, 0);
  Integrator integrator(c.scheme, nu, Domain{true, 0, box_period});
  for (int s = 0; s < steps; ++s)
    integrator.step(particles, dt, [&](const Particles& q, Rates& out) { rates.evaluate(q, out); });
  const hit::Statistics after = statistics.measure(rates, particles, steps * dt);
  const double decay = (before.energy - after.energy) / (steps * dt);
  const double dissipation = 0.5 * (before.dissipation + after.dissipation);
  std::printf("refine %d: E %.9g -> %.9g, -dE/dt %.6g, 2 nu Z %.6g, ratio %.5f\n", refine, before.energy,
              after.energy, decay, dissipation, decay / dissipation);
  return decay / dissipation;
}

TEST(VortexEnergyBudget, FinerParticlesCloseTheBudget) {
  constexpr double tolerance = 0.01;
  const double on_grid = budget_ratio(1), finer = budget_ratio(2);
  EXPECT_NEAR(finer, 1, tolerance) << "particles.refine 2";
  EXPECT_GT(on_grid - 1, tolerance) << "particles on hit's grid (sigma = h): the loss the refinement removes";
}

}  // namespace
}  // namespace loom::vortex
