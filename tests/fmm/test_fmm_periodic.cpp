// Periodic boundaries (the FMM's image scheme, engine/periodic_images.cpp) against an independent Ewald sum (ewald.*).
// Ewald is first checked against a published number, the Madelung constant of rock salt, and for independence of its
// splitting parameter; then the periodic FMM against Ewald, the cube-order surface term that the tinfoil option
// removes, and convergence in the number of image levels.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/ewald.hpp"
#include "loom/fmm/fmm.hpp"

namespace loom::fmm {
namespace {

TEST(Ewald, MadelungConstantOfRockSalt) {
  // the conventional cell of NaCl (side 2, nearest-neighbour distance 1): the potential at each ion is -q M with
  // M = 1.747564594633... (e.g. Kittel, Introduction to Solid State Physics)
  std::vector<Vec3d> x;
  std::vector<double> q;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k) {
        x.push_back({double(i), double(j), double(k)});
        q.push_back((i + j + k) % 2 == 0 ? 1.0 : -1.0);
      }
  std::vector<double> phi;
  std::vector<Vec3d> grad;
  ewald_laplace(x, q, 2.0, sample_targets(8, 8), phi, grad);
  for (int i = 0; i < 8; ++i) {
    EXPECT_NEAR(phi[i], -q[i] * 1.747564594633182, 1e-12) << i;
    EXPECT_NEAR(grad[i].x, 0, 1e-12);  // every ion is a centre of symmetry
  }
}

struct Neutral {
  std::vector<Vec3d> x;
  std::vector<double> q;
};

// n random charges in [0, 1)^3, shifted to sum to zero.
Neutral neutral(Index n, std::uint64_t seed) {
  Neutral s;
  s.x = make_positions(Distribution::cube, n, seed);
  for (auto& p : s.x) p = 0.5 * (p + Vec3d{1, 1, 1});
  s.q = make_uniform(n, -1, 1, seed + 1);
  double mean = 0;
  for (double v : s.q) mean += v / double(n);
  for (double& v : s.q) v -= mean;
  return s;
}

TEST(Ewald, IndependentOfTheSplittingParameter) {
  const Neutral s = neutral(300, 51);
  const auto t = sample_targets(300, 40);
  std::vector<double> a, b;
  std::vector<Vec3d> ga, gb;
  ewald_laplace(s.x, s.q, 1.0, t, a, ga, {6.0, 12});
  ewald_laplace(s.x, s.q, 1.0, t, b, gb, {4.5, 9});
  EXPECT_LT(relative_l2_error(a, b), 1e-11);
  EXPECT_LT(relative_l2_error(ga, gb), 1e-11);
}

Options periodic_options(int p, int levels, bool tinfoil) {
  Options o;
  o.order = p;
  o.theta = 0.4;
  o.periodic = true;
  o.period = 1;
  o.box_lower = {0, 0, 0};
  o.image_levels = levels;
  o.tinfoil = tinfoil;
  return o;
}

TEST(FmmPeriodic, AgreesWithEwald) {
  const Index n = 4000;
  const Neutral s = neutral(n, 52);
  const auto t = sample_targets(n, 200);
  std::vector<double> phi, fphi;
  std::vector<Vec3d> grad, fgrad;
  ewald_laplace(s.x, s.q, 1.0, t, phi, grad);
  const auto r = laplace(s.x, s.q, periodic_options(12, 5, true));
  for (Index i : t) {
    fphi.push_back(r.potential[static_cast<std::size_t>(i)]);
    fgrad.push_back(r.gradient[static_cast<std::size_t>(i)]);
  }
  const double e_phi = relative_l2_error(fphi, phi), e_grad = relative_l2_error(fgrad, grad);
  std::printf("periodic p 12: potential error %.2e, gradient error %.2e\n", e_phi, e_grad);
  EXPECT_LT(e_phi, 1e-6);
  EXPECT_LT(e_grad, 1e-6);
}

TEST(FmmPeriodic, CubeOrderSumDiffersByTheSurfaceTerm) {
  // without the tinfoil correction the FMM returns the lattice sum in growing cubes: Ewald plus
  // (4 pi/3V) d.(x - c) - (2 pi/3V) sum_j q_j |x_j - c|^2, with the box centre c = (1/2, 1/2, 1/2)
  const Index n = 2000;
  Neutral s = neutral(n, 53);
  for (std::size_t i = 0; i < s.x.size(); ++i) s.q[i] += 0.3 * (s.x[i].x - 0.5);  // a sizeable dipole along x
  double mean = 0;
  for (double v : s.q) mean += v / double(n);
  for (double& v : s.q) v -= mean;
  Vec3d d{};
  double second = 0;
  const Vec3d c{0.5, 0.5, 0.5};
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    d += s.q[i] * (s.x[i] - c);
    second += s.q[i] * norm2(s.x[i] - c);
  }
  const auto t = sample_targets(n, 100);
  std::vector<double> phi, raw_phi, expected;
  std::vector<Vec3d> grad, raw_grad;
  ewald_laplace(s.x, s.q, 1.0, t, phi, grad);
  const auto r = laplace(s.x, s.q, periodic_options(12, 6, false));
  const double k = 4 * std::numbers::pi / 3;
  double err_phi = 0, err_grad = 0, norm_phi = 0, norm_grad = 0, surface = 0;
  for (std::size_t m = 0; m < t.size(); ++m) {
    const auto i = static_cast<std::size_t>(t[m]);
    const double surface_phi = k * dot(d, s.x[i] - c) - 0.5 * k * second;
    err_phi += std::pow(r.potential[i] - (phi[m] + surface_phi), 2);
    err_grad += norm2(r.gradient[i] - (grad[m] + k * d));
    norm_phi += phi[m] * phi[m];
    norm_grad += norm2(grad[m]);
    surface += surface_phi * surface_phi;
  }
  EXPECT_GT(std::sqrt(surface / norm_phi), 1e-3);  // the surface term is not negligible here
  EXPECT_LT(std::sqrt(err_phi / norm_phi), 1e-6);
  EXPECT_LT(std::sqrt(err_grad / norm_grad), 1e-6);
}

