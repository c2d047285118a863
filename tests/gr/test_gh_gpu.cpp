// The GH evolution on the GPU (the whole step on the device: spectral derivatives and filters by the fused
// strategy, the pointwise right-hand side and the boundary slices as CUDA kernels) against the CPU (OpenBLAS)
// after 100 steps from the same Kerr-Schild data: the states agree to rounding, and no state array crosses the
// bus while stepping; with the frozen and with the Bjorhus outer boundary. Skips without a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "loom/gr/dormand_prince.hpp"
#include "loom/gr/gh_system.hpp"
#include "loom/spectral/spin_filter.hpp"

namespace loom::gr {
namespace {

bool same(core::TransferCounts a, core::TransferCounts b) {
  return a.host_to_device == b.host_to_device && a.device_to_host == b.device_to_host;
}

void hundred_steps_agree(OuterBoundary outer, InterfaceCoupling interface, FilterTarget target = FilterTarget::step,
                         std::vector<spectral::RadialMap> maps = {},
                         spectral::AngularFilter angular = spectral::AngularFilter::scalar, int l_keep = -1) {
  const KerrSchild hole{1.0, {0.2, 0.3, 0.4}};
  GhGeometry geometry{{10, 19, 38}, {1.62, 6, 12}, outer};
  geometry.interface = interface;
  geometry.filter_target = target;
  geometry.maps = std::move(maps);
  geometry.angular_filter = angular;
  spectral::FilterSpec filter;
  filter.l_keep = l_keep;
  GhSystem cpu(hole, geometry, filter, core::Backend::cpu), gpu(hole, geometry, filter, core::Backend::cuda);
  State u_cpu = cpu.exact_state(), u_gpu = gpu.exact_state();
  DormandPrince step_cpu(cpu), step_gpu(gpu);
  const double dt = 0.25 * cpu.smallest_spacing();
  step_gpu.step(u_gpu, dt);  // the first step uploads the fixed fields and the matrices
  step_cpu.step(u_cpu, dt);
  std::vector<core::TransferCounts> before;
  for (const auto& a : u_gpu) before.push_back(a.transfers());
  for (int i = 1; i < 100; ++i) {
    step_cpu.step(u_cpu, dt);
    step_gpu.step(u_gpu, dt);
  }
  for (std::size_t s = 0; s < u_gpu.size(); ++s) EXPECT_TRUE(same(u_gpu[s].transfers(), before[s])) << "shell " << s;
  double largest = 0, difference = 0;
  for (std::size_t s = 0; s < u_cpu.size(); ++s) {
    const double* a = u_cpu[s].read(core::Where::host);
    const double* b = u_gpu[s].read(core::Where::host);
    for (std::size_t i = 0; i < u_cpu[s].size(); ++i) {
      largest = std::max(largest, std::abs(a[i]));
      difference = std::max(difference, std::abs(a[i] - b[i]));
    }
  }
  EXPECT_LT(difference, 1e-10 * largest);
  const Norms n_cpu = cpu.norms(u_cpu), n_gpu = gpu.norms(u_gpu);
  EXPECT_NEAR(n_gpu.normalized, n_cpu.normalized, 1e-9 * n_cpu.normalized);
  EXPECT_NEAR(n_gpu.psi_error, n_cpu.psi_error, 1e-9 * n_cpu.psi_error);
}

TEST(GhGpu, HundredStepsAgreeWithTheCpu) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  hundred_steps_agree(OuterBoundary::frozen, InterfaceCoupling::upwind);
}

// The penalty interface and outer boundary (penalty_merge, the defaults) on both backends.
TEST(GhGpu, HundredStepsWithPenaltiesAgreeWithTheCpu) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  hundred_steps_agree(OuterBoundary::penalty, InterfaceCoupling::penalty);
}

// The filter on every stage's rates or states (filter.target) on both backends.
TEST(GhGpu, HundredStepsFilteringRatesOrStagesAgreeWithTheCpu) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  hundred_steps_agree(OuterBoundary::penalty, InterfaceCoupling::penalty, FilterTarget::rates);
  hundred_steps_agree(OuterBoundary::penalty, InterfaceCoupling::penalty, FilterTarget::stage);
}

// Both shells on the inverse radial map (its Jacobian and end weights are host arrays both backends read).
TEST(GhGpu, HundredStepsOnTheInverseMapAgreeWithTheCpu) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  hundred_steps_agree(OuterBoundary::penalty, InterfaceCoupling::penalty, FilterTarget::step,
                      {spectral::RadialMap::inverse, spectral::RadialMap::inverse});
}

// The Bjorhus outer boundary (bjorhus.hpp) from the same per-point function on both backends.
// The tensor (spin-weighted) angular filter: the same loops on both backends (spin_filter.cpp).
TEST(GhGpu, HundredStepsWithTheTensorFilterAgreeWithTheCpu) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  hundred_steps_agree(OuterBoundary::penalty, InterfaceCoupling::penalty, FilterTarget::step,
                      {spectral::RadialMap::inverse}, spectral::AngularFilter::tensor);
  hundred_steps_agree(OuterBoundary::penalty, InterfaceCoupling::penalty, FilterTarget::step,
                      {spectral::RadialMap::inverse}, spectral::AngularFilter::tensor, 15);
}

