// The resident evaluator (fmm/resident.hpp) in its CPU form (the backend tree, lists, re-fit and rebuild rule on
// thrust's host system): its sums against the host path (fmm::Evaluator with the host's tree) and the direct
// sum, after a build and after a re-fit; the rebuild rule; and the box moments summed where the bodies are
// (gpu/box_moments.hpp) against the host's detail::box_moments. test_resident_gpu.cpp runs the CUDA form.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

#include "fmm/sampled_error.hpp"
#include "loom/core/error.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/engine/periodic_images.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/fmm/gpu/box_moments.hpp"
#include "loom/fmm/resident.hpp"

namespace loom::fmm {
namespace {

constexpr core::Backend cpu = core::Backend::cpu;

struct Laplace {
  std::vector<double> phi;
  std::vector<Vec3d> grad;
};

Laplace resident_laplace(ResidentEvaluator& r, const std::vector<double>& q) {
  Laplace out{std::vector<double>(q.size()), std::vector<Vec3d>(q.size())};
  r.laplace(q.data(), out.phi.data(), out.grad.data());
  return out;
}

double direct_gradient_error(const std::vector<Vec3d>& x, const std::vector<double>& q, const Laplace& f) {
  return test::sampled_gradient_error(x, q, f.grad, 300);
}

TEST(ResidentCpu, LaplaceEqualsTheHostPathAndTheDirectSum) {
  const auto x = make_positions(Distribution::plummer, 4000, 3);
  const auto q = make_uniform(static_cast<Index>(x.size()), -1, 1, 4);
  Options o;
  o.ncrit = 32;
  ResidentEvaluator r(o);
  r.set_positions(x.data(), static_cast<Index>(x.size()));
  const Laplace a = resident_laplace(r, q);
  const LaplaceResult b = laplace(x, q, o);
  EXPECT_LT(relative_l2_error(a.grad, b.gradient), 1e-12);  // distinct coordinates: the host tree's cells
  EXPECT_LT(relative_l2_error(a.phi, b.potential), 1e-12);
  EXPECT_LT(direct_gradient_error(x, q, a), 1e-4);
  EXPECT_EQ(r.builds(), 1);
  EXPECT_GT(r.stats().m2l_pairs, 0);
}

// The error-target mode (accuracy_budget.hpp): the tree and passes take the budget's choice for the body count, and
// the gradient meets the target against the direct sum; turned off, the options' parameters come back.
TEST(ResidentCpu, ErrorTargetModeMeetsTheTarget) {
  const Index n = 30000;
  const auto x = make_positions(Distribution::cube, n, 13);
  const auto q = make_uniform(n, -1, 1, 14);
  Options o;
  o.order = 10;
  ResidentEvaluator r(o);
  r.set_error_target(1e-4);
  r.set_positions(x.data(), n);
  const BudgetChoice& c = r.budget();
  EXPECT_EQ(r.options().order, c.order);
  EXPECT_EQ(r.options().ncrit, c.ncrit);
  EXPECT_LT(c.order, 10);
  EXPECT_LT(direct_gradient_error(x, q, resident_laplace(r, q)), 1e-4) << describe(c);
  r.set_error_target(0);
  r.set_positions(x.data(), n);
  EXPECT_EQ(r.options().order, 10);
  EXPECT_LT(direct_gradient_error(x, q, resident_laplace(r, q)), 1e-6);  // p 10, theta 0.4: the defaults' accuracy
  EXPECT_THROW(r.set_error_target(1e-9), UsageError);
}

// Bodies moved a little: the re-fitted tree's sums equal a fresh tree's to the FMM's error, the growth bound
// is the re-fit's, and a limit below 1 rebuilds.
TEST(ResidentCpu, RefitWithinTheLimitAndRebuildPastIt) {
  const auto x0 = make_positions(Distribution::cube, 4000, 5);
  const auto shift = make_uniform_vectors(static_cast<Index>(x0.size()), -0.02, 0.02, 6);
  std::vector<Vec3d> x1(x0.size());
  for (std::size_t i = 0; i < x0.size(); ++i) x1[i] = x0[i] + shift[i];
  const auto q = make_uniform(static_cast<Index>(x0.size()), -1, 1, 9);
  Options o;
  o.ncrit = 32;
  ResidentEvaluator r(o);
  r.set_positions(x0.data(), static_cast<Index>(x0.size()));
  EXPECT_FALSE(r.move_positions(x1.data(), 10.0));
  EXPECT_EQ(r.builds(), 1);
  EXPECT_GT(r.growth(), 1.0);
  EXPECT_LT(r.growth(), 1.5);
  const Laplace refitted = resident_laplace(r, q);
  EXPECT_LT(direct_gradient_error(x1, q, refitted), 1e-4);
  const LaplaceResult fresh = laplace(x1, q, o);
  EXPECT_LT(relative_l2_error(refitted.grad, fresh.gradient), 1e-4);
  EXPECT_GT(relative_l2_error(refitted.grad, fresh.gradient), 0);  // another tree: not the same sums
  EXPECT_TRUE(r.move_positions(x0.data(), 0.5));  // a limit below 1: rebuilt every call
  EXPECT_EQ(r.builds(), 2);
  EXPECT_EQ(r.growth(), 1.0);
  const Laplace rebuilt = resident_laplace(r, q);
  EXPECT_LT(relative_l2_error(rebuilt.grad, laplace(x0, q, o).gradient), 1e-12);
}

// The rebuild rule of move_positions on Biot-Savart: bodies random-walked a fifth of a leaf's width per move.
// Re-fitted trees only (a rule that never rebuilds) keep the error against the direct sum within 1e-4 while
// their work grows; with max_cost 1.05 the evaluator re-fits while the last evaluation's work stayed within the
// factor of the fresh tree's and rebuilds right after one that passed it (both happen).
TEST(ResidentCpu, RefittedTreesKeepTheErrorAndTheRuleRebuildsPastTheWork) {
  const Index n = 4000;
  std::vector<Vec3d> x = make_positions(Distribution::cube, n, 21);  // [-1, 1)^3, leaves ~0.25 wide
  const auto alpha = make_uniform_vectors(n, -1, 1, 22);
  const std::vector<double> sigma(x.size(), 0.03);
  Options o;
  o.order = 8;
  o.theta = 0.5;
  o.ncrit = 32;
  ResidentEvaluator kept(o), ruled(o);
  kept.set_positions(x.data(), n);
  ruled.set_positions(x.data(), n);
  std::vector<Vec3d> u(x.size()), s(x.size()), exact_u, exact_s;
  kept.biot_savart(alpha.data(), sigma.data(), u.data(), s.data());
  ruled.biot_savart(alpha.data(), sigma.data(), u.data(), s.data());
  const auto targets = sample_targets(n, 300);
  int rebuilt = 0, refitted = 0;
  for (int move = 1; move <= 8; ++move) {
    const auto step = make_uniform_vectors(n, -0.05, 0.05, static_cast<std::uint64_t>(100 + move));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += step[i];
    EXPECT_FALSE(kept.move_positions(x.data(), 10.0));
    kept.biot_savart(alpha.data(), sigma.data(), u.data(), s.data());
    direct_biot_savart(x, alpha, sigma, targets, exact_u, exact_s);
    std::vector<Vec3d> mine_u, mine_s;
    for (Index t : targets) {
      mine_u.push_back(u[static_cast<std::size_t>(t)]);
      mine_s.push_back(s[static_cast<std::size_t>(t)]);
    }
    EXPECT_LT(relative_l2_error(mine_u, exact_u), 1e-4) << "move " << move;
    EXPECT_LT(relative_l2_error(mine_s, exact_s), 1e-4) << "move " << move;
    const double before = ruled.work_ratio();
    const bool rebuilds = ruled.move_positions(x.data(), 1.05);
    EXPECT_EQ(rebuilds, before > 1.05) << "move " << move << ", work ratio " << before;
    (rebuilds ? rebuilt : refitted) += 1;
    ruled.biot_savart(alpha.data(), sigma.data(), u.data(), s.data());
    if (rebuilds) {
      EXPECT_EQ(ruled.work_ratio(), 1.0);
    }
  }
  EXPECT_EQ(kept.builds(), 1);
  EXPECT_GT(kept.work_ratio(), 1.5);  // the re-fitted cells' work grew
  EXPECT_GE(rebuilt, 1);
  EXPECT_GE(refitted, 1);
  EXPECT_EQ(ruled.builds(), 1 + rebuilt);
  EXPECT_EQ(ruled.refits(), refitted);
}

// Periodic bodies moved a fifth of a leaf's width and wrapped back into the box as a stepper wraps them (a tenth
// cross a face). The re-fit keeps each crossed body, in the tree's copy, at its image beside its leaf (before the
// fourteenth session it put it on the far side, its leaf's radius spanning the box: P2P pairs 14.8x, M2L pairs
// 2.8x here, and at 1.68e7 particles the H200 ran out of memory; then a guard rebuilt at every crossing). The tree
// is kept (no rebuild), its work stays near a fresh tree's, and its sums equal a fresh tree's to the FMM's error.
struct CrossingMove {
  std::vector<Vec3d> x, unwrapped;  // after the move: wrapped into [-1, 1)^3, and not
  int crossed = 0;
};

CrossingMove move_across_faces(std::vector<Vec3d> x) {
  CrossingMove m;
  const auto step = make_uniform_vectors(static_cast<Index>(x.size()), -0.05, 0.05, 33);
  m.unwrapped = x;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (int d = 0; d < 3; ++d) {
      double v = x[i][d] + step[i][d];
      m.unwrapped[i][d] = v;
      if (v < -1 || v >= 1) ++m.crossed;
      v -= 2 * std::floor((v + 1) / 2);
      x[i][d] = v;
    }
  m.x = std::move(x);
  return m;
}

// Four image levels (the image cube 3^5 boxes wide): a crossed body's images are a cube about its own image, so
// the sums depend on which image the tree holds by the truncation of that cube, relative (L / cube)^2: at two
// levels the re-fitted tree's error against p 14 was 6.4e-5 against a fresh tree's 1.3e-5 here, at three 1.4e-5,
// at four and six 1.2e-5 (the vortex runs' default is 6).
Options crossing_options() {
  Options o;
  o.order = 8;
  o.theta = 0.5;
  o.ncrit = 32;
  o.image_levels = 4;
  o.periodic = true;
  o.period = 2;
  o.box_lower = {-1, -1, -1};
  return o;
}

// The velocities after a build on x0 and the re-fit to the crossing move, and a fresh tree's on the moved bodies.
struct RefitAndFresh {
  std::vector<Vec3d> refit, fresh;
  Statistics built, moved;
  bool rebuilt = true;
  int refits = 0;
};

RefitAndFresh refit_and_fresh(const std::vector<Vec3d>& x0, const CrossingMove& m, const std::vector<Vec3d>& alpha,
                              const std::vector<double>& sigma) {
  const Options o = crossing_options();
  const auto n = static_cast<Index>(x0.size());
  ResidentEvaluator r(o);
  r.set_positions(x0.data(), n);
  RefitAndFresh f{std::vector<Vec3d>(x0.size()), {}, {}, {}};
  std::vector<Vec3d> s(x0.size());
  r.biot_savart(alpha.data(), sigma.data(), f.refit.data(), s.data());
  f.built = r.stats();
  f.rebuilt = r.move_positions(m.x.data(), 10.0);
  f.refits = r.refits();
  r.biot_savart(alpha.data(), sigma.data(), f.refit.data(), s.data());
  f.moved = r.stats();
  f.fresh = biot_savart(m.x, alpha, sigma, o).velocity;
  return f;
}

// Random strengths less their mean: sum alpha = 0, as periodic sums need.
std::vector<Vec3d> neutral_strengths(Index n) {
  auto alpha = make_uniform_vectors(n, -1, 1, 32);
  Vec3d mean{};
  for (const Vec3d& a : alpha) mean += a;
  for (Vec3d& a : alpha) a -= (1.0 / static_cast<double>(n)) * mean;
  return alpha;
}

TEST(ResidentCpu, PeriodicRefitKeepsBodiesThatCrossedAFaceBesideTheirLeaves) {
  const Index n = 4000;
  const auto x0 = make_positions(Distribution::cube, n, 31);  // [-1, 1)^3
  const auto alpha = neutral_strengths(n);
  const std::vector<double> sigma(x0.size(), 0.03);
  const CrossingMove m = move_across_faces(x0);
  EXPECT_GT(m.crossed, 50);
  const RefitAndFresh f = refit_and_fresh(x0, m, alpha, sigma);
  EXPECT_FALSE(f.rebuilt);
  EXPECT_EQ(f.refits, 1);
  EXPECT_LT(double(f.moved.p2p_pairs) / double(f.built.p2p_pairs), 1.2);
  EXPECT_LT(double(f.moved.m2l_pairs) / double(f.built.m2l_pairs), 1.2);
  EXPECT_LT(f.moved.p2p_interactions / f.built.p2p_interactions, 1.2);
  // both trees against a reference at p 14, theta 0.3
  Options fine = crossing_options();
  fine.order = 14;
  fine.theta = 0.3;
  const std::vector<Vec3d> reference = biot_savart(m.x, alpha, sigma, fine).velocity;
  const double e_refit = relative_l2_error(f.refit, reference), e_fresh = relative_l2_error(f.fresh, reference);
  std::printf("crossed %d: error against p 14: re-fitted %.2e, fresh %.2e\n", m.crossed, e_refit, e_fresh);
  EXPECT_LT(e_fresh, 1e-4);
  EXPECT_LT(e_refit, 1.5 * e_fresh);  // two image levels fail this (5.1x)
}

// Why the stepper neutralises (vortex/neutral.hpp): with sum alpha = Q != 0 the cube-order sums add the field of
// a uniform vorticity Q / V filling the image cube, the rotation u = Q x (x - c) / (3 V), which is not periodic in
// the target: the re-fitted tree, holding a crossed body at x + L e beside its leaf, gives it a velocity that
// differs from the fresh tree's (the body at x) by Q x (L e) / (3 V). The sources' shifts cancel (the tinfoil
// term follows the dipole), so only the targets' images differ: checked here body by body.
TEST(ResidentCpu, PeriodicSumsOfANetVorticityRotateAboutTheBoxCentre) {
  const Index n = 4000;
  const auto x0 = make_positions(Distribution::cube, n, 31);
  auto alpha = make_uniform_vectors(n, -1, 1, 32);
  const Vec3d q_mean{0.3, -0.2, 0.1};
  for (Vec3d& a : alpha) a += q_mean;
  const std::vector<double> sigma(x0.size(), 0.03);
  const CrossingMove m = move_across_faces(x0);
  const RefitAndFresh f = refit_and_fresh(x0, m, alpha, sigma);
  EXPECT_FALSE(f.rebuilt);
  Vec3d total{};
  for (const Vec3d& a : alpha) total += a;
  double jump = 0, rest = 0, velocity = 0;
  for (std::size_t i = 0; i < m.x.size(); ++i) {
    const Vec3d predicted = (1.0 / (3 * 8.0)) * cross(total, m.unwrapped[i] - m.x[i]);  // V = 2^3
    jump += norm2(predicted);
    rest += norm2(f.refit[i] - f.fresh[i] - predicted);
    velocity += norm2(f.fresh[i]);
  }
  std::printf("net vorticity: |jump| %.3e, |refit - fresh - jump| %.3e, |u| %.3e\n", std::sqrt(jump),
              std::sqrt(rest), std::sqrt(velocity));
  EXPECT_GT(std::sqrt(jump), 0.1 * std::sqrt(velocity));  // far above the FMM's error
  EXPECT_LT(std::sqrt(rest), 1e-4 * std::sqrt(velocity));
}

// A body that jumps across the box would spread its leaf over it: the re-fit rebuilds at once, whatever max_cost.
TEST(ResidentCpu, RefitRebuildsWhenALeafWouldSpanTheBodies) {
  const Index n = 4000;
  auto x = make_positions(Distribution::cube, n, 41);  // [-1, 1)^3
  Options o;
  o.ncrit = 32;
  ResidentEvaluator r(o);
  r.set_positions(x.data(), n);
  x[7] = -1.0 * x[7];  // through the centre to the other side
  x[7].x = x[7].x > 0 ? 0.99 : -0.99;
  EXPECT_TRUE(r.move_positions(x.data(), 10.0));
  EXPECT_EQ(r.builds(), 2);
  EXPECT_EQ(r.refits(), 0);
  for (Vec3d& v : x) v = 0.999 * v;  // a small move: re-fitted
  EXPECT_FALSE(r.move_positions(x.data(), 10.0));
  EXPECT_EQ(r.refits(), 1);
}

TEST(ResidentCpu, PeriodicBiotSavartEqualsTheHostPath) {
  auto x = make_positions(Distribution::cube, 1500, 7);  // [-1, 1)^3
  auto alpha = make_uniform_vectors(static_cast<Index>(x.size()), -1, 1, 8);
  Vec3d mean{};
  for (const Vec3d& a : alpha) mean += a;
  for (Vec3d& a : alpha) a -= (1.0 / static_cast<double>(alpha.size())) * mean;  // sum alpha = 0
  const std::vector<double> sigma(x.size(), 0.08);
  Options o;  // equality with the host path needs no accuracy: a low order, few image levels
  o.order = 5;
  o.image_levels = 2;
  o.ncrit = 32;
  o.periodic = true;
  o.period = 2;
  o.box_lower = {-1, -1, -1};
  ResidentEvaluator r(o);
  r.set_positions(x.data(), static_cast<Index>(x.size()));
  std::vector<Vec3d> u(x.size()), s(x.size());
  r.biot_savart(alpha.data(), sigma.data(), u.data(), s.data());
  const BiotSavartResult b = biot_savart(x, alpha, sigma, o);
  EXPECT_LT(relative_l2_error(u, b.velocity), 1e-12);
  EXPECT_LT(relative_l2_error(s, b.stretching), 1e-12);
  x[5] = {1.5, 0, 0};
  EXPECT_THROW(r.set_positions(x.data(), static_cast<Index>(x.size())), UsageError);
}

TEST(ResidentCpu, BoxMomentsWhereTheBodiesAreEqualTheHosts) {
  const auto x = make_positions(Distribution::cube, 5000, 12);
  const auto alpha = make_uniform_vectors(static_cast<Index>(x.size()), -1, 1, 13);
  Options o;
  o.order = 8;
  o.periodic = true;
  o.period = 2;
  o.box_lower = {-1, -1, -1};
  detail::TreeData t;
  t.tree = Tree(x, 64);
  t.pos = core::Array<Vec3d>::from(std::span<const Vec3d>(t.tree.positions()));
  const auto n = static_cast<std::size_t>(x.size());
  std::vector<double> q(3 * n);  // tree order, component-major
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) q[c * n + i] = alpha[static_cast<std::size_t>(t.tree.order()[i])][c];
  const auto strength = core::Array<double>::from(std::span<const double>(q));
  const detail::BoxMoments host = detail::box_moments(o, t, 3, strength);
  const detail::BoxMoments mine = gpu::box_moments_on(cpu, o, static_cast<Index>(n), t.tree.positions().data(),
                                                      q.data(), 3);
  ASSERT_EQ(host.multipole.size(), mine.multipole.size());
  ASSERT_EQ(host.multipole.size(), static_cast<std::size_t>(3 * term_count(detail::image_order(o))));
  double diff = 0, size = 0;
  for (std::size_t k = 0; k < host.multipole.size(); ++k) {
    const Complex<double> d = host.multipole[k] - mine.multipole[k], h = host.multipole[k];
    diff += d.re * d.re + d.im * d.im;
    size += h.re * h.re + h.im * h.im;
  }
  EXPECT_LT(diff, 1e-24 * size);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(mine.second[c], host.second[c], 1e-12 * std::abs(host.second[c]));
}

// A coherent drift carries whole leaves out of the box (the re-fit keeps crossed bodies beside their leaves) with
// the work unchanged, so the rule would never rebuild; the far images' expansions about the box centre then lose
// accuracy (without the guard: error 1.2e-5 after a drift of 0.1, 1.1e-4 after 0.4, 1.3e-3 after 0.6, in a box of
// 2). The re-fit rebuilds once a body lies more than a tenth of the period outside the box.
TEST(ResidentCpu, PeriodicRefitRebuildsWhenTheTreeDriftsOutOfTheBox) {
  const Index n = 4000;
  const auto x0 = make_positions(Distribution::cube, n, 31);  // [-1, 1)^3
  const auto alpha = neutral_strengths(n);
  const std::vector<double> sigma(x0.size(), 0.03);
  const Options o = crossing_options();
  Options fine = o;
  fine.order = 14;
  fine.theta = 0.3;
  for (const double drift : {0.1, 0.4}) {
    ResidentEvaluator r(o);
    r.set_positions(x0.data(), n);
    std::vector<Vec3d> x = x0, u(x0.size()), s(x0.size());
    r.biot_savart(alpha.data(), sigma.data(), u.data(), s.data());
    bool rebuilt = false;
    for (int k = 1; k <= 4; ++k) {  // in four moves, along (1, 0.5, 0.5)
      for (std::size_t i = 0; i < x.size(); ++i)
        for (int d = 0; d < 3; ++d) {
          const double v = x0[i][d] + drift * k / 4 * (d == 0 ? 1.0 : 0.5);
          x[i][d] = v - 2 * std::floor((v + 1) / 2);
        }
      rebuilt = r.move_positions(x.data(), 10.0) || rebuilt;
      r.biot_savart(alpha.data(), sigma.data(), u.data(), s.data());
    }
    const double e = relative_l2_error(u, biot_savart(x, alpha, sigma, fine).velocity);
    std::printf("drift %.1f: rebuilt %d, error against p 14 %.2e\n", drift, int(rebuilt), e);
    EXPECT_EQ(rebuilt, drift > 0.2);
    EXPECT_LT(e, 2e-5);
  }
}

}  // namespace
}  // namespace loom::fmm
