// The paper's S2 filter route (PhysToSpec per component, CSR coupling, SpecToPhys) equals the reference
// filter (radial exponential, then Heaviside on Y_lm) on a whole tensor; the coupling keeps exactly the modes
// with l <= l_keep of every component.
#include <gtest/gtest.h>

#include "loom/spectral/operations.hpp"
#include "loom/spectral/s2_filter.hpp"
#include "spectral/random_fields.hpp"

namespace loom::spectral {
namespace {

TEST(SpectralS2Filter, CouplingKeepsExactlyTheModesUpToLKeep) {
  SphereBasis s(8);
  const auto c = heaviside_coupling(s, 4, 3);
  EXPECT_EQ(c.rows, 3 * 64);
  EXPECT_EQ(c.nonzeros, 3 * 25);  // (l_keep + 1)^2 per component
}

TEST(SpectralS2Filter, CsrRouteEqualsTheReferenceFilter) {
  Shell shell(6, 8, 1, 2);
  const Index n = shell.size();
  FilterSpec f;
  f.l_keep = 5;
  const auto values = fields::random_values(10 * n, 13);
  Tensor ref(shape_of(TensorKind::aa), n), csr(shape_of(TensorKind::aa), n);
  ref.data = core::Array<double>::from(values);
  csr.data = core::Array<double>::from(values);
  OperatorCache cache;
  core::Array<double> scratch(10 * n);
  filter(shell, Strategy::reference, cache, f, ref, scratch);
  filter_csr(shell, Strategy::blas, cache, f, csr);
  const double *a = ref.data.read(core::Where::host), *b = csr.data.read(core::Where::host);
  for (Index i = 0; i < 10 * n; ++i) EXPECT_NEAR(a[i], b[i], 1e-12) << i;
}

}  // namespace
}  // namespace loom::spectral
