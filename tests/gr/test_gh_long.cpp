// The late instability of issue 19 (docs/gr.md, "The late instability"), as a long CPU run at low resolution
// (slow: ~20 CPU minutes): two shells [1.62, 6], [6, 12] of 8 x 11 x 22, chi = (0.2, 0.3, 0.4), `loom bh`'s
// defaults (damping, filter, frozen outer boundary), to t = 300 at the CFL step. With gamma1 = -1 this grid's
// C_iab grew x2 per 7.5 m from t ~ 25 and the excision surface failed at t = 49.9; the constraints must now show
// no growth trend: the norm at the end within 2x of the norm after the initial transient (t = 25), and no value
// in between above 3x that. (The psi error is printed, not bounded: at this grid it drifts linearly, ~4e-4 per m,
// towards a nearby stationary hole, docs/gr.md "Accuracy of the stationary hole"; resolution lowers that rate.)
// The equivalent `loom bh` run gave 1.3x at t = 300 (flat to t = 270, then a second mode starting at the
// excision surface, docs/gr.md "The late instability: the gamma1 = -1 mode"): a longer run would fail here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "loom/gr/config.hpp"
#include "loom/gr/dormand_prince.hpp"
#include "loom/gr/gh_system.hpp"

namespace loom::gr {
namespace {

TEST(GhLong, ConstraintsShowNoGrowthTrendToT300) {
  const BhConfig c = make_bh_config(bh_parameters());
  GhGeometry g = c.geometry;
  g.extents = {8, 11, 22};
  GhSystem system(c.hole, g, c.filter, core::Backend::cpu);
  State u = system.exact_state();
  DormandPrince stepper(system);
  // The step of every 8 x 11 x 22 run since session 8 (0.25 of the linear map's smallest spacing): 0.93 of the
  // inverse map's, inside the CFL bound (time.cfl <= 1); the default time.cfl 0.25 on the inverse map would take
  // 3.7 times the steps (docs/gr.md, "The radial map").
  const double dt = 0.054, t_settled = 25, t_end = 300, every = 25;
  ASSERT_LE(dt, system.smallest_spacing());
  const int steps = int(t_end / dt + 0.5);
  double after_transient = 0, largest = 0, next = every;
  for (int step = 1; step <= steps; ++step) {
    stepper.step(u, dt);
    const double t = step * dt;
    if (t + 0.5 * dt < next && step < steps) continue;
    next += every;
    const double speed = system.slowest_excision_speed(u);
    const Norms n = system.norms(u);
    std::printf("t = %6.1f: C_a %.3e, C_iab %.3e, normalized %.3e, psi error %.3e, excision speed %.4f\n", t,
                n.gauge, n.three_index, n.normalized, n.psi_error, speed);
    ASSERT_GE(speed, 0.0) << "t = " << t;
    std::fflush(stdout);
    if (after_transient == 0 && t >= t_settled - 0.5 * dt) after_transient = n.normalized;
    largest = std::max(largest, n.normalized);
    if (step == steps) {
      EXPECT_LT(n.normalized, 2 * after_transient) << "a growth trend after the transient";
      EXPECT_LT(largest, 3 * after_transient);
    }
  }
}

}  // namespace
}  // namespace loom::gr
