// Periodic boundaries over MPI ranks (fmm/parallel/distributed.hpp): the ranks' sums of neutral charges (and of
// Biot-Savart strengths summing to zero) in the box [-1, 1)^3 against the one-rank periodic FMM over the whole
// set and against the Ewald sum (ewald.hpp; for Biot-Savart, with tiny cores, the curl of the three components'
// periodic potentials), each within the periodic FMM's own bound (test_fmm_periodic.cpp).
#include <gtest/gtest.h>

#include <numbers>

#include "fmm/mpi_bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/ewald.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/distributed.hpp"

namespace loom::fmm::parallel {
namespace {

using namespace mpi_test;

Options periodic_options() {
  Options o;
  o.order = 12;
  o.periodic = true;
  o.period = 2;
  o.box_lower = {-1, -1, -1};
  o.image_levels = 5;
  return o;
}

// Bodies in the box with each strength component shifted to sum to zero.
Bodies neutral_bodies(Index n, int ncomp, std::uint64_t seed) {
  Bodies b = make_bodies(Distribution::cube, n, ncomp, seed);
  for (int d = 0; d < ncomp; ++d) {
    double mean = 0;
    for (Index i = 0; i < n; ++i) mean += b.strength[static_cast<std::size_t>(i * ncomp + d)] / double(n);
    for (Index i = 0; i < n; ++i) b.strength[static_cast<std::size_t>(i * ncomp + d)] -= mean;
  }
  return b;
}

// Rows of `width` values per body (id order) at the targets, as vectors of the components [first, first + 3).
std::vector<Vec3d> at_targets(const std::vector<double>& v, const std::vector<Index>& targets, int width, int first) {
  std::vector<Vec3d> out;
  for (Index t : targets) {
    const double* row = v.data() + t * width + first;
    out.push_back({row[0], row[1], row[2]});
  }
  return out;
}

TEST(FmmRanksPeriodic, LaplaceAgreesWithOneRankAndEwald) {
  const auto c = world();
  const Index n = 2000;
  const Bodies all = neutral_bodies(n, 1, 61);
  const Bodies mine = distribute(all);
  const Options o = periodic_options();
  RankReport report;
  const LaplaceResult r = laplace(c, o, mine.x, mine.strength, &report);
  std::vector<double> values;
  for (std::size_t i = 0; i < mine.x.size(); ++i)
    values.insert(values.end(), {r.potential[i], r.gradient[i].x, r.gradient[i].y, r.gradient[i].z});
  const std::vector<double> got = gather_by_id(mine, values, 4, n);
  if (!c.is_root()) return;
  const auto targets = sample_targets(n, 200);
  std::vector<double> phi, fphi, one_phi;
  std::vector<Vec3d> grad, one_grad;
  ewald_laplace(all.x, all.strength, o.period, targets, phi, grad);
  const LaplaceResult one = fmm::laplace(all.x, all.strength, o);
  for (Index t : targets) {
    fphi.push_back(got[static_cast<std::size_t>(4 * t)]);
    one_phi.push_back(one.potential[static_cast<std::size_t>(t)]);
    one_grad.push_back(one.gradient[static_cast<std::size_t>(t)]);
  }
  const auto fgrad = at_targets(got, targets, 4, 1);
  const double e_phi = relative_l2_error(fphi, phi), e_grad = relative_l2_error(fgrad, grad);
  const double o_phi = relative_l2_error(fphi, one_phi), o_grad = relative_l2_error(fgrad, one_grad);
  std::printf("%d ranks, periodic Laplace p 12: against Ewald %.2e, %.2e; against one rank %.2e, %.2e; LET cells %ld "
              "bodies %ld on rank 0\n",
              c.size(), e_phi, e_grad, o_phi, o_grad, long(report.let_cells_received), long(report.let_bodies_received));
  EXPECT_LT(e_phi, 1e-6);
  EXPECT_LT(e_grad, 1e-6);
  EXPECT_LT(o_phi, 1e-6);
  EXPECT_LT(o_grad, 1e-6);
}

TEST(FmmRanksPeriodic, BiotSavartAgreesWithOneRankAndTheCurlOfEwald) {
  const auto c = world();
  const Index n = 1500;
  Bodies all = neutral_bodies(n, 3, 71);
  std::fill(all.sigma.begin(), all.sigma.end(), 1e-5);  // tiny cores: the singular kernel of the Ewald curl
  const Bodies mine = distribute(all);
  const Options o = periodic_options();
  const BiotSavartResult r = biot_savart(c, o, mine.x, vectors(mine.strength), mine.sigma);
  std::vector<double> values;
  for (std::size_t i = 0; i < mine.x.size(); ++i)
    values.insert(values.end(), {r.velocity[i].x, r.velocity[i].y, r.velocity[i].z, r.stretching[i].x,
                                 r.stretching[i].y, r.stretching[i].z});
  const std::vector<double> got = gather_by_id(mine, values, 6, n);
  if (!c.is_root()) return;
  const auto targets = sample_targets(n, 100);
  std::vector<Vec3d> grad_psi[3];
  for (int d = 0; d < 3; ++d) {
    std::vector<double> q, phi;
    for (Index i = 0; i < n; ++i) q.push_back(all.strength[static_cast<std::size_t>(3 * i + d)]);
    ewald_laplace(all.x, q, o.period, targets, phi, grad_psi[d]);
  }
  std::vector<Vec3d> curl, one_u, one_s;
  const BiotSavartResult one = fmm::biot_savart(all.x, vectors(all.strength), all.sigma, o);
  for (std::size_t m = 0; m < targets.size(); ++m) {
    const Vec3d k{grad_psi[2][m].y - grad_psi[1][m].z, grad_psi[0][m].z - grad_psi[2][m].x,
                  grad_psi[1][m].x - grad_psi[0][m].y};
    curl.push_back((1 / (4 * std::numbers::pi)) * k);
    one_u.push_back(one.velocity[static_cast<std::size_t>(targets[m])]);
    one_s.push_back(one.stretching[static_cast<std::size_t>(targets[m])]);
  }
  const auto u = at_targets(got, targets, 6, 0), s = at_targets(got, targets, 6, 3);
  const double e_u = relative_l2_error(u, curl), o_u = relative_l2_error(u, one_u), o_s = relative_l2_error(s, one_s);
  std::printf("%d ranks, periodic Biot-Savart p 12: velocity against the Ewald curl %.2e; against one rank %.2e, "
              "stretching %.2e\n",
              c.size(), e_u, o_u, o_s);
  EXPECT_LT(e_u, 1e-6);
  EXPECT_LT(o_u, 1e-6);
  EXPECT_LT(o_s, 1e-5);
}

}  // namespace
}  // namespace loom::fmm::parallel
