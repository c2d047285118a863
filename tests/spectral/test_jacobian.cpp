// DiffJac and SpatialCoordJac on every tensor kind and backend, against naive loops over full (unsymmetrised)
// index ranges: T'_{a b c} = sum L_a^d L_b^e L_c^f T_{d e f} with L = diag(1, J) for spacetime indices and
// L = J for spatial ones, a formulation independent of the kernels' symmetric bookkeeping.
#include <gtest/gtest.h>

#include "backends.hpp"
#include "spectral/random_fields.hpp"
#include "loom/spectral/jacobian.hpp"

namespace loom::spectral {
namespace {

using fields::random_array;
using fields::random_values;

class SpectralJacobian : public ::testing::TestWithParam<core::Backend> {
 protected:
  void SetUp() override { test::skip_unless_available(GetParam()); }
};

constexpr Index n = 37;

TEST_P(SpectralJacobian, DiffJacEqualsANaiveLoop) {
  const auto jac = random_array(9 * n, 1);
  for (int ne : {1, 4, 10, 16, 40}) {
    const auto in = random_array(3 * ne * n, 2);
    core::Array<double> out(static_cast<std::size_t>(3 * ne * n));
    diff_jac(GetParam(), jac, n, ne, in, out);
    const double *J = jac.read(core::Where::host), *u = in.read(core::Where::host), *v = out.read(core::Where::host);
    for (Index x = 0; x < n; ++x)
      for (int c = 0; c < ne; ++c)
        for (int i = 0; i < 3; ++i) {
          double sum = 0;
          for (int j = 0; j < 3; ++j) sum += J[(3 * i + j) * n + x] * u[(j * ne + c) * n + x];
          EXPECT_NEAR(v[(i * ne + c) * n + x], sum, 1e-14);
        }
  }
}

// L for one index slot at point x: the (dim x dim) transformation.
double transform(const TensorShape& s, int slot, int to, int from, const double* J, Index x) {
  if (s.dim[slot] == 3) return J[(3 * to + from) * n + x];
  if (to == 0 || from == 0) return to == from ? 1.0 : 0.0;
  return J[(3 * (to - 1) + (from - 1)) * n + x];
}

TEST_P(SpectralJacobian, SpatialCoordJacEqualsNaiveLoopsForEverySymmetry) {
  const auto jac = random_array(9 * n, 3);
  for (auto kind : {TensorKind::a, TensorKind::aa, TensorKind::ab, TensorKind::abb, TensorKind::iaa, TensorKind::i,
                    TensorKind::ij, TensorKind::ii}) {
    const TensorShape s = shape_of(kind);
    Tensor in(s, n), out(s, n);
    in.data = random_array(s.components() * n, 4);
    spatial_coord_jac(GetParam(), jac, in, out);
    const double *J = jac.read(core::Where::host), *u = in.data.read(core::Where::host);
    const double* v = out.data.read(core::Where::host);
    const int d[3] = {s.dim[0], s.rank > 1 ? s.dim[1] : 1, s.rank > 2 ? s.dim[2] : 1};
    for (Index x = 0; x < n; ++x)
      for (int c = 0; c < s.components(); ++c) {
        int a[3] = {0, 0, 0};
        s.indices(c, a);
        double sum = 0;
        for (int e0 = 0; e0 < d[0]; ++e0)
          for (int e1 = 0; e1 < d[1]; ++e1)
            for (int e2 = 0; e2 < d[2]; ++e2) {
              const int e[3] = {e0, e1, e2};
              double factor = 1;
              for (int k = 0; k < s.rank; ++k) factor *= transform(s, k, a[k], e[k], J, x);
              sum += factor * u[s.component(e) * n + x];
            }
        EXPECT_NEAR(v[c * n + x], sum, 1e-13) << to_string(kind) << " component " << c;
      }
  }
}

TEST(SpectralJacobianWork, ThePapersDiffJacModel) {
  const auto w = diff_jac_work(1000, 10);
  EXPECT_DOUBLE_EQ(w.bytes, 8.0 * 1000 * (2 * 10 + 3) * 3);
  EXPECT_DOUBLE_EQ(w.flops, 1000.0 * 10 * 5 * 3);
}

LOOM_INSTANTIATE_FOR_BACKENDS(SpectralJacobian);

}  // namespace
}  // namespace loom::spectral
