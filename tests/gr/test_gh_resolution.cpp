// The resolution study of issue 19 on the CPU (slow: minutes on two cores): the exact Kerr-Schild data evolved to
// t = 2 on the paper's shells at N_r x N_theta x N_phi = (8, 15, 30), (10, 19, 38), (12, 23, 46), the run's
// scheme and CFL step. The errors against Kerr-Schild and the constraints fall exponentially: each refinement (2
// radial, 4 polar points) divides them by more than 3, and the second factor's logarithm is at least 0.9 of the
// first's. An algebraic rate N^-p gives ln(12/10) / ln(10/8) = 0.82 of it, whatever p.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>

#include "loom/gr/config.hpp"
#include "loom/gr/dormand_prince.hpp"
#include "loom/gr/gh_system.hpp"

namespace loom::gr {
namespace {

Norms evolve(const std::array<int, 3>& extents, double t_end) {
  const BhConfig c = make_bh_config(bh_parameters());
  GhSystem system(c.hole, {extents, c.geometry.radii}, c.filter, core::Backend::cpu);
  State u = system.exact_state();
  DormandPrince stepper(system);
  const int steps = static_cast<int>(std::ceil(t_end / (c.time.cfl * system.smallest_spacing())));
  for (int s = 0; s < steps; ++s) stepper.step(u, t_end / steps);
  const Norms n = system.norms(u);
  std::printf("%dx%dx%d, %d steps to t = %g: C_a %.3e C_iab %.3e normalized %.3e psi %.3e Pi %.3e Phi %.3e\n",
              extents[0], extents[1], extents[2], steps, t_end, n.gauge, n.three_index, n.normalized, n.psi_error,
              n.pi_error, n.phi_error);
  return n;
}

TEST(GhResolution, ErrorsAndConstraintsFallExponentially) {
  const std::array<std::array<int, 3>, 3> grids = {{{8, 15, 30}, {10, 19, 38}, {12, 23, 46}}};
  std::array<Norms, 3> n;
  for (int k = 0; k < 3; ++k) n[k] = evolve(grids[k], 2.0);
  const std::array<std::pair<const char*, double Norms::*>, 5> measures = {{{"C_a", &Norms::gauge},
                                                                            {"C_iab", &Norms::three_index},
                                                                            {"psi", &Norms::psi_error},
                                                                            {"Pi", &Norms::pi_error},
                                                                            {"Phi", &Norms::phi_error}}};
  for (const auto& [name, m] : measures) {
    const double f1 = n[0].*m / n[1].*m, f2 = n[1].*m / n[2].*m;
    std::printf("%s: factors %.2f, %.2f; log ratio %.2f\n", name, f1, f2, std::log(f2) / std::log(f1));
    EXPECT_GT(f1, 3.0) << name;
    EXPECT_GT(f2, 3.0) << name;
    EXPECT_GT(std::log(f2), 0.9 * std::log(f1)) << name;
  }
}

}  // namespace
}  // namespace loom::gr
