// core::parallel_for and parallel_sum on every backend present, with Array pointers for the backend's side.
// Compiled by nvcc in CUDA builds (loom_backend_sources), so the CUDA case runs real kernels.
#include <gtest/gtest.h>

#include <cmath>

#include "backends.hpp"
#include "loom/core/array.hpp"
#include "loom/core/parallel_for.hpp"

namespace loom::core {
namespace {

class ParallelFor : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override { test::skip_unless_available(GetParam()); }
};

TEST_P(ParallelFor, EveryIndexVisitedOnce) {
  const Backend b = GetParam();
  const Index n = 1'000'003;  // not a multiple of any block size
  Array<int> count(static_cast<std::size_t>(n), 0);
  int* c = count.read_write(where(b));
  parallel_for(b, n, [=] LOOM_HOST_DEVICE(Index i) { c[i] += 1; });
  const auto h = count.host();
  Index wrong = 0;
  for (Index i = 0; i < n; ++i) wrong += h[static_cast<std::size_t>(i)] != 1;
  EXPECT_EQ(wrong, 0);
}

TEST_P(ParallelFor, AxpyMatchesHostFormula) {
  const Backend b = GetParam();
  const std::size_t n = 100'000;
  Array<double> x(n), y(n);
  {
    double* hx = x.write(Where::host);
    double* hy = y.write(Where::host);
    for (std::size_t i = 0; i < n; ++i) {
      hx[i] = std::sin(0.001 * double(i));
      hy[i] = 1.0 / (1.0 + double(i));
    }
  }
  const double a = 2.5;
  const double* px = x.read(where(b));
  double* py = y.read_write(where(b));
  parallel_for(b, Index(n), [=] LOOM_HOST_DEVICE(Index i) { py[i] = a * px[i] + py[i]; });
  const auto h = y.host();
  for (std::size_t i = 0; i < n; i += 997)
    EXPECT_DOUBLE_EQ(h[i], a * std::sin(0.001 * double(i)) + 1.0 / (1.0 + double(i)));
}

TEST_P(ParallelFor, SumOfKnownSeries) {
  const Backend b = GetParam();
  const Index n = 2'000'000;
  // sum of i for i < n, exactly representable
  const double s = parallel_sum(b, n, [=] LOOM_HOST_DEVICE(Index i) { return double(i); });
  EXPECT_EQ(s, 0.5 * double(n) * double(n - 1));
  // Basel series partial sum against its closed-form tail bound
  const double basel = parallel_sum(b, n, [=] LOOM_HOST_DEVICE(Index i) { return 1.0 / double((i + 1) * (i + 1)); });
  EXPECT_NEAR(basel, M_PI * M_PI / 6 - 1.0 / double(n), 1e-12);
}

TEST_P(ParallelFor, SumIsReproducible) {
  const Backend b = GetParam();
  const Index n = 777'777;
  Array<double> v(static_cast<std::size_t>(n));
  double* h = v.write(Where::host);
  for (Index i = 0; i < n; ++i) h[i] = std::cos(double(i)) * 1e-3 + 1.0 / double(i + 1);
  const double* p = v.read(where(b));
  const double first = parallel_sum(b, n, [=] LOOM_HOST_DEVICE(Index i) { return p[i]; });
  for (int r = 0; r < 3; ++r) EXPECT_EQ(parallel_sum(b, n, [=] LOOM_HOST_DEVICE(Index i) { return p[i]; }), first);
}

TEST_P(ParallelFor, MaxFindsTheLargestValue) {
  const Backend b = GetParam();
  const Index n = 1'234'567, peak = 987'654;
  const double m = parallel_max(b, n, [=] LOOM_HOST_DEVICE(Index i) {
    return i == peak ? 5.5 : std::sin(double(i));  // |sin| <= 1 elsewhere
  });
  EXPECT_EQ(m, 5.5);
  EXPECT_EQ(parallel_max(b, 0, [=] LOOM_HOST_DEVICE(Index) { return 1.0; }), -HUGE_VAL);
}

TEST_P(ParallelFor, EmptyRangeDoesNothing) {
  const Backend b = GetParam();
  EXPECT_EQ(parallel_sum(b, 0, [=] LOOM_HOST_DEVICE(Index) { return 1.0; }), 0.0);
  parallel_for(b, 0, [=] LOOM_HOST_DEVICE(Index) {});
}

LOOM_INSTANTIATE_FOR_BACKENDS(ParallelFor);

}  // namespace
}  // namespace loom::core
