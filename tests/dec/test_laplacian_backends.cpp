// The DEC Laplacian through core::parallel_for on every backend present (compiled by nvcc in CUDA builds, so the
// CUDA case runs the LOOM_HOST_DEVICE formula in a kernel), against the same formula in a plain host loop.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "backends.hpp"
#include "loom/core/array.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/dec/laplacian.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/dec/stencil.hpp"

namespace loom::dec {
namespace {

class LaplacianBackends : public ::testing::TestWithParam<core::Backend> {
 protected:
  void SetUp() override { test::skip_unless_available(GetParam()); }
};

TEST_P(LaplacianBackends, MatchesTheHostLoopOnEveryGrid) {
  const core::Backend b = GetParam();
  for (GridType grid : all_grid_types()) {
    const auto& s = replicable_structure(grid);
    const Stencil stencil(s);
    for (bool periodic : {true, false}) {
      const StructureLattice lattice{s.cell_count(), 3, 2, 4, periodic};
      const std::size_t n = static_cast<std::size_t>(lattice.size());
      core::Array<double> psi(n), out(n);
      {
        double* h = psi.write(core::Where::host);
        for (std::size_t i = 0; i < n; ++i) h[i] = std::sin(0.37 * double(i)) + 0.1 * double(i % 7);
      }
      const StencilView view = stencil.view(core::where(b));
      const double* p = psi.read(core::where(b));
      double* o = out.write(core::where(b));
      core::parallel_for(b, lattice.size(), [=] LOOM_HOST_DEVICE(Index i) { o[i] = laplacian(view, lattice, p, i); });
      const auto result = out.host();
      const StencilView host = stencil.view(core::Where::host);
      const double* hp = psi.read(core::Where::host);
      for (std::size_t i = 0; i < n; ++i) {
        const double expected = laplacian(host, lattice, hp, Index(i));
        EXPECT_NEAR(result[i], expected, 1e-12 * (1 + std::abs(expected))) << to_string(grid) << " " << i;
      }
    }
  }
}

LOOM_INSTANTIATE_FOR_BACKENDS(LaplacianBackends);

}  // namespace
}  // namespace loom::dec
