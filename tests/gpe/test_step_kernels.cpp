// The step-kernel interface (kernels/step_kernel.hpp, registry.hpp) on the CPU: the registry's names, parsing and
// choices, and each CPU variant stepping a lattice in two ranges of layers equal to one step over all layers (what
// a rank's slab does: edges, then the interior), against the Hamiltonian's own formula written out here.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "gpe/gpe_fixtures.hpp"
#include "gpe/relative_difference.hpp"
#include "loom/core/error.hpp"
#include "loom/gpe/kernels/registry.hpp"

namespace loom::gpe {
namespace {

TEST(StepKernelRegistry, NamesAreUniqueAndParseBack) {
  const std::vector<std::string> names = leapfrog_kernel_names();
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (LeapfrogKernel k : leapfrog_kernels(core::Backend::cuda)) {
    if (!runs_on_cpu(k)) continue;  // CUDA-only names parse only in a CUDA build
    EXPECT_EQ(parse_leapfrog_kernel(to_string(k)), k);
  }
  EXPECT_EQ(leapfrog_kernels(core::Backend::cuda).size(), names.size());
}

TEST(StepKernelRegistry, CpuChoicesAreTheVariantsWithACpuLoop) {
  for (LeapfrogKernel k : leapfrog_kernels(core::Backend::cpu)) EXPECT_TRUE(runs_on_cpu(k)) << to_string(k);
  EXPECT_EQ(leapfrog_kernels(core::Backend::cpu),
            (std::vector<LeapfrogKernel>{LeapfrogKernel::plain, LeapfrogKernel::soa}));
}

TEST(StepKernelRegistry, UnknownNameNamesTheKeyAndEveryChoice) {
  try {
    parse_leapfrog_kernel("fast", "kernel");
    FAIL() << "no exception";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "kernel = \"fast\": expected one of plain, tuned, shared, soa, march");
  }
}

TEST(StepKernelRegistry, CudaOnlyVariantRefusedOnTheCpu) {
  const auto p = test::make_problem(dec::GridType::bcc, 1.0, 100.0, 1, 0.5);
  const KernelContext context{
      core::Backend::cpu, &p.domain, p.domain.hamiltonian(core::Where::host, {1.0, 100.0}), {}, {}};
  EXPECT_THROW(make_step_kernel(LeapfrogKernel::march, context), Error);
  EXPECT_NO_THROW(make_step_kernel(LeapfrogKernel::soa, context));
}

// One leapfrog step written out from the Hamiltonian: other_i - 2 i dt (M now)_i, eq. (7).
std::vector<Complex> reference_step(const Hamiltonian& h, const std::vector<Complex>& now, std::vector<Complex> other,
                                    double dt) {
  for (Index i = 0; i < h.lattice.size(); ++i) {
    const Complex m = h.apply(now.data(), i);
    other[std::size_t(i)] = other[std::size_t(i)] - (2 * dt) * Complex{-m.im, m.re};
  }
  return other;
}

TEST(StepKernels, TwoLayerRangesEqualOneStepOfTheFormula) {
  for (dec::GridType grid : {dec::GridType::cubic, dec::GridType::fcc, dec::GridType::a15}) {
    auto p = test::make_problem(grid, 1.0, 100.0, 1, 0.6);
    const Hamiltonian h = p.domain.hamiltonian(core::Where::host, {1.0, 100.0});
    const KernelContext context{core::Backend::cpu, &p.domain, h, {}, {}};
    const auto psi = p.psi0.host();
    const std::vector<Complex> now(psi.begin(), psi.end());
    std::vector<Complex> before(now.size());
    for (std::size_t i = 0; i < now.size(); ++i) before[i] = 0.9 * now[i] + Complex{0, 0.1} * now[(i * 7) % now.size()];
    const double dt = 1e-2;
    const std::vector<Complex> expected = reference_step(h, now, before, dt);
    const int nz = p.domain.lattice.nz, split = nz / 3;
    for (LeapfrogKernel k : leapfrog_kernels(core::Backend::cpu)) {
      auto kernel = make_step_kernel(k, context);
      EXPECT_EQ(kernel->row_pitch(), p.domain.lattice.nx * p.domain.lattice.cells);
      std::vector<Complex> other = before;
      kernel->step(now.data(), other.data(), dt, {split, nz - split}, nullptr);
      kernel->step(now.data(), other.data(), dt, {0, split}, nullptr);
      // A step changes psi by ~2 dt |M psi| ~ 1e-1 of its largest value: one range left out would show.
      EXPECT_LT(loom::test::max_relative_difference(other, expected), 1e-13)
          << dec::to_string(grid) << " " << to_string(k);
    }
  }
}

}  // namespace
}  // namespace loom::gpe
