// gr::CpuOperators (the derivatives and the filter split by components over OpenMP threads, single-threaded
// BLAS) against the spectral toolkit's own Differentiator and apply_steps on one thread: the same values to
// rounding for 50 components on a shell, with 1, 2 and 3 threads (chunks of unequal size included).
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <vector>

#include "loom/gr/cpu_operators.hpp"
#include "loom/spectral/operations.hpp"
#include "loom/spectral/topology.hpp"

namespace loom::gr {
namespace {

TEST(CpuOperators, MatchTheToolkitOnAnyThreadCount) {
  const spectral::Shell shell(6, 7, 1.5, 4.0);
  const auto m = spectral::AngularMethod::separable;
  const Index n = shell.size(), components = 50;
  std::vector<double> u(static_cast<std::size_t>(components * n));
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = std::sin(0.37 * double(i)) + 0.01 * double(i % 97);
  spectral::OperatorCache cache;
  const spectral::Differentiator d(shell, m);
  std::vector<double> expected(3 * u.size()), filtered(u.size());
  d.logical_gradient(spectral::Strategy::reference, cache, components, u.data(), expected.data());
  const auto filter = shell.filter_steps(spectral::FilterSpec{}, m);
  spectral::apply_steps(spectral::Strategy::reference, cache, filter, components, u.data(), filtered.data());
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 3}) {
    omp_set_num_threads(threads);
    std::vector<std::vector<spectral::AxisOperator>> sequences;
    for (int j = 0; j < 3; ++j) sequences.push_back(shell.derivative_steps(j, m));
    sequences.push_back(filter);
    CpuOperators ops(std::move(sequences));
    EXPECT_EQ(ops.threads(), threads);
    std::vector<double> got(3 * u.size()), got_filter(u.size());
    for (int j = 0; j < 3; ++j) ops.apply(j, components, u.data(), got.data() + j * components * n);
    ops.apply(3, components, u.data(), got_filter.data());
    double worst = 0, worst_filter = 0;
    for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - expected[i]));
    for (std::size_t i = 0; i < u.size(); ++i)
      worst_filter = std::max(worst_filter, std::abs(got_filter[i] - filtered[i]));
    EXPECT_LT(worst, 1e-11) << threads << " threads";
    EXPECT_LT(worst_filter, 1e-12) << threads << " threads";
  }
  omp_set_num_threads(saved);
}

}  // namespace
}  // namespace loom::gr
