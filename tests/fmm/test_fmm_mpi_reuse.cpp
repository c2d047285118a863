// A rank's buffers kept between calls (fmm/parallel/distributed.hpp RankFmm): the LETs written, received and
// parsed, the plans. A call on kept buffers must give exactly what a call on fresh ones gives (the same
// arithmetic in the same order: bit for bit) when it repeats the last call, when it needs more than the buffers
// hold (they grow), and when it needs less after a larger call (the buffers then hold the larger call's values
// past what this call writes: read, they would change the sums). The kept bytes grow only when a call needs more.
// On the GPU (the sent multipoles gathered into a kept host buffer) the device's sums may add in another order
// from call to call: there within 1e-13 of the largest value instead of bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends.hpp"
#include "fmm/mpi_bodies.hpp"
#include "loom/comm/rank_device.hpp"
#include "loom/fmm/parallel/distributed.hpp"

namespace loom::fmm::parallel {
namespace {

using namespace mpi_test;

// Potentials and gradients (Laplace) or velocities and stretchings (Biot-Savart) of this rank's bodies.
std::vector<double> sums(RankFmm& fmm, const Options& o, const Bodies& mine) {
  std::vector<double> out;
  if (mine.ncomp == 1) {
    const LaplaceResult r = fmm.laplace(o, mine.x, mine.strength);
    for (std::size_t i = 0; i < mine.x.size(); ++i)
      out.insert(out.end(), {r.potential[i], r.gradient[i].x, r.gradient[i].y, r.gradient[i].z});
    return out;
  }
  const BiotSavartResult r = fmm.biot_savart(o, mine.x, vectors(mine.strength), mine.sigma);
  out = flat(r.velocity);
  const std::vector<double> stretching = flat(r.stretching);
  out.insert(out.end(), stretching.begin(), stretching.end());
  return out;
}

std::vector<double> fresh(const Options& o, const Bodies& mine) {
  RankFmm once(world());
  return sums(once, o, mine);
}

// a == b (CPU), or within 1e-13 of b's largest magnitude (GPU).
void expect_same(const Options& o, const std::vector<double>& a, const std::vector<double>& b, const char* what) {
  if (o.backend == core::Backend::cpu) {
    EXPECT_EQ(a, b) << what;
    return;
  }
  ASSERT_EQ(a.size(), b.size()) << what;
  double largest = 0, diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    largest = std::max(largest, std::abs(b[i]));
    diff = std::max(diff, std::abs(a[i] - b[i]));
  }
  EXPECT_LE(diff, 1e-13 * largest) << what;
}

void expect_kept_equals_fresh(const Options& o, int ncomp, Distribution d) {
  const Bodies small = distribute(make_bodies(d, 1500, ncomp, 91));
  const Bodies large = distribute(make_bodies(d, 5000, ncomp, 92));
  RankFmm kept(world());
  expect_same(o, sums(kept, o, small), fresh(o, small), "the first call");
  const double first = kept.kept_bytes();
  expect_same(o, sums(kept, o, small), fresh(o, small), "the same bodies again");
  EXPECT_EQ(kept.kept_bytes(), first) << "a call needing no more grew the buffers";
  expect_same(o, sums(kept, o, large), fresh(o, large), "a larger set");
  const double grown = kept.kept_bytes();
  expect_same(o, sums(kept, o, small), fresh(o, small), "a smaller set after the larger");
  EXPECT_EQ(kept.kept_bytes(), grown) << "the buffers are never shrunk";
  if (world().size() > 1) {
    EXPECT_GT(first, 0.0);
    EXPECT_GT(grown, first);
  }
}

TEST(FmmRankBuffers, LaplaceCallsOnKeptBuffersEqualFreshOnes) { expect_kept_equals_fresh(Options{}, 1, Distribution::plummer); }

TEST(FmmRankBuffers, BiotSavartCallsOnKeptBuffersEqualFreshOnes) { expect_kept_equals_fresh(Options{}, 3, Distribution::plummer); }

TEST(FmmRankBuffers, PeriodicCallsOnKeptBuffersEqualFreshOnes) {
  Options o;
  o.order = 8;
  o.periodic = true;
  o.period = 2;
  o.box_lower = {-1, -1, -1};
  expect_kept_equals_fresh(o, 1, Distribution::cube);  // in the box [-1, 1)^3
}

TEST(FmmRankBuffers, GpuCallsOnKeptBuffersEqualFreshOnes) {
  test::skip_unless_available(core::Backend::cuda);
  if (IsSkipped()) return;
  comm::select_rank_device(world());
  Options o;
  o.backend = core::Backend::cuda;
  o.precision = Precision::double_;
  expect_kept_equals_fresh(o, 1, Distribution::plummer);
  expect_kept_equals_fresh(o, 3, Distribution::plummer);
}

}  // namespace
}  // namespace loom::fmm::parallel
