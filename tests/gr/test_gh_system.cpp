// The GH system on shells (gr/gh_system.hpp) with the exact Kerr-Schild data: the analytic Phi equals the
// spectral derivative of psi, and the right-hand side vanishes, both to truncation error that falls exponentially
// with resolution (the errors at four resolutions must fall by a factor that does not shrink, which an algebraic
// rate does not give).
#include <gtest/gtest.h>

#include <cmath>

#include "loom/gr/gh_system.hpp"
#include "loom/gr/indices.hpp"

namespace loom::gr {
namespace {

const KerrSchild tilted{1.0, {0.2, 0.3, 0.4}};

GhGeometry geometry(int k) { return {{4 + 2 * k, 5 + 2 * k, 10 + 4 * k}, {1.62, 6, 12}}; }

// Largest |rate| over every point and component of both shells.
double largest_rate(GhSystem& system) {
  State u = system.exact_state(), du = system.exact_state();
  system.rhs(u, du);
  double m = 0;
  for (const auto& a : du) {
    const double* p = a.read(core::Where::host);
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(p[i]));
  }
  return m;
}

TEST(GhSystem, ExactDataConvergesExponentially) {
  std::vector<double> rhs, c3;
  for (int k = 0; k < 4; ++k) {
    GhSystem system(tilted, geometry(k), {}, core::Backend::cpu);
    rhs.push_back(largest_rate(system));
    c3.push_back(system.norms(system.exact_state()).three_index);
  }
  for (int k = 0; k < 4; ++k) std::printf("k %d: max |rhs| %.3e, |C_iab| %.3e\n", k, rhs[k], c3[k]);
  // Exponential: every step of 2 points per direction divides the error by more than 3, and the factor does not
  // shrink (an algebraic rate N^-p, matched to the first factor, falls to 0.65 and 0.77 of it at these N).
  for (const auto* e : {&rhs, &c3})
    for (int k = 1; k < 4; ++k) {
      const double factor = (*e)[k - 1] / (*e)[k];
      EXPECT_GT(factor, 3.0) << "k " << k;
      if (k > 1) {
        EXPECT_GT(factor, 0.85 * (*e)[k - 2] / (*e)[k - 1]) << "k " << k;
      }
    }
}

}  // namespace
}  // namespace loom::gr
