// Tensor kinds: component counts and symmetric indexing.
#include <gtest/gtest.h>

#include <set>

#include "loom/core/error.hpp"
#include "loom/spectral/tensor.hpp"

namespace loom::spectral {
namespace {

TEST(SpectralTensor, ComponentCounts) {
  const std::pair<const char*, int> expected[] = {{"scalar", 1}, {"a", 4}, {"aa", 10}, {"ab", 16}, {"abb", 40},
                                                  {"iaa", 30},   {"i", 3}, {"ij", 9},  {"ii", 6}};
  for (const auto& [name, count] : expected) EXPECT_EQ(shape_of(parse_tensor_kind(name)).components(), count) << name;
  EXPECT_THROW(parse_tensor_kind("abc"), UsageError);
}

TEST(SpectralTensor, IndexingKnowsTheSymmetry) {
  for (auto kind : {TensorKind::a, TensorKind::aa, TensorKind::ab, TensorKind::abb, TensorKind::iaa, TensorKind::i,
                    TensorKind::ij, TensorKind::ii}) {
    const TensorShape s = shape_of(kind);
    std::set<int> seen;
    int idx[3] = {0, 0, 0};
    // every index tuple maps to a component in range; swapping a symmetric pair maps to the same one
    const int d0 = s.dim[0], d1 = s.rank > 1 ? s.dim[1] : 1, d2 = s.rank > 2 ? s.dim[2] : 1;
    for (int a = 0; a < d0; ++a)
      for (int b = 0; b < d1; ++b)
        for (int c = 0; c < d2; ++c) {
          idx[0] = a, idx[1] = b, idx[2] = c;
          const int k = s.component(idx);
          ASSERT_GE(k, 0);
          ASSERT_LT(k, s.components());
          seen.insert(k);
          if (s.symmetric) {
            int swapped[3] = {a, b, c};
            std::swap(swapped[s.rank - 2], swapped[s.rank - 1]);
            EXPECT_EQ(s.component(swapped), k);
          }
        }
    EXPECT_EQ(static_cast<int>(seen.size()), s.components()) << to_string(kind);
    for (int k = 0; k < s.components(); ++k) {
      int back[3] = {0, 0, 0};
      s.indices(k, back);
      EXPECT_EQ(s.component(back), k) << to_string(kind);
    }
  }
}

}  // namespace
}  // namespace loom::spectral
