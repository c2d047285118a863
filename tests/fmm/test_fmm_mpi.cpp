// The FMM over MPI ranks (src/loom/fmm/parallel), run under mpiexec with 1 to 4 (and 8) ranks. Each rank
// starts from an unequal share of one body set (rank r holds a share proportional to r, so rank 0 starts empty),
// partitions by recursive multisection, moves its bodies, and evaluates with only its bodies and the received
// local essential trees. Checked: the parts' weights balanced, every body on exactly one rank, inside its
// rank's box, the boxes disjoint and filling the bounding box; the sums against the one-rank FMM over the whole
// set and against a direct sum (direct.hpp), for Laplace and Biot-Savart on uniform and Plummer bodies, and with
// fewer bodies than ranks, each with the host's tree and the backend's (gpu/device_tree.hpp); the same on the
// GPU with the ranks sharing the device, and there equal to the CPU ranks (skip without one).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "backends.hpp"
#include "fmm/mpi_bodies.hpp"
#include "loom/comm/communicator.hpp"
#include "loom/comm/rank_device.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/parallel/distributed.hpp"
#include "loom/fmm/parallel/exchange.hpp"
#include "loom/fmm/parallel/multisection.hpp"

namespace loom::fmm::parallel {
namespace {

using namespace mpi_test;

TEST(FmmMultisection, BalancedDisjointEveryBodyOnceInItsBox) {
  const auto c = world();
  for (auto d : {Distribution::cube, Distribution::plummer}) {
    SCOPED_TRACE(std::string(to_string(d)));
    const Index n = 20000;
    const Bodies all = make_bodies(d, n, 1, 7);
    Partition p;
    const Bodies mine = distribute(all, &p);
    ASSERT_EQ(p.domains.size(), static_cast<std::size_t>(c.size()));
    for (const Vec3d& x : mine.x) EXPECT_TRUE(p.domains[static_cast<std::size_t>(c.rank())].contains(x));
    // counts: within one body per level of cuts of the mean (exact nth-element on distinct coordinates)
    const double count = c.sum(double(mine.x.size()));
    EXPECT_EQ(count, double(n));
    EXPECT_LE(std::abs(double(mine.x.size()) - double(n) / c.size()), 4.0);
    // every id exactly once
    const std::vector<double> ids = c.gather(mine.id);
    if (c.is_root()) {
      std::vector<double> sorted = ids;
      std::sort(sorted.begin(), sorted.end());
      std::vector<double> expected(static_cast<std::size_t>(n));
      std::iota(expected.begin(), expected.end(), 0.0);
      EXPECT_EQ(sorted, expected);
    }
    // boxes disjoint, volumes summing to the bounding box's
    double volume = 0;
    Box hull = p.domains[0];
    for (std::size_t a = 0; a < p.domains.size(); ++a) {
      const Box& A = p.domains[a];
      volume += (A.upper.x - A.lower.x) * (A.upper.y - A.lower.y) * (A.upper.z - A.lower.z);
      for (int k = 0; k < 3; ++k) {
        hull.lower[k] = std::min(hull.lower[k], A.lower[k]);
        hull.upper[k] = std::max(hull.upper[k], A.upper[k]);
      }
      for (std::size_t b = a + 1; b < p.domains.size(); ++b) {
        double overlap = 1;
        for (int k = 0; k < 3; ++k)
          overlap *= std::max(0.0, std::min(A.upper[k], p.domains[b].upper[k]) - std::max(A.lower[k], p.domains[b].lower[k]));
        EXPECT_EQ(overlap, 0.0) << a << " " << b;
      }
    }
    const double hull_volume = (hull.upper.x - hull.lower.x) * (hull.upper.y - hull.lower.y) * (hull.upper.z - hull.lower.z);
    EXPECT_NEAR(volume, hull_volume, 1e-12 * hull_volume);
  }
}

TEST(FmmMultisection, WeightsBalanceWorkNotCount) {
  const auto c = world();
  const Index n = 12000;
  const auto x = make_positions(Distribution::cube, n, 11);
  const auto [first, last] = share(n, c.rank(), c.size());
  std::vector<Vec3d> mine(x.begin() + first, x.begin() + last);
  std::vector<double> w;
  for (const Vec3d& p : mine) w.push_back(p.x < 0 ? 9.0 : 1.0);  // the half x < 0 costs 9x
  const Partition p = multisection(c, mine, w, c.size());
  std::vector<double> part_weight(static_cast<std::size_t>(c.size()), 0.0), part_count(part_weight);
  for (std::size_t i = 0; i < mine.size(); ++i) {
    part_weight[static_cast<std::size_t>(p.part[i])] += w[i];
    part_count[static_cast<std::size_t>(p.part[i])] += 1;
  }
  c.sum_in_rank_order(part_weight);
  c.sum_in_rank_order(part_count);
  // within the largest weight per level of cuts
  EXPECT_LE(imbalance(part_weight), 1 + 9.0 * 3 * c.size() / (5.0 * n));
  if (c.size() >= 2) {
    EXPECT_GT(imbalance(part_count), 1.3);  // counts are not what is balanced
  }
}

struct Case {
  Distribution d;
  Index n;
};

// Relative L2 errors on rank 0 (zero elsewhere): of the ranks' sums against a direct sum (a, b: potential and
// gradient, or velocity and stretching), and of the ranks' sums against the one-rank FMM over the whole set.
struct Errors {
  double a = 0, b = 0, a_one_rank = 0, b_one_rank = 0;
};

// Both sides' values (width per body, ids' order) against the direct sums at the sampled targets.
Errors compare(const std::vector<double>& got, const std::vector<double>& one_rank, const std::vector<double>& exact_a,
               const std::vector<double>& exact_b, const std::vector<Index>& targets, int width_a) {
  const int width = width_a + 3;
  Errors e;
  e.a = sampled_error(got, exact_a, targets, width, 0, width_a);
  e.b = sampled_error(got, exact_b, targets, width, width_a, 3);
  std::vector<Index> all(got.size() / static_cast<std::size_t>(width));
  std::iota(all.begin(), all.end(), Index{0});
  std::vector<double> one_a, one_b;
  for (Index i : all)
    for (int k = 0; k < width; ++k)
      (k < width_a ? one_a : one_b).push_back(one_rank[static_cast<std::size_t>(i * width + k)]);
  e.a_one_rank = sampled_error(got, one_a, all, width, 0, width_a);
  e.b_one_rank = sampled_error(got, one_b, all, width, width_a, 3);
  return e;
}

Errors laplace_errors(const Case& k, const Options& o) {
  const auto c = world();
  const Bodies all = make_bodies(k.d, k.n, 1, 21);
  const Bodies mine = distribute(all);
  RankReport report;
  const LaplaceResult r = laplace(c, o, mine.x, mine.strength, &report);
  std::vector<double> values;
  for (std::size_t i = 0; i < mine.x.size(); ++i)
    values.insert(values.end(), {r.potential[i], r.gradient[i].x, r.gradient[i].y, r.gradient[i].z});
  const std::vector<double> got = gather_by_id(mine, values, 4, k.n);
  if (!c.is_root()) return {};
  const auto targets = sample_targets(k.n, 300);
  std::vector<double> phi;
  std::vector<Vec3d> grad;
  direct_laplace(all.x, all.strength, targets, phi, grad);
  const LaplaceResult single = fmm::laplace(all.x, all.strength, o);
  std::vector<double> one;
  for (std::size_t i = 0; i < all.x.size(); ++i)
    one.insert(one.end(), {single.potential[i], single.gradient[i].x, single.gradient[i].y, single.gradient[i].z});
  const Errors e = compare(got, one, phi, flat(grad), targets, 1);
  std::printf("%d ranks, %s, p %d, %s tree: potential error %.2e, gradient %.2e; against one rank %.2e, %.2e; LET "
              "cells %ld bodies %ld on rank 0\n",
              c.size(), std::string(to_string(k.d)).c_str(), o.order, o.tree_on_backend ? "backend" : "host", e.a, e.b,
              e.a_one_rank, e.b_one_rank, long(report.let_cells_received), long(report.let_bodies_received));
  return e;
}

Errors biot_savart_errors(const Case& k, const Options& o) {
  const auto c = world();
  const Bodies all = make_bodies(k.d, k.n, 3, 33);
  const Bodies mine = distribute(all);
  const BiotSavartResult r = biot_savart(c, o, mine.x, vectors(mine.strength), mine.sigma);
  std::vector<double> values;
  for (std::size_t i = 0; i < mine.x.size(); ++i)
    values.insert(values.end(), {r.velocity[i].x, r.velocity[i].y, r.velocity[i].z, r.stretching[i].x,
                                 r.stretching[i].y, r.stretching[i].z});
  const std::vector<double> got = gather_by_id(mine, values, 6, k.n);
  if (!c.is_root()) return {};
  const auto targets = sample_targets(k.n, 200);
  std::vector<Vec3d> u, s;
  const auto alpha = vectors(all.strength);
  direct_biot_savart(all.x, alpha, all.sigma, targets, u, s);
  const BiotSavartResult single = fmm::biot_savart(all.x, alpha, all.sigma, o);
  std::vector<double> one;
  for (std::size_t i = 0; i < all.x.size(); ++i)
    one.insert(one.end(), {single.velocity[i].x, single.velocity[i].y, single.velocity[i].z, single.stretching[i].x,
                           single.stretching[i].y, single.stretching[i].z});
  const Errors e = compare(got, one, flat(u), flat(s), targets, 3);
  std::printf("%d ranks, %s, p %d, %s tree: velocity error %.2e, stretching %.2e; against one rank %.2e, %.2e\n",
              c.size(), std::string(to_string(k.d)).c_str(), o.order, o.tree_on_backend ? "backend" : "host", e.a, e.b,
              e.a_one_rank, e.b_one_rank);
  return e;
}

// The bounds the one-rank FMM's own tests hold at p = 10 (test_fmm_laplace.cpp, test_fmm_biot_savart.cpp).
void expect_within_fmm_error(const Errors& e, double bound_a, double bound_b) {
  EXPECT_LT(e.a, bound_a);
  EXPECT_LT(e.b, bound_b);
  EXPECT_LT(e.a_one_rank, bound_a);
  EXPECT_LT(e.b_one_rank, bound_b);
}

// The ranks' trees both ways: the host tree (parallel/cubic_tree.hpp) and, in a build with CUDA, the backend's
// (Options::tree_on_backend, the GPU ranks' default; here its code on thrust's host system), its root cut into
// the rank's near-cubic pieces (cubic_root_rounds) and the LETs planned on its host form.
std::vector<Options> tree_sites(Options o = {}) {
  std::vector<Options> sites{o};
#if defined(LOOM_HAVE_CUDA)
  o.tree_on_backend = true;
  sites.push_back(o);
#endif
  return sites;
}

TEST(FmmRanks, LaplaceAgreesWithOneRankAndDirectSum) {
  for (const Options& o : tree_sites())
    for (auto d : {Distribution::cube, Distribution::plummer})
      expect_within_fmm_error(laplace_errors({d, 5000}, o), 1e-6, 1e-6);
}

TEST(FmmRanks, BiotSavartAgreesWithOneRankAndDirectSum) {
  for (const Options& o : tree_sites())
    for (auto d : {Distribution::cube, Distribution::plummer})
      expect_within_fmm_error(biot_savart_errors({d, 3000}, o), 1e-6, 1e-5);
}

// A LET that missed or doubled a cell would leave an error that no order removes: the error falls with p as
// the one-rank FMM's does (test_fmm_laplace.cpp: at least 3x per two orders). Small leaves, so that most of
// the sum is far field at this size.
TEST(FmmRanks, LaplaceErrorFallsWithTheOrder) {
  Errors previous{1, 1, 1, 1};
  for (int p : {4, 6, 8, 10}) {
    Options o;
    o.order = p;
    o.ncrit = 8;
    const Errors e = laplace_errors({Distribution::plummer, 2000}, o);
    if (!world().is_root()) continue;
    EXPECT_LT(e.a, previous.a / 3) << "p = " << p;
    EXPECT_LT(e.b, previous.b / 3) << "p = " << p;
    previous = e;
  }
}

TEST(FmmRanks, FewerBodiesThanRanks) {
  // 3 bodies: with 4 ranks one holds none after partitioning; every sum is then direct (one leaf each)
  for (const Options& o : tree_sites()) {
    expect_within_fmm_error(laplace_errors({Distribution::cube, 3}, o), 1e-12, 1e-12);
    expect_within_fmm_error(biot_savart_errors({Distribution::cube, 3}, o), 1e-12, 1e-12);
  }
}

TEST(FmmRanks, GpuRanksShareTheDevice) {
  test::skip_unless_available(core::Backend::cuda);
  if (IsSkipped()) return;
  comm::select_rank_device(world());
  Options o;
  o.backend = core::Backend::cuda;
  o.precision = Precision::double_;
  for (const Options& site : tree_sites(o)) {  // the host tree, and the device's (the GPU ranks' default)
    expect_within_fmm_error(laplace_errors({Distribution::plummer, 8000}, site), 1e-6, 1e-6);
    expect_within_fmm_error(biot_savart_errors({Distribution::cube, 5000}, site), 1e-6, 1e-5);
  }
}

// The received field on the device (let_field_device.hpp) against the CPU's, under the ranks: in double
// precision the two backends' ranks differ by rounding only.
TEST(FmmRanks, GpuRanksEqualCpuRanks) {
  test::skip_unless_available(core::Backend::cuda);
  if (IsSkipped()) return;
  comm::select_rank_device(world());
  const Index n = 8000;
  const Bodies all = make_bodies(Distribution::plummer, n, 1, 21);
  const Bodies mine = distribute(all);
  auto gathered = [&](const Options& o) {
    RankReport report;
    const LaplaceResult r = laplace(world(), o, mine.x, mine.strength, &report);
    if (world().size() > 1) {
      EXPECT_GT(report.let_cells_received, 0);
    }
    std::vector<double> values;
    for (std::size_t i = 0; i < mine.x.size(); ++i)
      values.insert(values.end(), {r.potential[i], r.gradient[i].x, r.gradient[i].y, r.gradient[i].z});
    return gather_by_id(mine, values, 4, n);
  };
  Options cpu;
  Options gpu = cpu;
  gpu.backend = core::Backend::cuda;
  gpu.precision = Precision::double_;
  const std::vector<double> a = gathered(cpu), b = gathered(gpu);
  if (!world().is_root()) return;
  double e = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    e += (a[i] - b[i]) * (a[i] - b[i]);
    norm += a[i] * a[i];
  }
  EXPECT_LT(std::sqrt(e / norm), 1e-10);
}

}  // namespace
}  // namespace loom::fmm::parallel
