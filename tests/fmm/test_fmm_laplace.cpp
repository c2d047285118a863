// The Laplace FMM (src/loom/fmm/fmm.hpp, evaluator.cpp) on the CPU against direct summation (direct.*) on uniform,
// spherical shell and Plummer bodies: relative L2 errors of potential and gradient small at p = 10, falling as p grows,
// independent of the leaf size; tiny inputs; and a body's own charge never acting on it.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "loom/core/error.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/expansions/harmonics.hpp"
#include "loom/fmm/fmm.hpp"

namespace loom::fmm {
namespace {

struct Errors {
  double potential, gradient;
};

Errors errors(const std::vector<Vec3d>& x, const std::vector<double>& q, const LaplaceResult& r, Index samples) {
  const auto targets = sample_targets(static_cast<Index>(x.size()), samples);
  std::vector<double> phi, fphi;
  std::vector<Vec3d> grad, fgrad;
  direct_laplace(x, q, targets, phi, grad);
  for (Index i : targets) {
    fphi.push_back(r.potential[static_cast<std::size_t>(i)]);
    fgrad.push_back(r.gradient[static_cast<std::size_t>(i)]);
  }
  return {relative_l2_error(fphi, phi), relative_l2_error(fgrad, grad)};
}

TEST(FmmLaplace, AgreesWithDirectSumOnEachDistribution) {
  for (auto d : {Distribution::cube, Distribution::sphere, Distribution::plummer}) {
    SCOPED_TRACE(std::string(to_string(d)));
    const Index n = 12000;
    const auto x = make_positions(d, n, 31);
    const auto q = make_uniform(n, -1, 1, 32);
    Options o;
    o.order = 10;
    o.theta = 0.4;
    const auto r = laplace(x, q, o);
    const Errors e = errors(x, q, r, 400);
    EXPECT_LT(e.potential, 1e-6);
    EXPECT_LT(e.gradient, 1e-6);
    EXPECT_GT(r.stats.m2l_pairs, 0);
    EXPECT_GT(r.stats.p2p_pairs, 0);
    EXPECT_EQ(r.stats.bodies, n);
    std::printf("[ %s ] p 10 theta 0.4: potential error %.2e, gradient error %.2e\n", std::string(to_string(d)).c_str(),
                e.potential, e.gradient);
  }
}

TEST(FmmLaplace, ErrorFallsWithOrder) {
  const Index n = 8000;
  const auto x = make_positions(Distribution::cube, n, 33);
  const auto q = make_uniform(n, -1, 1, 34);
  Errors previous{1, 1};
  for (int p : {3, 5, 7, 9, 11, 13}) {
    Options o;
    o.order = p;
    o.theta = 0.5;
    Evaluator e(o);
    e.set_positions(x);
    const Errors err = errors(x, q, e.laplace(q), 300);
    std::printf("p %2d: potential %.2e gradient %.2e\n", p, err.potential, err.gradient);
    // theta = 0.5: each two orders gain at least a factor 3 (the bound's theta^2 = 1/4 with slack)
    EXPECT_LT(err.potential, previous.potential / 3) << "p = " << p;
    EXPECT_LT(err.gradient, previous.gradient / 3) << "p = " << p;
    previous = err;
  }
  EXPECT_LT(previous.gradient, 1e-7);
}

TEST(FmmLaplace, LeafSizeAndThetaDoNotChangeTheAnswer) {
  const Index n = 6000;
  const auto x = make_positions(Distribution::plummer, n, 35);
  const auto q = make_uniform(n, -1, 1, 36);
  Options a;
  a.order = 12;
  a.ncrit = 8;
  a.theta = 0.3;
  Options b = a;
  b.ncrit = 200;
  b.theta = 0.5;
  const auto ra = laplace(x, q, a), rb = laplace(x, q, b);
  EXPECT_LT(relative_l2_error(ra.gradient, rb.gradient), 1e-6);
  EXPECT_LT(relative_l2_error(ra.potential, rb.potential), 1e-6);
  EXPECT_NE(ra.stats.leaves, rb.stats.leaves);
}

TEST(FmmLaplace, TinyInputsAreExact) {
  Options o;
  o.order = 4;
  const std::vector<Vec3d> one{{0.1, 0.2, 0.3}};
  const auto r1 = laplace(one, std::vector<double>{2.0}, o);
  EXPECT_EQ(r1.potential[0], 0.0);  // no self interaction
  EXPECT_EQ(r1.gradient[0].x, 0.0);
  const std::vector<Vec3d> two{{0, 0, 0}, {0, 0, 2}};
  const auto r2 = laplace(two, std::vector<double>{1.0, 3.0}, o);
  EXPECT_DOUBLE_EQ(r2.potential[0], 1.5);
  EXPECT_DOUBLE_EQ(r2.potential[1], 0.5);
  EXPECT_DOUBLE_EQ(r2.gradient[0].z, 0.75);   // d/dz 3/|z - 2| at z = 0
  EXPECT_DOUBLE_EQ(r2.gradient[1].z, -0.25);  // d/dz 1/|z| at z = 2
  const auto r0 = laplace(std::vector<Vec3d>{}, std::vector<double>{}, o);
  EXPECT_TRUE(r0.potential.empty());
}

TEST(FmmLaplace, EvaluatorReusesTheTree) {
  const Index n = 3000;
  const auto x = make_positions(Distribution::sphere, n, 37);
  Options o;
  o.order = 8;
  Evaluator e(o);
  e.set_positions(x);
  const auto q1 = make_uniform(n, -1, 1, 38), q2 = make_uniform(n, 0, 1, 39);
  const auto a = e.laplace(q1), b = e.laplace(q2);
  const auto b_fresh = laplace(x, q2, o);
  EXPECT_EQ(b.potential, b_fresh.potential);  // the same tree and lists give the same numbers
  EXPECT_NE(a.potential, b.potential);
  EXPECT_LT(errors(x, q2, b, 200).gradient, 1e-4);
}

TEST(FmmLaplace, ResultsDoNotDependOnTheThreadCount) {
  const Index n = 20000;
  auto x = make_positions(Distribution::plummer, n, 40);
  for (auto& p : x) p = 0.999 * Vec3d{std::tanh(p.x), std::tanh(p.y), std::tanh(p.z)};  // into the periodic box
  auto q = make_uniform(n, -1, 1, 41);
  double mean = 0;
  for (double v : q) mean += v / double(n);
  for (double& v : q) v -= mean;
  Options o;
  o.order = 8;
  o.ncrit = 16;
  Options periodic = o;
  periodic.periodic = true;
  periodic.period = 2;
  periodic.box_lower = {-1, -1, -1};
  const int threads = omp_get_max_threads();
  for (const Options& options : {o, periodic}) {
    omp_set_num_threads(1);
    const auto one = laplace(x, q, options);
    omp_set_num_threads(std::max(2, threads));
    const auto many = laplace(x, q, options);
    omp_set_num_threads(threads);
    EXPECT_EQ(one.potential, many.potential);
    for (Index i = 0; i < n; i += 97)
      EXPECT_EQ(one.gradient[static_cast<std::size_t>(i)].y, many.gradient[static_cast<std::size_t>(i)].y);
  }
}

TEST(FmmLaplace, OptionsAreValidated) {
  Options o;
  o.order = 0;
  EXPECT_THROW(validate(o), UsageError);
  o.order = max_order + 1;
  EXPECT_THROW(validate(o), UsageError);
  o = {};
  o.theta = 1.0;
  EXPECT_THROW(validate(o), UsageError);
  o = {};
  o.m2l_block = 3;
  EXPECT_THROW(validate(o), UsageError);
  o.m2l_block = 4;
  EXPECT_NO_THROW(validate(o));
  o = {};
  o.periodic = true;
  EXPECT_THROW(validate(o), UsageError);  // no period
  o.period = 1;
  Evaluator e(o);
  EXPECT_THROW(e.set_positions(std::vector<Vec3d>{{0.5, 0.5, 1.5}}), UsageError);  // outside the box
}

}  // namespace
}  // namespace loom::fmm
