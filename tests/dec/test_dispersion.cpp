// Bloch dispersion of the DEC Laplacian (src/loom/dec/dispersion.*): the cubic grid's closed form, the zero mode
// at k = 0, second-order convergence of the acoustic eigenvalue to -|k|^2 on every grid, the branch choice past
// a structure's Brillouin zone, and the paper's claim that BCC and C15 are more isotropic than cubic.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "dec/every_grid.hpp"
#include "loom/dec/dispersion.hpp"
#include "loom/dec/equal_work.hpp"
#include "loom/dec/replicable_structure.hpp"

namespace loom::dec {
namespace {

TEST(Dispersion, CubicMatchesTheSevenPointStencil) {
  const auto& s = replicable_structure(GridType::cubic);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-3, 3);
  for (int t = 0; t < 20; ++t) {
    const Vec3 k{u(rng), u(rng), u(rng)};
    const double exact = -2 * ((1 - std::cos(k.x)) + (1 - std::cos(k.y)) + (1 - std::cos(k.z)));
    EXPECT_NEAR(acoustic_eigenvalue(s, k), exact, 1e-12);
  }
}

TEST_P(EveryGrid, BlochMatrixIsHermitianWithOneZeroModeAtGamma) {
  const auto& s = replicable_structure(GetParam());
  const HermitianMatrix m = bloch_matrix(s, {0.7, -1.3, 0.4});
  for (int i = 0; i < m.n; ++i)
    for (int j = 0; j < m.n; ++j) EXPECT_LT(std::abs(m(i, j) - std::conj(m(j, i))), 1e-12);
  const auto ev = hermitian_eigenvalues(bloch_matrix(s, {0, 0, 0}));
  EXPECT_NEAR(ev.back(), 0.0, 1e-10);  // the constant
  if (ev.size() > 1) {
    EXPECT_LT(ev[ev.size() - 2], -1.0);
  }
  for (double e : ev) EXPECT_LT(e, 1e-10);  // -Lap is positive semi-definite
}

// A fixed plane wave on grids refined by 2: the relative error of the acoustic eigenvalue falls as h^2.
TEST_P(EveryGrid, AcousticEigenvalueConvergesAtSecondOrder) {
  const auto& unit = replicable_structure(GetParam());
  const Vec3 k = Vec3{0.48, 0.31, 0.82} / norm(Vec3{0.48, 0.31, 0.82});  // |k| = 1, no symmetry direction
  std::vector<double> error;
  for (double scale : {0.4, 0.2, 0.1}) {
    const double lambda = acoustic_eigenvalue(unit.scaled(scale), k);
    error.push_back(std::abs(lambda + 1.0));
  }
  const double order = std::log2(error[1] / error[2]);
  EXPECT_GT(order, 1.8) << error[0] << " " << error[1] << " " << error[2];
  EXPECT_LT(order, 2.2);
  EXPECT_GT(std::log2(error[0] / error[1]), 1.7);
}

// The Z structure holds two hexagonal cells: along y its Brillouin zone ends at pi / sqrt3, past which the
// largest eigenvalue is the folded branch |k - G|^2. The acoustic one follows the plane wave.
TEST(Dispersion, AcousticBranchPastTheStructureZone) {
  const auto& s = replicable_structure(GridType::z);
  const double k = 2.2;  // > pi / sqrt3 = 1.81; G = 2 pi / sqrt3 = 3.63
  const auto ev = hermitian_eigenvalues(bloch_matrix(s, {0, k, 0}));
  const double folded = (2 * std::numbers::pi / std::sqrt(3.0) - k) * (2 * std::numbers::pi / std::sqrt(3.0) - k);
  EXPECT_NEAR(ev.back() / -folded, 1.0, 0.1);
  EXPECT_NEAR(acoustic_eigenvalue(s, {0, k, 0}) / -(k * k), 1.0, 0.05);
}

// Section 2 of the paper (its ref. [32]): BCC and C15 are the most isotropic grids; cubic is the least isotropic
// of the cubic ones. Compared at the same |k| times mean dual edge.
TEST(Dispersion, BccAndC15AreMoreIsotropicThanCubic) {
  const double k_edge = 0.5;
  const double cubic = measure_dispersion(replicable_structure(GridType::cubic), k_edge, 60).anisotropy();
  const double bcc = measure_dispersion(replicable_structure(GridType::bcc), k_edge, 60).anisotropy();
  const double c15 = measure_dispersion(replicable_structure(GridType::c15), k_edge, 60).anisotropy();
  // Cubic: along an axis 2 (1 - cos 0.5) / 0.25 = 0.9793, along a diagonal 0.9931: a spread of about 0.013.
  EXPECT_GT(cubic, 0.010);
  EXPECT_LT(cubic, 0.0139);
  EXPECT_LT(bcc, 0.2 * cubic);
  EXPECT_LT(c15, 0.2 * cubic);
}

TEST(Dispersion, DirectionsAreUnitVectorsSpreadOverTheSphere) {
  const auto d = sphere_directions(500);
  Vec3 mean{};
  for (const auto& v : d) {
    EXPECT_NEAR(norm(v), 1.0, 1e-14);
    mean += v / 500.0;
  }
  EXPECT_LT(norm(mean), 0.01);
}

}  // namespace
}  // namespace loom::dec
