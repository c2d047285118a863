// The per-thread pieces of the GPU's upward and downward passes (gpu/passes.cu), run on the host the way the
// kernels' threads share the work, against the plain operators of operators.hpp: P2M column by column (a thread
// per column m), the regular harmonics filled column by column (the M2M/L2L kernels' shared table), M2M and
// L2L one coefficient at a time, and L2P from precomputed gradient expansions.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fmm/coefficient_difference.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/expansions/operators.hpp"

namespace loom::fmm {
namespace {

using C = Complex<double>;

using test::relative_difference;

std::vector<Vec3d> points(int count, double radius, std::uint64_t seed) {
  Random rng(seed);
  std::vector<Vec3d> out;
  while (static_cast<int>(out.size()) < count) {
    const Vec3d y{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)};
    if (norm2(y) <= 1) out.push_back(radius * y);
  }
  return out;
}

TEST(GpuPasses, ColumnsGiveTheRegularHarmonics) {
  for (int p : {1, 2, 7, 16}) {
    const Vec3d v{0.3, -0.2, 0.45};
    std::vector<C> plain(static_cast<std::size_t>(term_count(p))), by_column(plain.size());
    regular_harmonics(p, v, plain.data());
    for (int m = 0; m < p; ++m)  // the kernels' stage(): thread m fills column m
      for_each_regular_in_column(p, m, v, norm2(v), regular_diagonal(m, v),
                                 [&](int n, int mm, C r) { by_column[static_cast<std::size_t>(term(n, mm))] = r; });
    for (std::size_t t = 0; t < plain.size(); ++t) {
      EXPECT_EQ(plain[t].re, by_column[t].re) << p << " " << t;
      EXPECT_EQ(plain[t].im, by_column[t].im) << p << " " << t;
    }
  }
}

TEST(GpuPasses, P2MByColumnsEqualsP2M) {
  const int p = 12, ncomp = 3, nt = term_count(p);
  const auto y = points(50, 0.4, 11);
  const auto q = make_uniform(3 * 50, -1, 1, 12);
  std::vector<C> plain(static_cast<std::size_t>(ncomp * nt)), columns(plain.size());
  for (std::size_t i = 0; i < y.size(); ++i) {
    const double qi[3] = {q[i], q[50 + i], q[100 + i]};
    p2m(p, ncomp, y[i], qi, plain.data(), nt);
  }
  for (int m = 0; m < p; ++m) {  // thread m of the P2M kernel
    C acc[3][max_order] = {};
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double qi[3] = {q[i], q[50 + i], q[100 + i]};
      for_each_regular_in_column(p, m, y[i], norm2(y[i]), regular_diagonal(m, y[i]), [&](int n, int, C r) {
        for (int c = 0; c < ncomp; ++c) acc[c][n - m] += qi[c] * conj(r);
      });
    }
    for (int c = 0; c < ncomp; ++c)
      for (int n = m; n < p; ++n) columns[static_cast<std::size_t>(c * nt + term(n, m))] = acc[c][n - m];
  }
  EXPECT_LT(relative_difference(columns, plain), 1e-15);
}

TEST(GpuPasses, L2PFromGradientExpansionsEqualsL2P) {
  for (int p : {1, 2, 8, 16}) {
    const int nt = term_count(p);
    Random rng(13 + p);
    std::vector<C> L(static_cast<std::size_t>(nt)), gx(L.size()), gy(L.size()), gz(L.size());
    for (int n = 0; n < p; ++n)
      for (int m = 0; m <= n; ++m)
        L[static_cast<std::size_t>(term(n, m))] = {rng.uniform(-1, 1), m == 0 ? 0.0 : rng.uniform(-1, 1)};
    for (int t = 0; t < nt; ++t) gradient_expansion_term(p, t, L.data(), gx.data(), gy.data(), gz.data());
    for (const Vec3d& v : points(20, 0.8, 14)) {
      LocalField<double> plain, staged;
      l2p<1>(p, 1, v, L.data(), nt, &plain);
      l2p_with_gradient(p, v, L.data(), gx.data(), gy.data(), gz.data(), staged);
      const double scale = 1 + std::abs(plain.value) + std::sqrt(norm2(plain.gradient));
      EXPECT_NEAR(staged.value, plain.value, 1e-14 * scale) << p;
      for (int a = 0; a < 3; ++a) EXPECT_NEAR(staged.gradient[a], plain.gradient[a], 1e-14 * scale) << p;
    }
  }
}

TEST(GpuPasses, CoefficientsOfM2MAndL2LAreTheOperators) {
  // m2m() and l2l() are built from m2m_coefficient and l2l_coefficient; this checks those against translations
  // computed independently: M2M against P2M about the new centre, L2L against re-expanding a point source.
  const int p = 10, nt = term_count(p);
  const auto y = points(30, 0.3, 15);
  const auto q = make_uniform(30, -1, 1, 16);
  const Vec3d d{0.11, -0.07, 0.05};  // child centre - parent centre
  std::vector<C> child(static_cast<std::size_t>(nt)), parent(child.size()), direct_parent(child.size());
  for (std::size_t i = 0; i < y.size(); ++i) {
    p2m(p, 1, y[i], &q[i], child.data(), nt);
    p2m(p, 1, y[i] + d, &q[i], direct_parent.data(), nt);
  }
  std::vector<C> R(child.size());
  regular_harmonics(p, d, R.data());
  for (int n = 0; n < p; ++n)
    for (int m = 0; m <= n; ++m)
      parent[static_cast<std::size_t>(term(n, m))] = m2m_coefficient(p, n, m, child.data(), R.data());
  EXPECT_LT(relative_difference(parent, direct_parent), 1e-13);
  // L2L: translating a local expansion to a nearby centre is exact for the truncated polynomial, so the
  // translated expansion gives the same value and gradient as the original at any point.
  std::vector<C> Lp(child.size()), Lc(child.size());
  Random rng(17);
  for (int n = 0; n < p; ++n)
    for (int m = 0; m <= n; ++m)
      Lp[static_cast<std::size_t>(term(n, m))] = {rng.uniform(-1, 1), m == 0 ? 0.0 : rng.uniform(-1, 1)};
  for (int k = 0; k < p; ++k)
    for (int l = 0; l <= k; ++l)
      Lc[static_cast<std::size_t>(term(k, l))] = l2l_coefficient(p, k, l, Lp.data(), R.data());
  const Vec3d x{0.05, 0.02, -0.04};
  LocalField<double> a, b;
  l2p<1>(p, 1, x + d, Lp.data(), nt, &a);  // x relative to the child is x + d relative to the parent
  l2p<1>(p, 1, x, Lc.data(), nt, &b);
  EXPECT_NEAR(a.value, b.value, 1e-13 * (1 + std::abs(a.value)));
  for (int ax = 0; ax < 3; ++ax)
    EXPECT_NEAR(a.gradient[ax], b.gradient[ax], 1e-12 * (1 + std::sqrt(norm2(a.gradient))));
}

}  // namespace
}  // namespace loom::fmm
