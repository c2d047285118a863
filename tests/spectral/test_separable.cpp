// The separable S2 route (phi DFT, per-m theta matrices, inverse DFT) equals the dense Y_lm route: for the theta
// and phi derivatives and the filter, by the reference line maps and by the traced matrices; and it needs far
// fewer flops than the dense angular matrix at the production shell.
#include <gtest/gtest.h>

#include "loom/spectral/operations.hpp"
#include "spectral/random_fields.hpp"

namespace loom::spectral {
namespace {

using fields::random_values;

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}

TEST(SpectralSeparable, EqualsTheDenseRouteForDerivativesAndFilter) {
  Shell s(5, 9, 1, 2);
  const Index components = 4, n = s.size();
  const auto in = random_values(components * n, 21);
  OperatorCache cache;
  for (int j = 1; j < 3; ++j) {
    std::vector<double> dense(components * n), ref(components * n), blas(components * n);
    apply(Strategy::reference, cache, s.derivative(j), components, in.data(), dense.data());
    const auto steps = s.derivative_steps(j, AngularMethod::separable);
    ASSERT_EQ(steps.size(), 3u);
    apply_steps(Strategy::reference, cache, steps, components, in.data(), ref.data());
    apply_steps(Strategy::blas, cache, steps, components, in.data(), blas.data());
    EXPECT_LT(max_difference(dense, ref), 1e-12) << j;
    EXPECT_LT(max_difference(dense, blas), 1e-12) << j;
  }
  FilterSpec f;
  f.l_keep = 5;
  Tensor dense(shape_of(TensorKind::a), n), sep(shape_of(TensorKind::a), n);
  dense.data = core::Array<double>::from(in);
  sep.data = core::Array<double>::from(in);
  core::Array<double> scratch(components * n);
  filter(s, Strategy::reference, cache, f, dense, scratch, AngularMethod::dense);
  filter(s, Strategy::blas, cache, f, sep, scratch, AngularMethod::separable);
  const auto* a = dense.data.read(core::Where::host);
  const auto* b = sep.data.read(core::Where::host);
  double e = 0;
  for (Index i = 0; i < components * n; ++i) e = std::max(e, std::abs(a[i] - b[i]));
  EXPECT_LT(e, 1e-12);
}

TEST(SpectralSeparable, NeedsFewerFlopsThanTheDenseAngularMatrix) {
  Shell s(10, 19, 1, 2);  // SpEC's production shell, L = 18
  const double dense = matrix_work(s.derivative(1), 1).flops;
  double separable = 0;
  for (const auto& op : s.derivative_steps(1, AngularMethod::separable)) separable += matrix_work(op, 1).flops;
  // dense: 2 (N_theta N_phi)^2 per radius; separable with DFT matrices: 4 N_phi^2 N_theta + 2 N_theta^2 N_phi
  EXPECT_GT(dense / separable, 7.0);
}

}  // namespace
}  // namespace loom::spectral
