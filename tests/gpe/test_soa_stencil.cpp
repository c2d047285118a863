// The structure-of-arrays stencil of the soa kernel, evaluated on the host: the same (M psi)_i as the
// Hamiltonian's formula at every vertex of every grid, boundaries included.
#include <gtest/gtest.h>

#include <cmath>

#include "gpe/gpe_fixtures.hpp"
#include "loom/gpe/kernels/soa_stencil.hpp"

namespace loom::gpe {
namespace {

TEST(SoaStencil, SameOperatorAsTheHamiltonianOnEveryGrid) {
  for (dec::GridType grid : dec::all_grid_types()) {
    const auto domain = make_lattice_domain(grid, 0.7, 3, 4, 2);
    const Hamiltonian h = domain.hamiltonian(core::Where::host, {0.8, 40.0});
    const SoaStencil soa(domain.stencil, domain.lattice);
    const SoaStencilView t = soa.view(core::Where::host);
    EXPECT_EQ(t.faces, domain.stencil.max_faces());
    const Index n = domain.dof();
    std::vector<Complex> psi(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) psi[std::size_t(i)] = {std::sin(0.3 * double(i)) + 0.2, std::cos(0.7 * double(i))};
    double worst = 0;
    for (Index i = 0; i < n; ++i) {
      const Complex expected = h.apply(psi.data(), i);
      const Complex got = soa_apply<0>(t, domain.lattice, domain.origin, {0.8, 40.0}, psi.data(), i,
                                       domain.lattice.local(i), domain.lattice.instance(i));
      worst = std::max(worst, core::abs(got - expected) / (1 + core::abs(expected)));
    }
    EXPECT_LT(worst, 1e-13) << dec::to_string(grid);
  }
}

}  // namespace
}  // namespace loom::gpe
