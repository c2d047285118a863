// The leapfrog integrator of eq. (7) on the DEC lattices, on every backend present: conservation, orders of
// convergence in time and space, stationarity of stationary states, the stability bound of eq. (11), and the
// RK4 starter. Compiled by nvcc in CUDA builds, so the CUDA case runs the same bodies in kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "backends.hpp"
#include "gpe/gpe_fixtures.hpp"
#include "gpe/relative_difference.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/gpe/model/ground_state.hpp"

namespace loom::gpe {
namespace {

using core::Backend;
using dec::GridType;

class Integrator : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override { loom::test::skip_unless_available(GetParam()); }
};

// Runs the stationary state of `p` for time t with step dt (exact start), returns psi(t).
core::Array<Complex> evolve(Backend b, test::Problem& p, double dt, double t) {
  LeapfrogIntegrator it(b, p.domain, p.stationary.physics);
  it.set_state(test::rotated(p.psi0, p.vortex->chemical_potential() * dt), p.psi0.clone(), 0, dt, 0);
  it.step(std::llround(t / dt));
  return it.current().clone();
}

TEST_P(Integrator, NormAndEnergyAreConservedToSecondOrderInTime) {
  const Backend b = GetParam();
  auto p = test::make_problem(GridType::bcc, 1.0, 100.0, 1, 0.35, b);
  const Hamiltonian h = p.domain.hamiltonian(core::where(b), {1.0, 100.0});
  const Observables start = measure(b, h, p.psi0.read(core::where(b)));
  LeapfrogIntegrator probe(b, p.domain, {1.0, 100.0});
  probe.set_state(p.psi0.clone(), p.psi0.clone(), 0, 0, 0);
  const double bound = probe.stability_bound();
  double drift[2] = {0, 0};
  for (int level = 0; level < 2; ++level) {
    const double dt = 0.8 * bound / (1 << level);
    LeapfrogIntegrator it(b, p.domain, {1.0, 100.0});
    it.start_from(p.psi0.clone(), 0, dt);
    const std::int64_t steps = std::llround(2.0 / dt), every = steps / 20;
    for (std::int64_t s = 0; s < steps; s += every) {
      it.step(every);
      const Observables o = measure(b, h, it.current().read(core::where(b)));
      drift[level] =
          std::max({drift[level], std::abs(o.norm / start.norm - 1), std::abs(o.energy() / start.energy() - 1)});
    }
  }
  EXPECT_LT(drift[0], 1e-4);            // a bounded oscillation, no secular growth, at 0.8 of the stability bound
  EXPECT_GT(drift[0] / drift[1], 3.0);  // O(dt^2): halving dt divides it by about 4
  EXPECT_LT(drift[0] / drift[1], 5.5);
}

TEST_P(Integrator, SecondOrderInTime) {
  const Backend b = GetParam();
  auto p = test::make_problem(GridType::c15, 1.0, 50.0, 2, 0.6, b);
  const double dt = 2e-3, t = 0.4;
  // Perturbed, so the solution really evolves; RK4 starter.
  core::Array<Complex> start = p.psi0.clone();
  perturb(start, 0.05, 3);
  core::Array<Complex> result[3];
  for (int level = 0; level < 3; ++level) {
    LeapfrogIntegrator it(b, p.domain, {1.0, 50.0});
    it.start_from(start.clone(), 0, dt / (1 << level));
    it.step(std::llround(t / (dt / (1 << level))));
    result[level] = it.current().clone();
  }
  const double e01 = loom::test::max_relative_difference(result[0], result[1]),
               e12 = loom::test::max_relative_difference(result[1], result[2]);
  const double order = std::log2(e01 / e12);
  EXPECT_NEAR(order, 2.0, 0.15) << e01 << " " << e12;
}

// Space: the harmonic oscillator ground state (g = 0) on refined lattices, with dt tied to the stability bound
// (time error O(dt^2) = O(h^4), below the spatial O(h^2)); RMSE against the exact e^{-i 3/2 t} psi_0.
TEST_P(Integrator, SecondOrderInSpace) {
  const Backend b = GetParam();
  for (GridType grid : {GridType::cubic, GridType::bcc, GridType::c15}) {
    double error[3];
    for (int level = 0; level < 3; ++level) {
      const double edge = 0.6 / std::pow(1.5, level);
      auto p = test::make_problem(grid, 1.0, 0.0, 0, edge, b, 1e-7);
      LeapfrogIntegrator probe(b, p.domain, {1.0, 0.0});
      probe.set_state(p.psi0.clone(), p.psi0.clone(), 0, 0, 0);
      const double dt = 0.25 * probe.stability_bound();
      const double t = 0.5;
      const auto psi = evolve(b, p, dt, t);
      const double steps_t = std::llround(t / dt) * dt;
      const Complex* ps = p.psi0.read(core::where(b));
      const double rms = std::sqrt(
          core::parallel_sum(b, p.domain.dof(), [=] LOOM_HOST_DEVICE(Index i) { return core::norm2(ps[i]); }) /
          double(p.domain.dof()));
      error[level] =
          rms_difference(b, p.domain.dof(), psi.read(core::where(b)), ps, core::polar(1.0, -1.5 * steps_t)) / rms;
    }
    const double order1 = std::log(error[0] / error[1]) / std::log(1.5);
    const double order2 = std::log(error[1] / error[2]) / std::log(1.5);
    EXPECT_GT(order2, 1.7) << dec::to_string(grid) << " errors " << error[0] << " " << error[1] << " " << error[2]
                           << " orders " << order1 << " " << order2;
    EXPECT_LT(order2, 2.5) << dec::to_string(grid);
  }
}

// E(t) of the paper (section 5.1) for the stationary vortex sampled from the continuum: the lattice keeps its
// shape (E small), and what it loses is the lattice's O(h^2) departure from the continuum state, so E ~ h^4
// falls by 1.5^4 = 5.1 when the dual edge shrinks by 1.5 (a first-order lattice: 2.25; require more than 1.5^3).
TEST_P(Integrator, StationaryVortexStaysStationaryOnBcc) {
  const Backend b = GetParam();
  double e[2];
  for (int level = 0; level < 2; ++level) {
    auto p = test::make_problem(GridType::bcc, 1.0, 100.0, 1, 0.25 / std::pow(1.5, level), b);
    LeapfrogIntegrator probe(b, p.domain, {1.0, 100.0});
    probe.set_state(p.psi0.clone(), p.psi0.clone(), 0, 0, 0);
    const auto psi = evolve(b, p, 0.9 * probe.stability_bound(), 1.0);
    const Hamiltonian h = p.domain.hamiltonian(core::where(b), {1.0, 100.0});
    e[level] = 1 - core::abs(inner_product(b, h, p.psi0.read(core::where(b)), psi.read(core::where(b))));
  }
  std::printf("E(1): %.3e at dual edge 0.25, %.3e at 0.167, ratio %.2f\n", e[0], e[1], e[0] / e[1]);
  EXPECT_LT(e[0], 1e-4);
  EXPECT_GT(e[0] / e[1], std::pow(1.5, 3)) << e[0] << " " << e[1];
}

// Eq. (11), dt < 1 / (2 max_i M_ii), against the leapfrog's true limit dt < 1 / lambda_max(M). On BCC every cell
// has the same Laplacian diagonal D and the dual graph is bipartite (the truncated octahedra's faces are squares and
// hexagons), so the alternating mode gives lambda_max(-Lap / 2) = D up to the box's O(1/n^2); the bound is then
// tight within the potential's share, max (D + 2V) / (D + V) - 1 (under 5% here: g = 0 and a box of half-width 3 at
// dual edge 0.1, D = 600 against V <= 14). So 0.95 times the bound keeps the norm and 1.1 times it blows up; a bound
// 10% or more too cautious fails.
TEST_P(Integrator, StabilityBoundOfEquation11) {
  const Backend b = GetParam();
  auto p = test::make_problem(GridType::bcc, 1.0, 0.0, 0, 0.1, b, 1e-2);
  LeapfrogIntegrator probe(b, p.domain, {1.0, 0.0});
  probe.set_state(p.psi0.clone(), p.psi0.clone(), 0, 0, 0);
  const double bound = probe.stability_bound();
  const Hamiltonian h = p.domain.hamiltonian(core::where(b), {1.0, 0.0});
  for (double factor : {0.95, 1.1}) {
    LeapfrogIntegrator it(b, p.domain, {1.0, 0.0});
    it.start_from(p.psi0.clone(), 0, factor * bound);
    it.step(1000);  // rounding seeds the alternating mode; above the limit it grows by > 1.3 a step
    const double norm = measure(b, h, it.current().read(core::where(b))).norm;
    std::printf("%.2f x the bound: norm %.6g after 1000 steps\n", factor, norm);
    if (factor < 1)
      EXPECT_NEAR(norm, 1.0, 1e-3);
    else
      EXPECT_FALSE(std::abs(norm - 1) < 1e-3) << "no instability 10% above the bound: " << norm;
  }
}

TEST_P(Integrator, RungeKuttaStarterMatchesTheExactPhase) {
  const Backend b = GetParam();
  auto p = test::make_problem(GridType::fcc, 1.0, 0.0, 0, 0.3, b, 1e-7);
  // For an eigenstate of M the exact psi(-dt) is psi e^{i mu dt}; the harmonic ground state on the lattice is
  // one only approximately, so use the lattice's own ground state.
  const Hamiltonian h = p.domain.hamiltonian(core::where(b), {1.0, 0.0});
  const auto relaxed = relax_to_ground_state(b, h, p.psi0, 1e-11, 200000);
  ASSERT_TRUE(relaxed.converged);
  const double dt = 1e-3;
  LeapfrogIntegrator it(b, p.domain, {1.0, 0.0});
  it.start_from(p.psi0.clone(), 0, dt);
  const auto exact = test::rotated(p.psi0, relaxed.mu * dt);
  EXPECT_LT(loom::test::max_relative_difference(it.previous(), exact), 1e-11);  // local error O((mu dt)^5)
}

// The shortened last step (finish_at) lands on t_end with the leapfrog's accuracy: against a run with dt/8 that
// lands there by whole steps, its error is that of a run ending on the dt grid. A leapfrog step of h from the
// levels n-1, n (psi(n-1) + 2 h d psi/dt) would err by (dt - h) |d psi/dt|, some 100 times more here.
TEST_P(Integrator, ShortenedLastStepLandsOnTEndWithLeapfrogAccuracy) {
  const Backend b = GetParam();
  auto p = test::make_problem(GridType::c15, 1.0, 50.0, 2, 0.6, b);
  core::Array<Complex> start = p.psi0.clone();
  perturb(start, 0.05, 3);
  const double dt = 2e-3, t_grid = 0.4, t_end = t_grid + 0.375 * dt;
  auto run = [&](double step, double t, bool shorten) {
    LeapfrogIntegrator it(b, p.domain, {1.0, 50.0});
    it.start_from(start.clone(), 0, step);
    it.step(std::llround(std::floor(t / step + 1e-9)));
    if (shorten) it.finish_at(t);
    EXPECT_NEAR(it.time(), t, 1e-12);
    return it.current().clone();
  };
  const auto fine_end = run(dt / 8, t_end, false), fine_grid = run(dt / 8, t_grid, false);
  const double e_grid = loom::test::max_relative_difference(run(dt, t_grid, false), fine_grid);
  const double e_end = loom::test::max_relative_difference(run(dt, t_end, true), fine_end);
  std::printf("error at t_end after the shortened step %.3e, at the dt grid's t %.3e\n", e_end, e_grid);
  EXPECT_LT(e_end, 1.2 * e_grid) << e_end << " " << e_grid;
  LeapfrogIntegrator it(b, p.domain, {1.0, 50.0});
  it.start_from(start.clone(), 0, dt);
  it.step(200);
  it.finish_at(t_end);
  EXPECT_EQ(it.time(), t_end);
  EXPECT_EQ(it.steps_done(), 201);
  EXPECT_EQ(it.dt(), dt);  // the pair stays one of step dt
}

// Every kernel of the backend computes the plain kernel's steps (to rounding) on every grid, boundaries included.
TEST_P(Integrator, EveryKernelMatchesThePlainOneOnEveryGrid) {
  const Backend b = GetParam();
  for (GridType grid : dec::all_grid_types()) {
    auto p = test::make_problem(grid, 1.0, 100.0, 1, 0.4, b);
    core::Array<Complex> start = p.psi0.clone();
    perturb(start, 0.01, 9);
    LeapfrogIntegrator reference(b, p.domain, {1.0, 100.0});
    reference.set_kernel(LeapfrogKernel::plain);
    reference.start_from(start.clone(), 0, 1e-3);
    reference.step(50);
    for (LeapfrogKernel kernel : leapfrog_kernels(b)) {
      LeapfrogIntegrator it(b, p.domain, {1.0, 100.0});
      it.set_kernel(kernel);
      it.start_from(start.clone(), 0, 1e-3);
      it.step(50);
      EXPECT_LT(loom::test::max_relative_difference(it.current(), reference.current()), 1e-13)
          << dec::to_string(grid) << " " << to_string(kernel);
    }
  }
}

LOOM_INSTANTIATE_FOR_BACKENDS(Integrator);

}  // namespace
}  // namespace loom::gpe
