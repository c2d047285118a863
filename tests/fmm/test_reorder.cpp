// Tests of src/loom/fmm/tree/reorder.*: the gathers into tree order and scatters back into the caller's order against
// a plain loop over the tree's permutation, on every backend (the CUDA case skips without a GPU); the
// evaluator's results through them are compared with the one-call results (the evaluator's tests cover their
// values). The pinned arena's copies are tested in tests/core/test_pinned_arena.cpp.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "backends.hpp"
#include "loom/core/array.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/tree/reorder.hpp"
#include "loom/fmm/tree/tree.hpp"

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

}  // namespace
}  // namespace loom::fmm
