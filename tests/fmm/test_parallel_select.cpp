// parallel_nth_element (src/loom/fmm/tree/parallel_select.hpp) against std::nth_element's postcondition on keys that
// are random, sorted, reversed, few-valued and all equal; the same arrangement for every thread count; and the
// tree built from it (ranges above parallel_select_threshold) the same for one thread and two.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <vector>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/tree/parallel_select.hpp"
#include "loom/fmm/tree/tree.hpp"

namespace loom::fmm {
namespace {

struct Keyed {
  double key;
  Index id;
};

std::vector<Keyed> selected(std::vector<Keyed> v, Index k, int threads) {
  std::vector<Keyed> scratch(v.size());
  omp_set_num_threads(threads);
#pragma omp parallel
#pragma omp single
  parallel_nth_element(
      v.data(), static_cast<Index>(v.size()), k, [](const Keyed& e) { return e.key; }, scratch.data());
  return v;
}

TEST(ParallelSelect, PlacesTheKthKeyAndPartitionsAroundIt) {
  const int threads = omp_get_max_threads();
  const Index n = 300001;
  Random rng(5);
  for (int pattern = 0; pattern < 5; ++pattern) {
    std::vector<Keyed> v(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
      const double r = rng.uniform(0, 1);
      const double key = pattern == 0   ? r
                         : pattern == 1 ? double(i)
                         : pattern == 2 ? double(n - i)
                         : pattern == 3 ? double(int(r * 5))
                                        : 1.0;
      v[static_cast<std::size_t>(i)] = {key, i};
    }
    std::vector<double> sorted(v.size());
    std::transform(v.begin(), v.end(), sorted.begin(), [](const Keyed& e) { return e.key; });
    std::sort(sorted.begin(), sorted.end());
    for (const Index k : {Index(0), Index(1), n / 3, n / 2, n - 1}) {
      const auto out = selected(v, k, 2);
      ASSERT_EQ(out[static_cast<std::size_t>(k)].key, sorted[static_cast<std::size_t>(k)]) << pattern << " " << k;
      for (Index i = 0; i < n; ++i) {
        const double key = out[static_cast<std::size_t>(i)].key;
        if (i < k) {
          ASSERT_LE(key, out[static_cast<std::size_t>(k)].key) << pattern << " " << k << " " << i;
        } else if (i > k) {
          ASSERT_GE(key, out[static_cast<std::size_t>(k)].key) << pattern << " " << k << " " << i;
        }
      }
      // a permutation of the input
      std::vector<Index> ids(out.size());
      std::transform(out.begin(), out.end(), ids.begin(), [](const Keyed& e) { return e.id; });
      std::sort(ids.begin(), ids.end());
      for (Index i = 0; i < n; ++i) ASSERT_EQ(ids[static_cast<std::size_t>(i)], i);
      // the arrangement does not depend on the thread count
      const auto one = selected(v, k, 1);
      for (Index i = 0; i < n; ++i) ASSERT_EQ(one[static_cast<std::size_t>(i)].id, out[static_cast<std::size_t>(i)].id);
    }
  }
  omp_set_num_threads(threads);
}

TEST(ParallelSelect, TreeAboveTheThresholdIsTheSameForAnyThreadCount) {
  const int threads = omp_get_max_threads();
  const auto x = make_positions(Distribution::plummer, 3 * parallel_select_threshold / 2, 9);
  omp_set_num_threads(1);
  const Tree one(x, 64);
  omp_set_num_threads(2);
  const Tree two(x, 64);
  omp_set_num_threads(threads);
  ASSERT_EQ(one.cells().size(), two.cells().size());
  EXPECT_EQ(one.order(), two.order());
  for (std::size_t c = 0; c < one.cells().size(); ++c) {
    ASSERT_EQ(one.cells()[c].begin, two.cells()[c].begin);
    ASSERT_EQ(one.cells()[c].count, two.cells()[c].count);
  }
}

// Above the threshold the root's bounding box (taken with all threads) still steers the splits: bodies in a
// 1 x 1 x 16 box are cut three times along z, so each of the root's eight children is about 1 x 1 x 2 (radius
// 1.22); a first cut along x (as with an empty box) would leave 0.5 x 1 x 4 (radius 2.08).
TEST(ParallelSelect, LargeRangesSplitAlongTheLongestSide) {
  auto x = make_positions(Distribution::cube, parallel_select_threshold + 1000, 10);  // in [-1, 1)^3
  for (auto& v : x) v = {0.5 * v.x, 0.5 * v.y, 8 * v.z};
  const Tree tree(x, 64);
  const Cell& root = tree.cells()[0];
  ASSERT_EQ(root.child_count, 8);
  for (int c = root.child_begin; c < root.child_begin + root.child_count; ++c)
    EXPECT_LT(tree.cells()[static_cast<std::size_t>(c)].radius, 1.5) << c;
}

}  // namespace
}  // namespace loom::fmm