TEST(FmmPeriodic, ErrorFallsWithImageLevels) {
  const Index n = 2000;
  const Neutral s = neutral(n, 54);
  const auto t = sample_targets(n, 100);
  std::vector<double> phi;
  std::vector<Vec3d> grad;
  ewald_laplace(s.x, s.q, 1.0, t, phi, grad);
  double previous = 1e300;
  for (int levels : {0, 1, 2, 3}) {
    const auto r = laplace(s.x, s.q, periodic_options(12, levels, true));
    std::vector<Vec3d> fgrad;
    for (Index i : t) fgrad.push_back(r.gradient[static_cast<std::size_t>(i)]);
    const double e = relative_l2_error(fgrad, grad);
    std::printf("image levels %d: gradient error %.2e\n", levels, e);
    EXPECT_LT(e, previous / 4) << levels;  // each level multiplies the distance to the missing images by 3
    previous = e;
  }
  EXPECT_LT(previous, 1e-5);
}

TEST(FmmPeriodic, BiotSavartIsTheCurlOfThreePeriodicPotentials) {
  // tiny cores: u = (1/4pi) curl psi with psi_c the periodic potential of the charges alpha_c (Ewald, tinfoil)
  const Index n = 1500;
  const Neutral s = neutral(n, 55);
  std::vector<Vec3d> alpha(static_cast<std::size_t>(n));
  for (int c = 0; c < 3; ++c) {
    const Neutral strengths = neutral(n, 56 + c);
    for (std::size_t i = 0; i < alpha.size(); ++i) alpha[i][c] = strengths.q[i];
  }
  const std::vector<double> sigma(static_cast<std::size_t>(n), 1e-5);
  const auto t = sample_targets(n, 100);
  std::vector<Vec3d> grad_psi[3];
  for (int c = 0; c < 3; ++c) {
    std::vector<double> q(static_cast<std::size_t>(n)), phi;
    for (std::size_t i = 0; i < q.size(); ++i) q[i] = alpha[i][c];
    ewald_laplace(s.x, q, 1.0, t, phi, grad_psi[c]);
  }
  Options o = periodic_options(12, 5, true);
  const auto r = biot_savart(s.x, alpha, sigma, o);
  std::vector<Vec3d> expected, got;
  for (std::size_t m = 0; m < t.size(); ++m) {
    const Vec3d curl{grad_psi[2][m].y - grad_psi[1][m].z, grad_psi[0][m].z - grad_psi[2][m].x,
                     grad_psi[1][m].x - grad_psi[0][m].y};
    expected.push_back((1 / (4 * std::numbers::pi)) * curl);
    got.push_back(r.velocity[static_cast<std::size_t>(t[m])]);
  }
  const double e = relative_l2_error(got, expected);
  std::printf("periodic Biot-Savart velocity error %.2e\n", e);
  EXPECT_LT(e, 1e-6);
}

}  // namespace
}  // namespace loom::fmm
