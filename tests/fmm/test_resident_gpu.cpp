// The resident evaluator's CUDA form (fmm/resident.hpp) against its CPU form and the direct sum: Laplace and
// periodic Biot-Savart after a build and after a re-fit (bodies wrapped across the faces, kept beside their leaves), with no body-sized copy crossing the bus in any call;
// and issue 21's targets from bodies on the device to results on the device, tree build included (printed as
// "resident:" lines for scripts/gpu-vortex.sh and scripts/gpu-fmmfast.sh), Laplace also at the accuracy budget's
// choice for 1e-4. Skips without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "backends.hpp"
#include "fmm/sampled_error.hpp"
#include "loom/core/array.hpp"
#include "loom/core/timer.hpp"
#include "loom/fmm/accuracy_budget.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/resident.hpp"

namespace loom::fmm {
namespace {

constexpr core::Backend cuda_backend = core::Backend::cuda;
constexpr core::Where dev = core::Where::device;

class ResidentGpu : public ::testing::Test {
  void SetUp() override { loom::test::skip_unless_available(cuda_backend); }
};

template <class T>
core::Array<T> on_device(const std::vector<T>& v) {
  core::Array<T> a = core::Array<T>::from(std::span<const T>(v));
  a.read(dev);
  return a;
}

template <class T>
std::vector<T> to_host(const core::Array<T>& a) {
  const auto s = a.host();
  return {s.begin(), s.end()};
}

struct Fields {
  std::vector<double> phi;
  std::vector<Vec3d> a, b;  // gradient, or velocity and stretching
  Statistics stats;
};

// The evaluator over bodies x (moved to x1 when given), on backend b; Laplace with q or Biot-Savart with alpha.
Fields evaluate_on(core::Backend b, const Options& base, const std::vector<Vec3d>& x, const std::vector<Vec3d>* x1,
                   const std::vector<double>* q, const std::vector<Vec3d>* alpha, const std::vector<double>* sigma,
                   BusTraffic* bus) {
  Options o = base;
  o.backend = b;
  const core::Where w = b == cuda_backend ? dev : core::Where::host;
  const auto n = static_cast<Index>(x.size());
  ResidentEvaluator r(o);
  auto xs = on_device(x);
  r.set_positions(xs.read(w), n);
  if (x1 != nullptr) {
    auto moved = on_device(*x1);
    EXPECT_FALSE(r.move_positions(moved.read(w), 10.0));
    xs = std::move(moved);
  }
  core::Array<double> phi(x.size());
  core::Array<Vec3d> f(x.size()), g(x.size());
  if (q != nullptr) {
    auto qs = on_device(*q);
    r.laplace(qs.read(w), phi.write(w), f.write(w));
    return {to_host(phi), to_host(f), {}, r.stats()};
  }
  auto as = on_device(*alpha);
  auto ss = on_device(*sigma);
  r.biot_savart(as.read(w), ss.read(w), f.write(w), g.write(w));
  if (bus != nullptr) *bus = r.bus();
  return {{}, to_host(f), to_host(g), r.stats()};
}

TEST_F(ResidentGpu, LaplaceEqualsTheCpuFormAndTheDirectSum) {
  const auto x = make_positions(Distribution::plummer, 200000, 3);
  const auto q = make_uniform(static_cast<Index>(x.size()), -1, 1, 4);
  Options o;
  const Fields d = evaluate_on(cuda_backend, o, x, nullptr, &q, nullptr, nullptr, nullptr);
  const Fields h = evaluate_on(core::Backend::cpu, o, x, nullptr, &q, nullptr, nullptr, nullptr);
  EXPECT_LT(relative_l2_error(d.a, h.a), 1e-5);
  EXPECT_LT(test::sampled_gradient_error(x, q, d.a, 300), 1e-4);
}

TEST_F(ResidentGpu, PeriodicBiotSavartAfterARefitEqualsTheCpuFormWithoutBodySizedCopies) {
  const auto x = make_positions(Distribution::cube, 300000, 7);
  auto x1 = x;
  const auto shift = make_uniform_vectors(static_cast<Index>(x.size()), -0.003, 0.003, 9);
  for (std::size_t i = 0; i < x.size(); ++i)
    for (int c = 0; c < 3; ++c) {  // wrapped into the box as the vortex stepper does: some cross a face
      const double v = x[i][c] + shift[i][c];
      x1[i][c] = v - 2 * std::floor((v + 1) / 2);
    }
  auto alpha = make_uniform_vectors(static_cast<Index>(x.size()), -1, 1, 8);
  Vec3d mean{};
  for (const Vec3d& a : alpha) mean += a;
  for (Vec3d& a : alpha) a -= (1.0 / static_cast<double>(alpha.size())) * mean;
  const std::vector<double> sigma(x.size(), 0.03);
  Options o;
  o.periodic = true;
  o.period = 2;
  o.box_lower = {-1, -1, -1};
  BusTraffic bus;
  const Fields d = evaluate_on(cuda_backend, o, x, &x1, nullptr, &alpha, &sigma, &bus);
  const Fields h = evaluate_on(core::Backend::cpu, o, x, &x1, nullptr, &alpha, &sigma, nullptr);
  EXPECT_LT(relative_l2_error(d.a, h.a), 1e-5);
  EXPECT_LT(relative_l2_error(d.b, h.b), 1e-5);
  // the rebuild rule's counts: the same lists on both sides (the device sums the near field's body pairs), up to
  // pairs at the acceptance test's edge (the cells' radii are reduced in another order there)
  EXPECT_GT(d.stats.p2p_interactions, 0);
  EXPECT_NEAR(d.stats.p2p_interactions / h.stats.p2p_interactions, 1, 1e-3);
  EXPECT_NEAR(double(d.stats.m2l_pairs) / double(h.stats.m2l_pairs), 1, 1e-3);
  std::printf("resident bus: %zu copies, %zu bytes, largest %zu (n = %zu)\n", bus.copies, bus.bytes, bus.largest,
              x.size());
  EXPECT_LT(bus.largest, x.size() * sizeof(double) / 8);  // no body-sized copy: only counts and small records
  EXPECT_LT(bus.copies, 100u);
}

// Issue 21's targets: uniform bodies in [-1, 1)^3 on the device, results on the device, the tree built in the
// timed call; the best of three after a warm-up.
struct Target {
  double seconds = 1e300, error = 0;
  Timings time;
};

// error_target > 0: the evaluator's error-target mode (its choice printed).
Target laplace_target(Index n, const Options& o, double error_target = 0) {
  const auto x = make_positions(Distribution::cube, n, 21);
  const auto q = make_uniform(n, -1, 1, 22);
  auto xs = on_device(x);
  auto qs = on_device(q);
  core::Array<double> phi(x.size());
  core::Array<Vec3d> grad(x.size());
  Target t;
  ResidentEvaluator r(o);
  r.set_error_target(error_target);
  for (int k = 0; k < 4; ++k) {
    core::Stopwatch watch(cuda_backend);
    watch.start();
    r.set_positions(xs.read(dev), n);
    r.laplace(qs.read(dev), phi.write(dev), grad.write(dev));
    const double s = watch.stop();
    if (k > 0 && s < t.seconds) {
      t.seconds = s;
      t.time = r.time();
    }
  }
  if (error_target > 0) std::printf("budget: %s\n", describe(r.budget()).c_str());
  t.error = test::sampled_gradient_error(x, q, grad.host(), 300);
  return t;
}

Target biot_savart_target(Index n, const Options& o) {
  const auto x = make_positions(Distribution::cube, n, 31);
  const auto alpha = make_uniform_vectors(n, -1, 1, 32);
  const std::vector<double> sigma(x.size(), 2.0 / std::cbrt(static_cast<double>(n)));
  auto xs = on_device(x);
  auto as = on_device(alpha);
  auto ss = on_device(sigma);
  core::Array<Vec3d> u(x.size()), s(x.size());
  Target t;
  ResidentEvaluator r(o);
  for (int k = 0; k < 3; ++k) {
    core::Stopwatch watch(cuda_backend);
    watch.start();
    r.set_positions(xs.read(dev), n);
    r.biot_savart(as.read(dev), ss.read(dev), u.write(dev), s.write(dev));
    const double sec = watch.stop();
    if (k > 0 && sec < t.seconds) {
      t.seconds = sec;
      t.time = r.time();
    }
  }
  const auto targets = sample_targets(n, 100);
  std::vector<Vec3d> ue, se, mine;
  direct_biot_savart(x, alpha, sigma, targets, ue, se);
  const auto uh = u.host();
  for (Index i : targets) mine.push_back(uh[static_cast<std::size_t>(i)]);
  t.error = relative_l2_error(mine, ue);
  return t;
}

void print(const char* name, const Target& t, double limit) {
  std::printf("resident: %-28s %9.4f s (limit %.3f) error %.2e | build %.4f lists %.4f up %.4f m2l %.4f down %.4f "
              "p2p %.4f gather/scatter %.4f\n",
              name, t.seconds, limit, t.error, t.time.build, t.time.traversal, t.time.upward, t.time.m2l,
              t.time.downward, t.time.p2p, t.time.transfer);
}

TEST_F(ResidentGpu, LaplaceTargetFromDeviceBodiesToDeviceResults) {
  Options o;
  o.backend = cuda_backend;
  o.order = 8;
  o.theta = 0.5;
  const Target l = laplace_target(1000000, o);
  print("laplace 1e6 p8 theta0.5", l, 0.020);
  EXPECT_LT(l.error, 1e-4);
  // the error-target mode: the accuracy budget's cheapest parameters for the target's 1e-4 (accuracy_budget.hpp)
  const Target b = laplace_target(1000000, o, 1e-4);
  print("laplace 1e6 budget 1e-4", b, 0.020);
  EXPECT_LT(b.error, 1e-4);
}

// Rows of the accuracy budget's table on the H200 at 1e6 bodies: the measured error within twice the table's (the
// CPU's error scaled to 1e6; single precision adds ~1e-6), the time next to the cost model's; and the budget's
// choice with the compensated P2P (precision single) next to its choice's single-fast.
TEST_F(ResidentGpu, LaplaceBudgetRowsAtOneMillion) {
  struct Row {
    int order;
    double theta;
    int ncrit;
  };
  const Index n = 1000000;
  Options o;
  o.backend = cuda_backend;
  for (const Row& r : {Row{8, 0.6, 64}, Row{8, 0.65, 64}, Row{7, 0.55, 64}, Row{7, 0.5, 64}, Row{8, 0.55, 32},
                       Row{7, 0.5, 32}, Row{8, 0.6, 128}, Row{6, 0.5, 64}}) {
    o.order = r.order;
    o.theta = r.theta;
    o.ncrit = r.ncrit;
    const Target t = laplace_target(n, o);
    const double predicted = table_error(r.order, r.theta, r.ncrit, n);
    std::printf("budget row: p %d theta %.2f ncrit %3d: %.4f s (model lists+kernels %.4f) error %.2e (table %.2e) | "
                "build %.4f lists %.4f up %.4f m2l %.4f down %.4f p2p %.4f\n",
                r.order, r.theta, r.ncrit, t.seconds, model_seconds(r.order, r.theta, r.ncrit, n), t.error, predicted,
                t.time.build, t.time.traversal, t.time.upward, t.time.m2l, t.time.downward, t.time.p2p);
    EXPECT_LT(t.error, 2 * predicted + 2e-6);
  }
  const BudgetChoice c = choose_for_error(1e-4, n);
  o = with_choice(o, c);
  o.precision = c.precision == Precision::single ? Precision::single_fast : Precision::single;
  const Target f = laplace_target(n, o);
  std::printf("budget row: p %d theta %.2f ncrit %3d %s: %.4f s error %.2e | p2p %.4f\n", o.order, o.theta,
              o.ncrit, std::string(to_string(o.precision)).c_str(), f.seconds, f.error, f.time.p2p);
  EXPECT_LT(f.error, 1e-4);
}

// The accuracy budget's errors against the evaluator's at 1e6 bodies: single-fast P2P (as the budget runs it),
// three sets of uniform bodies and charges, 1000 sampled targets against direct sums, the rows around the 1e-4
// choice; each error below the budget's (budget_error, the CPU's table at 1e5 scaled to 1e6).
TEST_F(ResidentGpu, LaplaceErrorsOverSeedsAtOneMillion) {
  struct Row {
    int order;
    double theta;
    int ncrit;
  };
  const Index n = 1000000;
  // ncrit 32 at theta 0.5: the rows whose growth from 1e5 to 1e6 the CPU measured (x1.78 at p 8, x1.60 at p 7)
  const Row rows[] = {{8, 0.55, 64}, {8, 0.6, 64},  {8, 0.65, 64},  {8, 0.7, 64}, {7, 0.55, 64},
                      {7, 0.6, 64},  {8, 0.6, 128}, {8, 0.65, 128}, {8, 0.7, 128}, {8, 0.6, 32},
                      {8, 0.65, 32}, {8, 0.5, 32},  {7, 0.5, 32}};
  for (std::uint64_t seed : {21, 41, 61}) {
    const auto x = make_positions(Distribution::cube, n, seed);
    const auto q = make_uniform(n, -1, 1, seed + 1);
    const auto targets = sample_targets(n, 1000);
    std::vector<double> phi;
    std::vector<Vec3d> exact;
    direct_laplace(x, q, targets, phi, exact);
    auto xs = on_device(x);
    auto qs = on_device(q);
    core::Array<double> potential(x.size());
    core::Array<Vec3d> gradient(x.size());
    for (const Row& r : rows) {
      Options o;
      o.backend = cuda_backend;
      o.order = r.order;
      o.theta = r.theta;
      o.ncrit = r.ncrit;
      o.precision = Precision::single_fast;
      ResidentEvaluator e(o);
      e.set_positions(xs.read(dev), n);
      e.laplace(qs.read(dev), potential.write(dev), gradient.write(dev));
      const auto g = gradient.host();
      std::vector<Vec3d> mine;
      for (Index t : targets) mine.push_back(g[static_cast<std::size_t>(t)]);
      const double error = relative_l2_error(mine, exact);
      const double budget = budget_error(r.order, r.theta, r.ncrit, n, o.precision);
      std::printf("error row: seed %2d p %d theta %.2f ncrit %3d single-fast: error %.3e (budget %.3e, table at 1e5 "
                  "%.3e, ratio %.2f) first call %.4f s\n",
                  static_cast<int>(seed), r.order, r.theta, r.ncrit, error, budget,
                  table_error(r.order, r.theta, r.ncrit, 100000), error / table_error(r.order, r.theta, r.ncrit, 100000),
                  e.time().build + e.time().call);
      EXPECT_LT(error, budget);
    }
  }
}

TEST_F(ResidentGpu, BiotSavartTargetFromDeviceBodiesToDeviceResults) {
  Options o;
  o.backend = cuda_backend;
  o.order = 8;
  o.theta = 0.6;
  const Target b = biot_savart_target(16777216, o);
  print("biot-savart 1.68e7 p8 th0.6", b, 1.2);
  EXPECT_LT(b.error, 1e-4);
}

}  // namespace
}  // namespace loom::fmm
