// The traced matrices: applied by OpenBLAS they equal the reference operators on whole tensors (cube and shell,
// derivatives and filters); the cache traces each key once and tells filter parameters apart.
#include <gtest/gtest.h>

#include "loom/spectral/operations.hpp"
#include "spectral/random_fields.hpp"

namespace loom::spectral {
namespace {

using fields::random_array;
using fields::random_values;

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}

void expect_matrix_equals_reference(const AxisOperator& op, Index components) {
  OperatorCache cache;
  const auto in = random_values(op.shape.input_size() * components, 7);
  std::vector<double> ref(op.shape.output_size() * components), mat(ref.size());
  apply(Strategy::reference, cache, op, components, in.data(), ref.data());
  apply(Strategy::blas, cache, op, components, in.data(), mat.data());
  double scale = 1;
  for (double v : ref) scale = std::max(scale, std::abs(v));
  EXPECT_LT(max_difference(ref, mat), 1e-12 * scale) << op.key;
}

TEST(SpectralOperatorCache, TracedMatricesEqualTheReference) {
  const auto cube = make_topology("cube", {6, 7, 5}, {0, 0}, {BasisKind::chebyshev, BasisKind::fourier,
                                                             BasisKind::chebyshev});
  const auto shell = make_topology("shell", {5, 6, 12}, {1, 3});
  for (const Topology* t : {cube.get(), shell.get()}) {
    for (int j = 0; j < 3; ++j) expect_matrix_equals_reference(t->derivative(j), 10);
    for (const auto& op : t->filter(FilterSpec{})) expect_matrix_equals_reference(op, 4);
  }
}

TEST(SpectralOperatorCache, CountsHitsMissesAndBytes) {
  Shell s(5, 6, 1, 3);
  OperatorCache cache;
  cache.matrix(s.derivative(0));
  cache.matrix(s.derivative(0));
  cache.matrix(s.derivative(1));
  const auto st = cache.statistics();
  EXPECT_EQ(st.misses, 2u);
  EXPECT_EQ(st.hits, 1u);
  EXPECT_EQ(st.entries, 2u);
  EXPECT_EQ(st.bytes, sizeof(double) * (5 * 5 + 72 * 72));
}

TEST(SpectralOperatorCache, FiltersDifferingInOneParameterAreTwoEntries) {
  Shell s(6, 6, 1, 3);
  OperatorCache cache;
  FilterSpec a, b = a, c = a;
  b.alpha = 30;
  c.l_keep = 3;
  for (const auto* spec : {&a, &b, &c, &a})
    for (const auto& op : s.filter(*spec)) cache.matrix(op);
  // radial: alpha 36 and alpha 30; angular: l_keep 4 (default l_max - 1) and 3
  EXPECT_EQ(cache.statistics().entries, 4u);
  EXPECT_EQ(cache.statistics().hits, 2u + 1u + 1u);
}

TEST(SpectralOperatorCache, TransposedHoldsEachBlockTransposed) {
  Shell s(4, 5, 1, 2);
  const auto steps = s.derivative_steps(1, AngularMethod::separable);
  OperatorCache cache;
  for (const auto& op : steps) {
    const double* m = cache.matrix(op).read(core::Where::host);
    const double* t = cache.transposed(op).read(core::Where::host);
    const Index n_in = op.shape.n_in, n_out = op.shape.n_out;
    for (Index b = 0; b < op.blocks; ++b)
      for (Index r = 0; r < n_out; ++r)
        for (Index k = 0; k < n_in; ++k)
          ASSERT_EQ(t[(b * n_in + k) * n_out + r], m[(b * n_out + r) * n_in + k]) << op.key;
  }
  EXPECT_EQ(cache.statistics().entries, 2 * steps.size());
  EXPECT_TRUE(cache.contains(steps[0].key + "#transposed"));
}

}  // namespace
}  // namespace loom::spectral
