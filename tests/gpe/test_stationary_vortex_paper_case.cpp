// The shape of the paper's multi-GPU case (its eq. (14) vortex at lambda 0.1, g 5000, kappa 20): a minute or more
// of relaxation on one core, so it is labelled slow.
#include <gtest/gtest.h>

#include "loom/gpe/model/stationary_vortex.hpp"

namespace loom::gpe {
namespace {

// The paper's multi-GPU case was run on 87 x 87 x 302 BCC structures: the domain of eq. (15) has that aspect ratio.
TEST(StationaryVortex, PaperScalingCaseHasThePapersAspectRatio) {
  VortexProblem p;
  p.physics.lambda = 0.1;
  p.physics.g = 5000;
  p.kappa = 20;
  const auto v = StationaryVortex::solve(p);
  EXPECT_NEAR(v.z_extent() / v.rho_extent(), 302.0 / 87.0, 0.03 * 302.0 / 87.0);
}

}  // namespace
}  // namespace loom::gpe
