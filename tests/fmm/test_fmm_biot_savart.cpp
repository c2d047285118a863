// Biot-Savart with the Gaussian cutoff (pair_kernels.hpp and the FMM's vortex path in fmm.*): the pair kernel
// against an independent evaluation with std::erf, the stretching against a finite difference of the velocity,
// the sign (a vortex ring moves along its axis the way the flow through its centre points), the FMM against
// direct sums on uniform, shell and Plummer particles, the far-field guard, and the Gaussian RBF sum.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/pair_kernels.hpp"

namespace loom::fmm {
namespace {

constexpr double pi = std::numbers::pi;

// u(x) = (1/4pi) sum_j g(|r|/sigma_j)/|r|^3 (alpha_j x r), straight from the definition of g.
Vec3d velocity_by_definition(Vec3d x, const std::vector<Vec3d>& y, const std::vector<Vec3d>& alpha,
                             const std::vector<double>& sigma, std::size_t skip) {
  Vec3d u{};
  for (std::size_t j = 0; j < y.size(); ++j) {
    if (j == skip) continue;
    const Vec3d r = x - y[j];
    const double d = std::sqrt(norm2(r)), rho = d / sigma[j];
    const double g = std::erf(rho / std::sqrt(2.0)) - std::sqrt(2 / pi) * rho * std::exp(-rho * rho / 2);
    u += (g / (4 * pi * d * d * d)) * cross(alpha[j], r);
  }
  return u;
}

struct Particles {
  std::vector<Vec3d> x, alpha;
  std::vector<double> sigma;
};

Particles particles(Distribution d, Index n, double sigma, std::uint64_t seed) {
  Particles p;
  p.x = make_positions(d, n, seed);
  p.alpha = make_uniform_vectors(n, -1, 1, seed + 1);
  p.sigma = make_uniform(n, sigma, 1.5 * sigma, seed + 2);
  return p;
}

TEST(BiotSavartKernel, VelocityMatchesDefinitionAndStretchingMatchesFiniteDifference) {
  const Particles p = particles(Distribution::cube, 300, 0.15, 41);
  const auto targets = sample_targets(300, 30);
  std::vector<Vec3d> u, s;
  direct_biot_savart(p.x, p.alpha, p.sigma, targets, u, s);
  double err_u = 0, norm_u = 0, err_s = 0, norm_s = 0;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const auto i = static_cast<std::size_t>(targets[t]);
    const Vec3d exact = velocity_by_definition(p.x[i], p.x, p.alpha, p.sigma, i);
    err_u += norm2(u[t] - exact);
    norm_u += norm2(exact);
    // (alpha_i . grad) u at x_i: central difference along alpha_i, fourth order
    const double h = 1e-3;
    auto at = [&](double e) { return velocity_by_definition(p.x[i] + e * p.alpha[i], p.x, p.alpha, p.sigma, i); };
    const Vec3d fd = (1 / (12 * h)) * (at(-2 * h) - 8.0 * at(-h) + 8.0 * at(h) - at(2 * h));
    err_s += norm2(s[t] - fd);
    norm_s += norm2(fd);
  }
  EXPECT_LT(std::sqrt(err_u / norm_u), 1e-13);
  EXPECT_LT(std::sqrt(err_s / norm_s), 1e-9);
}

TEST(BiotSavartKernel, FarAwayItIsTheSingularBiotSavartLaw) {
  const Vec3d alpha{0.3, -0.2, 0.5}, r{3, 4, 12};  // |r| = 13, sigma = 0.5: rho = 26, g = 1 to rounding
  Vec3d u{}, s{};
  biot_savart_pair(r, alpha, 0.5, Vec3d{0, 0, 1}, u, s);
  const Vec3d expected = (1 / (13.0 * 13 * 13)) * cross(alpha, r);
  EXPECT_NEAR(u.x, expected.x, 1e-15);
  EXPECT_NEAR(u.z, expected.z, 1e-15);
}

// A thin ring of Gaussian blobs on its core's centre line (radius R, circulation Gamma, core sigma << R). With an
// arc of half-length delta cut out of the singular Biot-Savart integral, a point of the ring moves at
// Gamma/(4 pi R) ln(4R/delta); the cutoff g acts as delta = sigma e^{-I}, I = int_0^inf (g(t) - H(t-1)) dt/t =
// (gamma_E + ln 2)/2 - 1 (int (erf(t/sqrt2) - H(t-1))/t = (gamma_E + ln 2)/2, and sqrt(2/pi) int e^{-t^2/2} = 1),
// so the centre line moves at U_c = Gamma/(4 pi R) (ln(4R/sigma) + (gamma_E + ln 2)/2 - 1) + O((sigma/R)^2):
// 0.2645 for R = 1, sigma = 0.1, Gamma = 1. (Saffman's propagation speed of the Gaussian-core ring, Gamma/(4 pi R)
// (ln(8R/a) - (1 - gamma_E + ln 2)/2) with a = sqrt2 sigma, is larger by Gamma (1 - ln 2)/(8 pi R): the core's
// vorticity moves on average faster than its centre.)
TEST(BiotSavartKernel, VortexRingMovesAlongItsAxis) {
  // a ring of radius 1 in the xy-plane, circulation counter-clockwise seen from +z: by the right-hand rule the
  // flow through the centre is +z and the ring moves in +z.
  const int n = 200;
  const double sigma = 0.1;
  Particles ring;
  for (int k = 0; k < n; ++k) {
    const double phi = 2 * pi * k / n;
    ring.x.push_back({std::cos(phi), std::sin(phi), 0});
    ring.alpha.push_back((2 * pi / n) * Vec3d{-std::sin(phi), std::cos(phi), 0});
    ring.sigma.push_back(sigma);
  }
  const Vec3d centre = velocity_by_definition({0, 0, 0}, ring.x, ring.alpha, ring.sigma, n);
  EXPECT_NEAR(centre.z, 0.5, 1e-3);  // a thin ring of unit circulation: u = Gamma / (2R) at the centre
  Options o;
  o.order = 8;
  o.ncrit = 16;
  const auto r = biot_savart(ring.x, ring.alpha, ring.sigma, o);
  constexpr double euler_gamma = 0.57721566490153286;
  const double thin_ring = (std::log(4 / sigma) + (euler_gamma + std::log(2.0)) / 2 - 1) / (4 * pi);
  // the blobs resolve the line (spacing 0.03 < sigma): the direct sum at one of them is the continuous ring's
  const double by_definition = velocity_by_definition(ring.x[0], ring.x, ring.alpha, ring.sigma, 0).z;
  std::printf("ring: centre %.6f, self-induced %.6f, direct %.6f, thin ring %.6f\n", centre.z, r.velocity[0].z,
              by_definition, thin_ring);
  EXPECT_NEAR(by_definition, thin_ring, 0.01 * thin_ring);  // O((sigma/R)^2 ln): 6e-4 here
  for (int k = 0; k < n; k += 20) {
    EXPECT_NEAR(r.velocity[k].z, by_definition, 1e-6 * by_definition) << k;  // every blob alike, by symmetry
    EXPECT_NEAR(r.velocity[k].x * ring.x[k].y - r.velocity[k].y * ring.x[k].x, 0, 1e-6);  // no swirl
  }
}

struct Errors {
  double velocity, stretching;
};

Errors errors(const Particles& p, const BiotSavartResult& r, Index samples) {
  const auto targets = sample_targets(static_cast<Index>(p.x.size()), samples);
  std::vector<Vec3d> u, s, fu, fs;
  direct_biot_savart(p.x, p.alpha, p.sigma, targets, u, s);
  for (Index i : targets) {
    fu.push_back(r.velocity[static_cast<std::size_t>(i)]);
    fs.push_back(r.stretching[static_cast<std::size_t>(i)]);
  }
  return {relative_l2_error(fu, u), relative_l2_error(fs, s)};
}

TEST(FmmBiotSavart, AgreesWithDirectSumOnEachDistribution) {
  for (auto d : {Distribution::cube, Distribution::sphere, Distribution::plummer}) {
    SCOPED_TRACE(std::string(to_string(d)));
    // cores about the particle spacing: cube and shell spacing ~0.1 and ~0.05, the Plummer core much denser
    const Index n = 6000;
    const Particles p = particles(d, n, d == Distribution::plummer ? 0.01 : 0.05, 42);
    Options o;
    o.order = 10;
    o.theta = 0.4;
    const auto r = biot_savart(p.x, p.alpha, p.sigma, o);
    const Errors e = errors(p, r, 300);
    std::printf("[ %s ] velocity error %.2e, stretching error %.2e, m2l %ld p2p %ld\n",
                std::string(to_string(d)).c_str(), e.velocity, e.stretching, long(r.stats.m2l_pairs),
                long(r.stats.p2p_pairs));
    EXPECT_LT(e.velocity, 1e-6);
    EXPECT_LT(e.stretching, 1e-5);
    EXPECT_GT(r.stats.m2l_pairs, 0);
  }
}

TEST(FmmBiotSavart, ErrorFallsWithOrder) {
  const Particles p = particles(Distribution::cube, 6000, 0.04, 43);
  Errors previous{1, 1};
  for (int p_order : {4, 7, 10, 13}) {
    Options o;
    o.order = p_order;
    o.theta = 0.5;
    const Errors err = errors(p, biot_savart(p.x, p.alpha, p.sigma, o), 200);
    std::printf("p %2d: velocity %.2e stretching %.2e\n", p_order, err.velocity, err.stretching);
    EXPECT_LT(err.velocity, previous.velocity / 5) << p_order;
    EXPECT_LT(err.stretching, previous.stretching / 5) << p_order;
    previous = err;
  }
}

TEST(FmmBiotSavart, GuardKeepsTheSmoothedNearFieldOutOfTheExpansions) {
  // wide cores (sigma comparable to the cells): without the guard, M2L between cells a few sigma apart uses the
  // singular kernel where g < 1, an O(1e-3) error; with it the error is the expansions' alone.
  const Particles p = particles(Distribution::cube, 6000, 0.2, 44);
  Options o;
  o.order = 10;
  o.theta = 0.5;
  o.ncrit = 8;
  o.guard = 0;
  const Errors unguarded = errors(p, biot_savart(p.x, p.alpha, p.sigma, o), 200);
  o.guard = 6;
  const Errors guarded = errors(p, biot_savart(p.x, p.alpha, p.sigma, o), 200);
  std::printf("guard 0: velocity %.2e stretching %.2e; guard 6: velocity %.2e stretching %.2e\n", unguarded.velocity,
              unguarded.stretching, guarded.velocity, guarded.stretching);
  EXPECT_GT(unguarded.velocity, 1e-5);
  EXPECT_LT(guarded.velocity, 1e-6);
  EXPECT_LT(guarded.stretching, 1e-5);
}

TEST(FmmBiotSavart, GaussianSumMatchesDirectSum) {
  const Particles p = particles(Distribution::cube, 8000, 0.06, 45);
  Options o;
  o.ncrit = 32;
  Evaluator e(o);
  e.set_positions(p.x);
  const auto w = e.gaussian_sum(p.alpha, p.sigma, 8.0);
  const auto targets = sample_targets(8000, 300);
  std::vector<Vec3d> exact, got;
  direct_gaussian(p.x, p.alpha, p.sigma, targets, exact);
  for (Index i : targets) got.push_back(w[static_cast<std::size_t>(i)]);
  EXPECT_LT(relative_l2_error(got, exact), 1e-12);  // e^{-8^2/2} is far below rounding
  // a tight cutoff visibly truncates
  const auto w2 = e.gaussian_sum(p.alpha, p.sigma, 1.0);
  got.clear();
  for (Index i : targets) got.push_back(w2[static_cast<std::size_t>(i)]);
  EXPECT_GT(relative_l2_error(got, exact), 1e-3);
}

TEST(FmmBiotSavart, EvaluatorRebuildsItsListsWhenSigmaChanges) {
  // The evaluator keeps its lists while the cells' largest sigma stay the same; a larger sigma moves pairs from
  // M2L to P2P (the guard), and the answer must be that of a fresh evaluator.
  const Index n = 3000;
  const auto x = make_positions(Distribution::cube, n, 41);
  const auto alpha = make_uniform_vectors(n, -1, 1, 42);
  const std::vector<double> small(static_cast<std::size_t>(n), 0.02), large(static_cast<std::size_t>(n), 0.3);
  Options o;
  o.order = 8;
  Evaluator e(o);
  e.set_positions(x);
  const auto a = e.biot_savart(alpha, small);
  const auto b = e.biot_savart(alpha, large);
  const auto c = e.biot_savart(alpha, small);
  const auto fresh = biot_savart(x, alpha, large, o);
  EXPECT_NE(a.stats.m2l_pairs, b.stats.m2l_pairs);
  EXPECT_EQ(a.stats.m2l_pairs, c.stats.m2l_pairs);
  EXPECT_EQ(b.stats.p2p_pairs, fresh.stats.p2p_pairs);
  EXPECT_LT(relative_l2_error(b.velocity, fresh.velocity), 1e-14);
  EXPECT_LT(relative_l2_error(c.velocity, a.velocity), 1e-14);
}

}  // namespace
}  // namespace loom::fmm
