// The pseudo-spectral integrator against independent results, on every backend: the exact viscous decay of a
// single Fourier mode, the divergence kept at rounding, the convergence orders of RK4 and RK2, and Taylor-Green
// at nu = 1/1600 on 32^3 against the published reference of spectralDNS; the low-shell forcing.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "backends.hpp"
#include "hit/hit_fields.hpp"
#include "loom/hit/forcing.hpp"
#include "loom/hit/observables.hpp"

namespace loom::test {
namespace {

using hit::Dealiasing;
using hit::Scheme;

class HitSolver : public ::testing::TestWithParam<core::Backend> {
 protected:
  void SetUp() override { skip_unless_available(GetParam()); }
};

TEST_P(HitSolver, SingleModeDecaysExactlyUnderViscosity) {
  const hit::SpectralGrid g{16};
  const hit::Wavevector k{1, 2, 3};
  const hit::PointVector a{2, -1, 0};  // a . k = 0
  const double nu = 0.05, t = 0.5;
  for (Scheme scheme : {Scheme::rk4, Scheme::rk2})
    for (Dealiasing d : {Dealiasing::two_thirds, Dealiasing::phase_shift}) {
      hit::Solver s(GetParam(), g, {nu, scheme, d});
      s.set_velocity(single_mode(g, k, a));
      for (int i = 0; i < 5; ++i) s.step({0.1});  // long steps: the integrating factor is exact
      const auto expected = single_mode(g, k, a, std::exp(-nu * k.norm2() * t));
      const auto got = s.velocity().host();
      double err = 0;
      for (std::size_t i = 0; i < expected.size(); ++i) err = std::max(err, std::abs(got[i] - expected.host()[i]));
      EXPECT_LT(err, 1e-13) << "scheme " << int(scheme) << " dealias " << int(d);
      EXPECT_NEAR(s.time(), t, 1e-15);
    }
}

TEST_P(HitSolver, DivergenceStaysAtRounding) {
  for (Dealiasing d : {Dealiasing::two_thirds, Dealiasing::phase_shift}) {
    hit::Solver s = random_solver(GetParam(), 32, {0.01, Scheme::rk4, d});
    for (int i = 0; i < 10; ++i) s.step({0, 0.5});
    const hit::Statistics st = hit::measure(s);
    // Relative to the velocity gradients, sqrt(<|omega|^2>): rounding is 1e-16 times that, an error 1e-3.
    EXPECT_LT(st.divergence_max, 1e-13 * std::sqrt(2 * st.enstrophy)) << int(d);
    EXPECT_GT(st.enstrophy, 0);
  }
}

// Differences of the modes at t = T between steps h and a reference at h/8: e(h) / e(h/2) tends to 2^p.
std::vector<double> observed_orders(core::Backend b, Scheme scheme, double T, double h) {
  auto run = [&](double dt) {
    hit::Solver s = random_solver(b, 16, {0.02, scheme, Dealiasing::two_thirds}, 3, 2);
    const int steps = int(std::lround(T / dt));
    for (int i = 0; i < steps; ++i) s.step({dt});
    return s.modes().clone();
  };
  const auto reference = run(h / 16);
  std::vector<double> errors, orders;
  for (double dt : {h, h / 2, h / 4}) errors.push_back(max_difference(run(dt), reference));
  for (std::size_t i = 0; i + 1 < errors.size(); ++i) orders.push_back(std::log2(errors[i] / errors[i + 1]));
  std::printf("errors %.3e %.3e %.3e, orders %.3f %.3f\n", errors[0], errors[1], errors[2], orders[0], orders[1]);
  return orders;
}

TEST_P(HitSolver, Rk4ConvergesWithOrderFour) {
  for (double p : observed_orders(GetParam(), Scheme::rk4, 1.0, 0.2)) {
    EXPECT_GT(p, 3.7);  // a third-order method gives 3
    EXPECT_LT(p, 4.4);
  }
}

TEST_P(HitSolver, Rk2ConvergesWithOrderTwo) {
  for (double p : observed_orders(GetParam(), Scheme::rk2, 1.0, 0.1)) {
    EXPECT_GT(p, 1.8);
    EXPECT_LT(p, 2.3);  // a third-order method gives 3
  }
}

// spectralDNS (Mortensen and Langtangen, Comput. Phys. Commun. 203, 2016), demo/TG.py's regression test: Taylor-
// Green, nu = 0.000625, 32^3, RK4, dt = 0.01, T = 0.1: energy 0.5 <|u|^2> = 0.124953117517 and enstrophy
// 0.5 <|omega|^2> = 0.375249930801, checked there to 7 decimals. With the plain and the pruned transforms (whose
// steps write only the kept modes, and fuse each stage's update with the next curl under the 2/3 rule).
TEST_P(HitSolver, TaylorGreenMatchesSpectralDnsReference) {
  const hit::SpectralGrid g{32};
  for (Dealiasing d : {Dealiasing::two_thirds, Dealiasing::phase_shift})
    for (hit::Pruning pruning : {hit::Pruning::off, hit::Pruning::on}) {
      hit::SolverOptions o{0.000625, Scheme::rk4, d};
      o.pruning = pruning;
      hit::Solver s(GetParam(), g, o);
      ASSERT_EQ(s.pruned(), pruning == hit::Pruning::on);
      s.set_velocity(hit::taylor_green(g, 1.0));
      for (int i = 0; i < 10; ++i) s.step({0.01});
      const hit::Statistics st = hit::measure(s);
      EXPECT_NEAR(st.t, 0.1, 1e-15);
      // Observed: energy within 3e-13 (the reference's rounding), enstrophy within 3.2e-10; the issue asks for 1e-7.
      EXPECT_NEAR(st.energy, 0.124953117517, 1e-11) << int(d) << int(pruning);
      EXPECT_NEAR(st.enstrophy, 0.375249930801, 1e-9) << int(d) << int(pruning);
      std::printf("dealias %d, pruned %d: energy %.15f (reference 0.124953117517), enstrophy %.15f (reference "
                  "0.375249930801)\n",
                  int(d), int(s.pruned()), st.energy, st.enstrophy);
    }
}

TEST_P(HitSolver, CourantRuleSetsTheStep) {
  hit::Solver s(GetParam(), {16}, {0.01});
  s.set_velocity(hit::taylor_green({16}, 2.0));
  const double speed = s.max_speed_sum();
  EXPECT_NEAR(speed, 2.0, 1e-12);  // max |sin x cos y| + |cos x sin y| = 1 at cos z = 1, times the amplitude
  EXPECT_NEAR(s.step({0, 0.4}), 0.4 * (2 * M_PI / 16) / speed, 1e-15);
  EXPECT_NEAR(s.step({0, 0.4, 1e-3}), 1e-3, 1e-18);  // capped (to land on an output time)
}

// The forcing holds the energy of 0 < |k| <= 2 where it was, keeps the field divergence-free, and so keeps the
// total energy above the unforced decay's.
TEST_P(HitSolver, ForcingHoldsTheLowShellEnergy) {
  const hit::SolverOptions o{0.02};
  hit::Solver forced = random_solver(GetParam(), 24, o, 5, 2), free = random_solver(GetParam(), 24, o, 5, 2);
  const hit::ShellEnergyForcing forcing(forced, 2.0);
  const double e0 = hit::measure(forced).energy;
  EXPECT_GT(forcing.target(), 0.05 * e0);
  double added = 0;
  for (int i = 0; i < 20; ++i) {
    forced.step({0.02});
    free.step({0.02});
    added += forcing.apply(forced);
    EXPECT_NEAR(hit::low_shell_energy(forced, 2.0), forcing.target(), 1e-14 * forcing.target()) << i;
  }
  EXPECT_GT(added, 0);  // the forced shells lose energy to the cascade and to viscosity
  const hit::Statistics a = hit::measure(forced), b = hit::measure(free);
  EXPECT_GT(a.energy, b.energy);
  EXPECT_LT(a.divergence_max, 1e-13 * std::sqrt(2 * a.enstrophy));
}

LOOM_INSTANTIATE_FOR_BACKENDS(HitSolver);

}  // namespace
}  // namespace loom::test
