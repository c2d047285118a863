// The exact (stationary) Kerr-Schild data evolved by `loom bh`'s default scheme stays at the truncation level
// of its grid: after one unit of time on 8 x 11 x 22 shells the errors of psi, Pi and Phi stay below a small
// multiple of the spectral derivative's error at t = 0 (|C_iab| of the exact data). The radial exponential filter
// the first version applied every step (alpha 36, order 8) moved the solution by its truncation each step and
// broke this bound by a factor of three (docs/gr.md, "Accuracy of the stationary hole"); the default filter of the
// top mode only (alpha 36, order 32, session 10) with the penalty boundaries stays under it. The same bound holds
// with the Bjorhus outer boundary and with session 9's scheme.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "loom/gr/config.hpp"
#include "loom/gr/dormand_prince.hpp"
#include "loom/gr/gh_system.hpp"

namespace loom::gr {
namespace {

// `loom bh`'s keys with some set as on the command line.
BhConfig config(const std::vector<std::pair<std::string, std::string>>& keys = {}) {
  io::Parameters p = bh_parameters();
  for (const auto& [key, value] : keys) p.set_text(key, value, io::ParamSource::flag);
  return make_bh_config(p);
}

// The largest of the psi, Pi and Phi errors after evolving the exact data to t = 1 at the default CFL step,
// over the exact data's |C_iab| (the truncation error of the spectral gradient), with `c`'s filter and boundaries;
// the error itself in `error_out`.
double error_over_truncation(const BhConfig& c, double* error_out = nullptr) {
  GhGeometry g = c.geometry;
  g.extents = {8, 11, 22};
  GhSystem system(c.hole, g, c.filter, core::Backend::cpu);
  State u = system.exact_state();
  const double truncation = system.norms(u).three_index;
  DormandPrince stepper(system);
  const double dt = c.time.cfl * system.smallest_spacing();
  const int steps = static_cast<int>(1.0 / dt + 0.5);
  for (int s = 0; s < steps; ++s) stepper.step(u, dt);
  const Norms n = system.norms(u);
  const double error = std::max({n.psi_error, n.pi_error, n.phi_error});
  std::printf("alpha %g, order %d: t = %.3f: psi %.3e, Pi %.3e, Phi %.3e; |C_iab(0)| %.3e; ratio %.2f\n",
              c.filter.alpha, c.filter.half_order, steps * dt, n.psi_error, n.pi_error, n.phi_error, truncation,
              error / truncation);
  if (error_out) *error_out = error;
  return error / truncation;
}

// The defaults' filter and boundaries (the radial filter of the top mode, alpha 36, order 32; penalty interface and
// outer boundary) on the linear radial map, the map this bound was measured on (3.70).
TEST(GhAccuracy, ExactDataStaysAtTruncationLevel) {
  EXPECT_LT(error_over_truncation(config({{"grid.map", "linear"}})), 4.0);
}

// The Bjorhus outer boundary (bjorhus.hpp) keeps the exact data at the same level.
TEST(GhAccuracy, ExactDataStaysAtTruncationLevelWithBjorhus) {
  EXPECT_LT(error_over_truncation(config({{"boundary.outer", "bjorhus"}, {"grid.map", "linear"}})), 4.0);
}

// The defaults (the inverse radial map on both shells): the errors after t = 1 lie far below the linear map's at
// equal points (measured: 1.04e-5 against 2.42e-3, 230 times; 100 asserted). Relative to the inverse map's own
// |C_iab(0)| (8.8e-7) they are 11.8 times it, not below the linear map's 4 (docs/gr.md, "The radial map": why
// is not yet known; the angular truncation of 11 x 22, which |C_iab| shows less than the rates, is a suspect).
TEST(GhAccuracy, InverseMapErrorsFarBelowTheLinearMaps) {
  double inverse = 0, linear = 0;
  error_over_truncation(config(), &inverse);
  error_over_truncation(config({{"grid.map", "linear"}}), &linear);
  EXPECT_LT(inverse, 1e-2 * linear);
}

// Session 9's scheme (no radial filter, upwind interface, frozen outer boundary) was there too.
TEST(GhAccuracy, ExactDataStaysAtTruncationLevelWithoutFilterAndPenalties) {
  EXPECT_LT(error_over_truncation(config({{"filter.alpha", "0"},
                                          {"boundary.interface", "upwind"},
                                          {"boundary.outer", "frozen"},
                                          {"grid.map", "linear"}})),
            4.0);
}

// The contrast that locates the cause: the first version's radial filter (order 8: modes 5 and 6 of 8 damped
// too) is far above the bound.
TEST(GhAccuracy, RadialFilterMovesTheExactSolution) {
  EXPECT_GT(error_over_truncation(config({{"filter.order", "8"}, {"grid.map", "linear"}})), 8.0);
}

}  // namespace
}  // namespace loom::gr
