// Tests of src/loom/fmm/reorder.* and pinned_staging.*: the gathers into tree order and scatters back into the
// caller's order against a plain loop over the tree's permutation, on every backend (the CUDA case skips
// without a GPU), and the host's chunked parallel copy; the evaluator's results through them are compared with
// the one-call results (tests of fmm.cpp cover their values).
#include <gtest/gtest.h>
#include <omp.h>

#include <cstddef>
#include <vector>

#include "backends.hpp"
#include "loom/core/array.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/pinned_staging.hpp"
#include "loom/fmm/reorder.hpp"
#include "loom/fmm/tree.hpp"

namespace loom::fmm {
namespace {

class Reorder : public ::testing::TestWithParam<core::Backend> {
 protected:
  void SetUp() override { test::skip_unless_available(GetParam()); }
};

TEST_P(Reorder, GatherAndScatterFollowTheTreesPermutation) {
  const core::Backend backend = GetParam();
  const auto where = core::where(backend);
  const Index n = 5000;
  const Tree tree(make_positions(Distribution::cube, n, 7), 16);
  const auto& order = tree.order();
  const auto order_a = core::Array<Index>::from(std::span<const Index>(order));
  // the caller's array: 4 values per body, of which components 1..3 are gathered
  const auto values = make_uniform(4 * n, -1, 1, 8);
  const auto values_a = core::Array<double>::from(std::span<const double>(values));
  core::Array<double> gathered(static_cast<std::size_t>(3 * n));
  gather_to_tree_order(backend, n, order_a.read(where), values_a.read(where) + 1, 4, 3, gathered.write(where));
  const auto g = gathered.host();
  for (Index i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d)
      ASSERT_EQ(g[static_cast<std::size_t>(d * n + i)], values[static_cast<std::size_t>(order[i] * 4 + 1 + d)]);
  // results: 5 components per body in tree order, components 2..4 scattered, scaled
  const auto results = make_uniform(5 * n, -1, 1, 9);
  const auto results_a = core::Array<double>::from(std::span<const double>(results));
  core::Array<double> scattered(static_cast<std::size_t>(3 * n));
  const double scale = 0.079577471545947667884;
  scatter_to_user_order(backend, n, order_a.read(where), results_a.read(where), 2, 3, scale, scattered.write(where));
  const auto s = scattered.host();
  for (Index i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d)
      ASSERT_EQ(s[static_cast<std::size_t>(order[i] * 3 + d)],
                scale * results[static_cast<std::size_t>((2 + d) * n + i)]);
}

// The evaluator's calls that reuse a result give the same numbers as fresh calls, also after a call for a
// different body count (the vectors are resized, never read).
TEST_P(Reorder, ReusedResultsEqualFreshOnes) {
  Options o;
  o.backend = GetParam();
  o.order = 6;
  o.theta = 0.5;
  o.ncrit = 32;
  const auto x = make_positions(Distribution::cube, 3000, 11);
  const auto q = make_uniform(3000, -1, 1, 12);
  const auto alpha = make_uniform_vectors(3000, -1, 1, 13);
  const std::vector<double> sigma(3000, 0.02);
  Evaluator small(o);
  small.set_positions(std::span<const Vec3d>(x).first(1000));
  LaplaceResult lr = small.laplace(std::span<const double>(q).first(1000));
  BiotSavartResult br =
      small.biot_savart(std::span<const Vec3d>(alpha).first(1000), std::span<const double>(sigma).first(1000));
  Evaluator e(o);
  e.set_positions(x);
  const LaplaceResult lf = e.laplace(q);
  const BiotSavartResult bf = e.biot_savart(alpha, sigma);
  for (int call = 0; call < 2; ++call) {
    e.laplace(q, lr);
    e.biot_savart(alpha, sigma, br);
    ASSERT_EQ(lr.potential.size(), x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(lr.potential[i], lf.potential[i]);
      for (int d = 0; d < 3; ++d) {
        ASSERT_EQ(lr.gradient[i][d], lf.gradient[i][d]);
        ASSERT_EQ(br.velocity[i][d], bf.velocity[i][d]);
        ASSERT_EQ(br.stretching[i][d], bf.stretching[i][d]);
      }
    }
  }
}

LOOM_INSTANTIATE_FOR_BACKENDS(Reorder);

TEST(PinnedStaging, ChunksCoverTheCopyInOrder) {
  for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{1} << 20, std::size_t{33554432},
                            std::size_t{806354944}, std::size_t{123456789}}) {
    const auto at = detail::chunk_offsets(bytes);
    ASSERT_GE(at.size(), 1u);
    EXPECT_EQ(at.front(), 0u);
    EXPECT_EQ(at.back(), bytes);
    for (std::size_t k = 0; k + 1 < at.size(); ++k) {
      EXPECT_LT(at[k], at[k + 1]);
      EXPECT_LE(at[k + 1] - at[k], std::size_t{16} << 20);
    }
    if (bytes >= (std::size_t{32} << 20)) {
      EXPECT_GE(at.size() - 1, 2u);  // large copies overlap in pieces
    }
  }
}

// Every thread count, sizes that no count divides: the last bytes once went uncopied on 16 threads (the H200 host)
// while 2 threads (the development machine) happened to cover them.
TEST(PinnedStaging, ParallelCopyCopiesEveryByte) {
  const int threads_before = omp_get_max_threads();
  for (int threads : {1, 2, 3, 5, 7, 16})
    for (std::size_t bytes : {std::size_t{0}, std::size_t{7}, std::size_t{1} << 20, (std::size_t{3} << 20) + 13,
                              (std::size_t{5} << 20) + 4099}) {
      omp_set_num_threads(threads);
      std::vector<unsigned char> src(bytes), dst(bytes, 0);
      for (std::size_t i = 0; i < bytes; ++i) src[i] = static_cast<unsigned char>(i * 131 + 7);
      detail::copy_parallel(dst.data(), src.data(), bytes);
      EXPECT_TRUE(dst == src) << bytes << " bytes on " << threads << " threads";
    }
  omp_set_num_threads(threads_before);
}

}  // namespace
}  // namespace loom::fmm
