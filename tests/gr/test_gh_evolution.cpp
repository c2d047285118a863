// Evolutions of the exact Kerr-Schild data by the GH system on two shells (slow: minutes on two cores): the
// constraints at a fixed time converge exponentially with resolution, and 200 steps at the CFL step stay bounded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "loom/gr/config.hpp"
#include "loom/gr/dormand_prince.hpp"
#include "loom/gr/gh_system.hpp"

namespace loom::gr {
namespace {

const KerrSchild tilted{1.0, {0.2, 0.3, 0.4}};

// The filter `loom bh` runs with (Y_lm only since the radial filter was found to move the exact data).
spectral::FilterSpec run_filter() { return make_bh_config(bh_parameters()).filter; }

GhGeometry geometry(int k) { return {{4 + 2 * k, 5 + 2 * k, 10 + 4 * k}, {1.62, 6, 12}}; }

// The constraints after evolving to t = 0.5 at three resolutions with one small time step (the time error far
// below the spatial one): exponential convergence as above.
TEST(GhEvolution, ConstraintsConvergeWithResolutionAtFixedTime) {
  std::vector<double> normalized;
  const double dt = 0.025, t_end = 0.5;
  for (int k = 1; k < 4; ++k) {
    GhSystem system(tilted, geometry(k), run_filter(), core::Backend::cpu);
    State u = system.exact_state();
    DormandPrince stepper(system);
    for (int step = 0; step < int(t_end / dt + 0.5); ++step) stepper.step(u, dt);
    normalized.push_back(system.norms(u).normalized);
    std::printf("k %d: normalized constraint at t = %.2f: %.3e\n", k, t_end, normalized.back());
  }
  // Each step of 2 points per direction divides the constraint by more than 2, and the second factor is not
  // smaller than the first: an algebraic rate N^-p matched to the first factor (p = 3.2 for 2.5 from N_r = 6 to
  // 8) would give a second factor of 2.0, not the 3.7 measured when this test was written.
  for (int k = 1; k < 3; ++k) EXPECT_GT(normalized[k - 1] / normalized[k], 2.0) << "k " << k;
  EXPECT_GT(normalized[1] / normalized[2], 0.85 * normalized[0] / normalized[1]);
}

// 200 steps at the CFL step on the paper's shells at a reduced resolution: the constraints stay bounded, the
// excision surface stays valid (slowest speed into the hole 0.077 for the exact data at 1.62 m) and the solution
// stays near Kerr-Schild. (At 6 x 7 x 14 the error at the inner surface grows until excision fails near t = 5.)
TEST(GhEvolution, TwoHundredStepsStayBounded) {
  GhSystem system(tilted, {{8, 9, 18}, {1.62, 6, 12}}, run_filter(), core::Backend::cpu);
  State u = system.exact_state();
  DormandPrince stepper(system);
  const double dt = 0.25 * system.smallest_spacing();
  double largest = 0;
  for (int step = 1; step <= 200; ++step) {
    stepper.step(u, dt);
    ASSERT_GE(system.slowest_excision_speed(u), 0.0) << "step " << step;
    if (step % 20 == 0) largest = std::max(largest, system.norms(u).normalized);
  }
  const Norms n = system.norms(u);
  std::printf("t = %.2f: normalized %.3e (largest %.3e), C_a %.3e, C_iab %.3e, psi error %.3e\n", 200 * dt,
              n.normalized, largest, n.gauge, n.three_index, n.psi_error);
  EXPECT_LT(largest, 0.3);
  EXPECT_LT(n.psi_error, 0.1);
}

}  // namespace
}  // namespace loom::gr
