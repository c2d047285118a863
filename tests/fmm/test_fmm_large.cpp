// Larger FMM runs against direct summation (label slow), on the CPU: 2e5 Plummer bodies for Laplace at p = 12
// and 1e5 uniform particles for Biot-Savart at p = 12.
#include <gtest/gtest.h>

#include <vector>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/fmm.hpp"

namespace loom::fmm {
namespace {

TEST(FmmLarge, LaplacePlummer) {
  const Index n = 200000;
  const auto x = make_positions(Distribution::plummer, n, 101);
  const auto q = make_uniform(n, -1, 1, 102);
  Options o;
  o.order = 12;
  o.theta = 0.5;
  const auto r = laplace(x, q, o);
  const auto t = sample_targets(n, 500);
  std::vector<double> phi, fphi;
  std::vector<Vec3d> grad, fgrad;
  direct_laplace(x, q, t, phi, grad);
  for (Index i : t) {
    fphi.push_back(r.potential[static_cast<std::size_t>(i)]);
    fgrad.push_back(r.gradient[static_cast<std::size_t>(i)]);
  }
  EXPECT_LT(relative_l2_error(fphi, phi), 1e-7);
  EXPECT_LT(relative_l2_error(fgrad, grad), 1e-7);
}

TEST(FmmLarge, BiotSavartCube) {
  const Index n = 100000;
  const auto x = make_positions(Distribution::cube, n, 103);
  const auto alpha = make_uniform_vectors(n, -1, 1, 104);
  const std::vector<double> sigma(static_cast<std::size_t>(n), 2.0 / 46.4);  // the particle spacing
  Options o;
  o.order = 12;
  o.theta = 0.5;
  const auto r = biot_savart(x, alpha, sigma, o);
  const auto t = sample_targets(n, 200);
  std::vector<Vec3d> u, s, fu, fs;
  direct_biot_savart(x, alpha, sigma, t, u, s);
  for (Index i : t) {
    fu.push_back(r.velocity[static_cast<std::size_t>(i)]);
    fs.push_back(r.stretching[static_cast<std::size_t>(i)]);
  }
  EXPECT_LT(relative_l2_error(fu, u), 1e-6);
  EXPECT_LT(relative_l2_error(fs, s), 1e-5);
}

}  // namespace
}  // namespace loom::fmm
