// The stationary vortex of eq. (14): the oscillator basis and its Gauss rules, the exact non-interacting limit,
// the virial theorem, the PDE itself checked by finite differences, the Thomas-Fermi limit (the shape of the
// paper's multi-GPU case: test_stationary_vortex_paper_case.cpp, slow).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "loom/core/error.hpp"
#include "loom/gpe/model/oscillator_basis.hpp"
#include "loom/gpe/model/stationary_vortex.hpp"

namespace loom::gpe {
namespace {

double orthonormality_error(const FunctionRule& rule) {
  double worst = 0;
  for (int k = 0; k < rule.modes; ++k)
    for (int l = 0; l <= k; ++l) {
      double s = 0;
      for (int j = 0; j < rule.points; ++j)
        s += rule.scaled[std::size_t(j) * rule.modes + k] * rule.scaled[std::size_t(j) * rule.modes + l];
      worst = std::max(worst, std::abs(s - (k == l ? 1.0 : 0.0)));
    }
  return worst;
}

TEST(OscillatorBasis, ClosedFormsOfTheFirstFunctions) {
  std::vector<double> h(3), l(2);
  for (double s : {-2.5, -0.3, 0.0, 1.7}) {
    hermite_functions(s, h);
    const double h0 = std::pow(M_PI, -0.25) * std::exp(-s * s / 2);
    EXPECT_NEAR(h[0], h0, 1e-15);
    EXPECT_NEAR(h[1], std::sqrt(2.0) * s * h0, 1e-15);
    EXPECT_NEAR(h[2], (2 * s * s - 1) / std::sqrt(2.0) * h0, 1e-15);
  }
  for (double x : {0.0, 0.4, 3.0}) {
    laguerre_functions(x, 0, l);
    EXPECT_NEAR(l[0], std::exp(-x / 2), 1e-15);
    EXPECT_NEAR(l[1], (1 - x) * std::exp(-x / 2), 1e-15);
    laguerre_functions(x, 2, l);  // sqrt(1/2) x e^{-x/2}, and L_1^(2) = 3 - x
    EXPECT_NEAR(l[0], std::sqrt(0.5) * x * std::exp(-x / 2), 1e-15);
    EXPECT_NEAR(l[1], std::sqrt(1.0 / 6) * x * (3 - x) * std::exp(-x / 2), 1e-15);
  }
}

TEST(OscillatorBasis, GaussRulesAreExactForTheirFunctions) {
  EXPECT_LT(orthonormality_error(hermite_rule(40, 40)), 1e-12);
  EXPECT_LT(orthonormality_error(hermite_rule(900, 600)), 1e-11);  // nodes out to |s| ~ 41: no under/overflow
  EXPECT_LT(orthonormality_error(laguerre_rule(0, 50, 50)), 1e-12);
  EXPECT_LT(orthonormality_error(laguerre_rule(20, 700, 500)), 1e-11);
}

TEST(OscillatorBasis, HighOrderFunctionsFarOutAreFinite) {
  std::vector<double> h(1500);
  hermite_functions(45.0, h);  // h_0(45) underflows; h_1499 is oscillatory there (turning point 54.8)
  EXPECT_TRUE(std::isfinite(h.back()));
  EXPECT_GT(std::abs(h[1499]) + std::abs(h[1498]), 1e-3);
}

TEST(StationaryVortex, NonInteractingIsTheOscillatorState) {
  for (int kappa : {0, 1, 3, 10, -2})
    for (double lambda : {0.5, 1.0, 2.0}) {
      VortexProblem p;
      p.physics.lambda = lambda;
      p.kappa = kappa;
      const auto v = StationaryVortex::solve(p);
      const int m = std::abs(kappa);
      EXPECT_NEAR(v.chemical_potential(), 1 + m + lambda / 2, 1e-12) << kappa << " " << lambda;
      // f = N rho^m e^{-rho^2/2} e^{-lambda z^2/2}, 2 pi int f^2 rho d rho dz = 1
      const double norm = 1 / std::sqrt(M_PI * std::tgamma(m + 1) * std::sqrt(M_PI / lambda));
      for (double rho : {0.3, 1.0, 2.2})
        for (double z : {-1.1, 0.0, 0.7}) {
          const double exact = norm * std::pow(rho, m) * std::exp(-rho * rho / 2 - lambda * z * z / 2);
          EXPECT_NEAR(v.f(rho, z), exact, 1e-12) << kappa << " " << lambda << " " << rho << " " << z;
        }
      EXPECT_NEAR(v.energies().kinetic, v.energies().potential, 1e-12);  // virial for g = 0
    }
}

TEST(StationaryVortex, VirialTheoremAndChemicalPotential) {
  struct Case {
    double lambda, g;
    int kappa;
  };
  for (const Case c : {Case{1.0, 300.0, 10}, Case{2.0, 50.0, 0}, Case{0.5, 100.0, -3}, Case{1.0, -5.0, 0}}) {
    VortexProblem p;
    p.physics.lambda = c.lambda;
    p.physics.g = c.g;
    p.kappa = c.kappa;
    const auto v = StationaryVortex::solve(p);
    const auto e = v.energies();
    const double scale = e.kinetic + e.potential + std::abs(e.interaction);
    // Harmonic trap, contact interaction: 2 E_kin - 2 E_pot + 3 E_int = 0.
    EXPECT_LT(std::abs(2 * e.kinetic - 2 * e.potential + 3 * e.interaction), 1e-7 * scale) << c.g;
    EXPECT_NEAR(v.chemical_potential(), e.kinetic + e.potential + 2 * e.interaction, 1e-9 * scale) << c.g;
  }
}

// The solution satisfies eq. (14) pointwise, checked with centred finite differences of f (independent of the
// spectral machinery that produced it).
TEST(StationaryVortex, SatisfiesEquation14ByFiniteDifferences) {
  VortexProblem p;
  p.physics.lambda = 1.0;
  p.physics.g = 300.0;
  p.kappa = 10;
  const auto v = StationaryVortex::solve(p);
  const double mu = v.chemical_potential(), h = 2e-3;
  double worst = 0;
  for (double rho : {2.0, 3.0, 4.5, 6.0})
    for (double z : {0.0, 1.5, 3.0}) {
      const double f = v.f(rho, z);
      const double frr = (v.f(rho + h, z) - 2 * f + v.f(rho - h, z)) / (h * h);
      const double fr = (v.f(rho + h, z) - v.f(rho - h, z)) / (2 * h);
      const double fzz = (v.f(rho, z + h) - 2 * f + v.f(rho, z - h)) / (h * h);
      const double V = 0.5 * (rho * rho + p.physics.lambda * p.physics.lambda * z * z);
      const double lhs = 0.5 * (p.kappa * p.kappa / (rho * rho) * f - frr - fr / rho - fzz) + (V + p.physics.g * f * f) * f;
      worst = std::max(worst, std::abs(lhs - mu * f));
    }
  EXPECT_LT(worst, 1e-5 * mu * v.max_f());
}

TEST(StationaryVortex, NormalisedAndTabulatedFaithfully) {
  VortexProblem p;
  p.physics.lambda = 1.0;
  p.physics.g = 300.0;
  p.kappa = 10;
  const auto v = StationaryVortex::solve(p);
  const double R = v.rho_extent(1e-9), Z = v.z_extent(1e-9);
  const VortexTable table(v, 1.5 * R, 1.5 * Z);
  // Independent quadrature: midpoint rule over the table.
  const int n = 600;
  double norm = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double rho = (i + 0.5) * R / n, z = -Z + (j + 0.5) * 2 * Z / n;
      const double f = table.f(rho, z);
      norm += 2 * M_PI * f * f * rho * (R / n) * (2 * Z / n);
    }
  EXPECT_NEAR(norm, 1.0, 1e-5);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> ur(0, R), uz(-Z, Z);
  double worst = 0;
  for (int k = 0; k < 300; ++k) {
    const double rho = ur(rng), z = uz(rng);
    worst = std::max(worst, std::abs(table.f(rho, z) - v.f(rho, z)));
  }
  EXPECT_LT(worst, 1e-7 * v.max_f());
  EXPECT_EQ(table.f(2 * R, 0), 0.0);  // outside the table: no cloud
  const auto psi = table.psi(1.0, 2.0, 0.5);
  EXPECT_NEAR(std::arg(psi), std::remainder(10 * std::atan2(2.0, 1.0), 2 * M_PI), 1e-12);
}

TEST(StationaryVortex, ExtentsOfEquation15) {
  VortexProblem p;  // g = 0, kappa = 0, lambda = 1: f / max f = e^{-rho^2/2}
  const auto v = StationaryVortex::solve(p);
  EXPECT_NEAR(v.rho_extent(1e-5), std::sqrt(2 * std::log(1e5)), 2e-3);
  EXPECT_NEAR(v.z_extent(1e-5), std::sqrt(2 * std::log(1e5)), 2e-3);
  EXPECT_NEAR(v.effective_wavelength(), 2 * M_PI / std::sqrt(1.5), 1e-12);  // <-lap> = 3/2 for the 3D ground state
}

TEST(StationaryVortex, ThomasFermiLimit) {
  double previous = 1;
  for (double g : {1e2, 1e3, 1e4}) {
    VortexProblem p;
    p.physics.g = g;
    const auto v = StationaryVortex::solve(p);
    const double deviation = v.chemical_potential() / thomas_fermi_mu(1.0, g, 0) - 1;
    EXPECT_GT(deviation, 0);  // kinetic energy only adds
    EXPECT_LT(deviation, previous);
    previous = deviation;
  }
  EXPECT_LT(previous, 0.02);
  EXPECT_NEAR(thomas_fermi_mu(1.0, 1e4, 0), 0.5 * std::pow(15e4 / (4 * M_PI), 0.4), 1e-12);
}

TEST(StationaryVortex, CollapsingAttractiveCondensateIsAnError) {
  VortexProblem p;
  p.physics.g = -60;
  p.max_modes = 160;
  EXPECT_THROW(StationaryVortex::solve(p), Error);
}

}  // namespace
}  // namespace loom::gpe