TEST(GhGpu, HundredStepsWithBjorhusAgreeWithTheCpu) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  hundred_steps_agree(OuterBoundary::bjorhus, InterfaceCoupling::penalty);
}

// The GPU filter against the CPU's on a state with every angular mode excited (Kerr-Schild times 1 + 0.01
// sin(37 p) over the points p): scalar (SpectralFilter::apply, the whole 50-component state in one fused sweep,
// its radial step the identity at alpha = 0, against CpuOperators' steps one after the other) and tensor (the
// radial step, then SpinFilter's loops on either backend).
void filters_agree(spectral::AngularFilter angular) {
  const KerrSchild hole{1.0, {0.2, 0.3, 0.4}};
  GhGeometry geometry{{10, 19, 38}, {1.62, 6, 12}};
  geometry.angular_filter = angular;
  GhSystem cpu(hole, geometry, {}, core::Backend::cpu), gpu(hole, geometry, {}, core::Backend::cuda);
  State u_cpu = cpu.exact_state(), u_gpu = gpu.exact_state();
  for (std::size_t s = 0; s < u_cpu.size(); ++s) {
    double* a = u_cpu[s].read_write(core::Where::host);
    double* b = u_gpu[s].read_write(core::Where::host);
    for (std::size_t i = 0; i < u_cpu[s].size(); ++i) b[i] = a[i] *= 1 + 0.01 * std::sin(37.0 * double(i));
  }
  State before;
  for (const auto& a : u_cpu) before.push_back(a.clone());
  cpu.filter(u_cpu);
  gpu.filter(u_gpu);
  double largest = 0, difference = 0, change = 0;
  for (std::size_t s = 0; s < u_cpu.size(); ++s) {
    const double* a = u_cpu[s].read(core::Where::host);
    const double* b = u_gpu[s].read(core::Where::host);
    const double* e = before[s].read(core::Where::host);
    for (std::size_t i = 0; i < u_cpu[s].size(); ++i) {
      largest = std::max(largest, std::abs(a[i]));
      difference = std::max(difference, std::abs(a[i] - b[i]));
      change = std::max(change, std::abs(a[i] - e[i]));
    }
  }
  EXPECT_GT(change, 1e-3 * largest) << "the filter must act on this state";
  EXPECT_LT(difference, 1e-12 * largest);
}

TEST(GhGpu, FusedFilterEqualsTheStepByStepFilter) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  filters_agree(spectral::AngularFilter::scalar);
}

TEST(GhGpu, TheTensorFilterAgreesWithTheCpu) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  filters_agree(spectral::AngularFilter::tensor);
}

// SpinFilter alone at the paper's size on the 50 GH components: the device's ring kernel (a block per ring set,
// direct phi sums in shared memory, one triad field per class) against the host's FFTW ring form and against
// the five-loop direct form (every triad field) on both sides; random data, l_keep 15 (the default l_max - 3)
// and 18 (l_max).
TEST(GhGpu, TheTensorFilterRingKernelEqualsTheDirectFormAndTheCpu) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  const spectral::Shell shell(10, 19, 1.62, 6);
  std::vector<spectral::SpatialBlock> blocks;
  for (auto [kind, offset] : {std::pair{spectral::TensorKind::aa, 0}, std::pair{spectral::TensorKind::aa, 10},
                              std::pair{spectral::TensorKind::iaa, 20}})
    for (auto& b : spectral::spatial_blocks(spectral::shape_of(kind), offset)) blocks.push_back(std::move(b));
  std::vector<double> f(static_cast<std::size_t>(50 * shell.size()));
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = std::sin(37.0 * double(i)) + 0.5 * std::cos(0.11 * double(i));
  for (int l_keep : {15, 18}) {
    const spectral::SpinFilter filter(shell, l_keep, blocks, 50);
    auto run = [&](core::Backend backend, bool direct) {
      auto a = core::Array<double>::from(f);
      double* x = a.read_write(core::where(backend));
      direct ? filter.apply_direct(backend, x) : filter.apply(backend, x);
      const double* h = a.read(core::Where::host);
      return std::vector<double>(h, h + f.size());
    };
    const auto gpu = run(core::Backend::cuda, false), reference = run(core::Backend::cpu, true);
    const auto cpu = run(core::Backend::cpu, false), gpu_direct = run(core::Backend::cuda, true);
    double largest = 0, change = 0, to_cpu = 0, to_reference = 0, direct_to_reference = 0;
    for (std::size_t i = 0; i < f.size(); ++i) {
      largest = std::max(largest, std::abs(reference[i]));
      change = std::max(change, std::abs(reference[i] - f[i]));
      to_cpu = std::max(to_cpu, std::abs(gpu[i] - cpu[i]));
      to_reference = std::max(to_reference, std::abs(gpu[i] - reference[i]));
      direct_to_reference = std::max(direct_to_reference, std::abs(gpu_direct[i] - reference[i]));
    }
    EXPECT_GT(change, 0.1 * largest) << l_keep;
    EXPECT_LT(to_cpu, 1e-13 * largest) << l_keep;
    EXPECT_LT(to_reference, 1e-13 * largest) << l_keep;
    EXPECT_LT(direct_to_reference, 1e-13 * largest) << l_keep;
  }
}

}  // namespace
}  // namespace loom::gr
