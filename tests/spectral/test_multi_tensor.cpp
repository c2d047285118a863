// Several tensors in one call (issue 18): the fused shell route's gradient and filter of a list of tensors (the
// GH state's T_aa, T_iaa, T_aa) against the FFT reference applied to each tensor alone, by the dense Y_lm route:
// the route's CPU form (the arithmetic the GPU kernels run) here, and the GPU form where a device is present.
#include <gtest/gtest.h>

#include <cmath>

#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/spectral/operations.hpp"
#include "loom/spectral/shell_batch.hpp"
#include "loom/spectral/workload.hpp"
#include "spectral/gh_fields.hpp"
#include "spectral/random_fields.hpp"

namespace loom::spectral {
namespace {

using fields::random_array;
using namespace gh;

// Each tensor filtered alone by the FFT reference.
std::vector<core::Array<double>> reference_filtered(const SpectralFilter& dense, const Fields& f) {
  OperatorCache cache;
  std::vector<core::Array<double>> out;
  for (const Tensor& t : f.tensors) {
    Tensor copy(t.shape, t.points);
    copy.data = t.data.clone();
    core::Array<double> scratch(t.components() * t.points);
    dense.apply(Strategy::reference, cache, copy, scratch);
    out.push_back(std::move(copy.data));
  }
  return out;
}

class MultiTensor : public ::testing::TestWithParam<AngularMethod> {};

TEST_P(MultiTensor, FusedGradientCpuFormEqualsTheReferencePerTensor) {
  Shell s(6, 7, 1.5, 4);
  const Index n = s.size();
  auto f = gh_fields(n);
  const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
  const auto ref = reference_gradients(s, f, ij);
  const Differentiator d(s, GetParam());
  ASSERT_NE(d.fused(), nullptr);
  OperatorCache cache;
  auto out = outputs(f, 3);
  std::vector<double> scratch(2 * f.components * n);
  cpu::shell_gradient(d.fused()->plan(cache, core::Where::host), host_map(f.tensors, &out), ij.read(core::Where::host),
                      scratch.data());
  for (std::size_t t = 0; t < out.size(); ++t) EXPECT_LT(relative_difference(ref[t], out[t]), 1e-12) << t;
}

TEST_P(MultiTensor, BlasListAndBlockEqualTheReferencePerTensor) {
  Shell s(5, 6, 1, 3);
  const Index n = s.size();
  const auto f = gh_fields(n);
  const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
  const auto ref = reference_gradients(s, f, ij);
  const Differentiator d(s, GetParam());
  OperatorCache cache;
  core::Array<double> scratch(d.gradient_scratch(f.components));
  auto out = outputs(f, 3);
  d.cartesian_gradient(Strategy::blas, cache, ij, f.in, scratch, pointers(out));
  for (std::size_t t = 0; t < out.size(); ++t) EXPECT_LT(relative_difference(ref[t], out[t]), 1e-12) << t;

  // the same tensors as one contiguous block: block i of component c of tensor t at (i C + first_t + c) N
  core::Array<double> block(f.components * n), gradient(3 * f.components * n);
  double* b = block.write(core::Where::host);
  Index first = 0;
  for (const Tensor& t : f.tensors) {
    std::copy_n(t.data.read(core::Where::host), t.components() * n, b + first * n);
    first += t.components();
  }
  d.cartesian_gradient(Strategy::blas, cache, ij, f.components, block, scratch, gradient);
  const double* g = gradient.read(core::Where::host);
  first = 0;
  for (std::size_t t = 0; t < out.size(); ++t) {
    const Index ne = f.tensors[t].components();
    const double* r = ref[t].read(core::Where::host);
    double e = 0;
    for (int i = 0; i < 3; ++i)
      for (Index k = 0; k < ne * n; ++k)
        e = std::max(e, std::abs(g[(i * f.components + first) * n + k] - r[i * ne * n + k]));
    EXPECT_LT(e, 1e-11) << t;
    first += ne;
  }
}

TEST_P(MultiTensor, FusedFilterCpuFormEqualsTheReferencePerTensor) {
  Shell s(7, 8, 1, 3);
  const Index n = s.size();
  auto f = gh_fields(n);
  FilterSpec spec;
  spec.l_keep = 5;
  spec.alpha = 20;
  const SpectralFilter dense(s, spec, AngularMethod::dense), fused(s, spec, GetParam());
  ASSERT_NE(fused.fused(), nullptr);
  OperatorCache cache;
  const auto ref = reference_filtered(dense, f);
  std::vector<double> scratch(f.components * n);
  cpu::shell_filter(fused.fused()->plan(cache, core::Where::host), host_map(f.tensors, nullptr), scratch.data());
  for (std::size_t t = 0; t < ref.size(); ++t) EXPECT_LT(relative_difference(ref[t], f.tensors[t].data), 1e-12) << t;
}

// The GPU form: the fused list and block calls (and on the separable route the batched GEMM route) against the
// same reference (skipped without a device).
TEST_P(MultiTensor, FusedGpuEqualsTheReferencePerTensor) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  Shell s(10, 19, 1.62, 6);  // SpEC's production shell
  const Index n = s.size();
  auto f = gh_fields(n);
  const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
  const auto ref = reference_gradients(s, f, ij);
  const Differentiator d(s, GetParam());
  ASSERT_TRUE(d.supports(Strategy::fused));
  OperatorCache cache;
  core::Array<double> scratch(d.gradient_scratch(f.components));
  auto out = outputs(f, 3);
  d.cartesian_gradient(Strategy::fused, cache, ij, f.in, scratch, pointers(out));
  for (std::size_t t = 0; t < out.size(); ++t) EXPECT_LT(relative_difference(ref[t], out[t]), 1e-12) << t;
  // the separable GEMM route (batched strategy), twice: the second call reuses its buffers and pointer lists
  for (int call = 0; call < 2 && GetParam() == AngularMethod::separable; ++call) {
    for (auto& o : out) {  // NaN on the device, so a value the route does not write fails the comparison
      o = core::Array<double>(o.size(), std::nan(""));
      o.read(core::Where::device);
    }
    d.cartesian_gradient(Strategy::batched, cache, ij, f.in, scratch, pointers(out));
    for (std::size_t t = 0; t < out.size(); ++t) EXPECT_LT(relative_difference(ref[t], out[t]), 1e-12) << "gemm " << t;
  }

  FilterSpec spec;
  const SpectralFilter dense(s, spec, AngularMethod::dense), fused(s, spec, GetParam());
  const auto filtered = reference_filtered(dense, f);
  fused.apply(Strategy::fused, cache, f.in_mut, scratch);
  for (std::size_t t = 0; t < filtered.size(); ++t)
    EXPECT_LT(relative_difference(filtered[t], f.tensors[t].data), 1e-12) << "filter " << t;
}

// The separable route as four GEMM batches and the chain rule (separable_gemm.hpp, the batched strategy's
// route) run by the CPU loops: the Cartesian gradient of the three tensors in one call against the FFT reference
// per tensor, and the logical gradient of the same components as one block against the reference's logical
// gradient of that block.
TEST(MultiTensorSeparable, GemmRouteCpuFormEqualsTheReferencePerTensor) {
  Shell s(6, 7, 1.5, 4);
  const Index n = s.size();
  auto f = gh_fields(n);
  const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
  const auto ref = reference_gradients(s, f, ij);
  const Differentiator d(s, AngularMethod::separable), dense(s, AngularMethod::dense);
  OperatorCache cache;
  const auto route = sweep::separable_route(d.fused()->plan(cache, core::Where::host));
  ASSERT_TRUE(route);
  const SeparableGemm gemm;
  auto out = outputs(f, 3);
  std::vector<double> work(3 * f.components * n);
  gemm.gradient(*route, host_map(f.tensors, &out), ij.read(core::Where::host), work.data(), core::Where::host);
  for (std::size_t t = 0; t < out.size(); ++t) EXPECT_LT(relative_difference(ref[t], out[t]), 1e-12) << t;

  core::Array<double> block(f.components * n), logical(3 * f.components * n), expected(3 * f.components * n);
  double* b = block.write(core::Where::host);
  for (const Tensor& t : f.tensors) b = std::copy_n(t.data.read(core::Where::host), t.components() * n, b);
  const double* u = block.read(core::Where::host);
  dense.logical_gradient(Strategy::reference, cache, f.components, u, expected.write(core::Where::host));
  gemm.gradient(*route, component_map(u, logical.write(core::Where::host), f.components), nullptr, work.data(),
                core::Where::host);
  EXPECT_LT(relative_difference(expected, logical), 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Angular, MultiTensor, ::testing::Values(AngularMethod::separable, AngularMethod::dense),
                         [](const auto& p) { return std::string(to_string(p.param)); });

// The separable route's two passes with every q group size (the shared-memory budget sets it: 8 q's per spectral
// block down to 1, groups that do not divide N_phi = 14, theta tiles that do not divide N_theta = 7), gradient
// and filter, against the FFT reference per tensor; the dense angular plan is not taken for that route.
TEST(MultiTensorSeparable, EveryGroupSizeEqualsTheReferencePerTensor) {
  Shell s(6, 7, 1.5, 4);
  const Index n = s.size();
  auto f = gh_fields(n);
  const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
  const auto ref = reference_gradients(s, f, ij);
  FilterSpec spec;
  spec.l_keep = 4;
  spec.alpha = 20;
  const auto filtered = reference_filtered(SpectralFilter(s, spec, AngularMethod::dense), f);
  const Differentiator d(s, AngularMethod::separable), dense(s, AngularMethod::dense);
  const SpectralFilter filter(s, spec, AngularMethod::separable);
  OperatorCache cache;
  EXPECT_FALSE(sweep::separable_route(dense.fused()->plan(cache, core::Where::host)));
  const ShellGradientPlan gradient_plan = d.fused()->plan(cache, core::Where::host);
  const ShellGradientPlan filter_plan = filter.fused()->plan(cache, core::Where::host);
  const Index lines = 6 * 7, square = 7 * 7;
  for (Index group : {8, 4, 2, 1}) {
    const auto budget = [&](Index copies, Index sequences) {
      return group * (lines * copies + sequences * square) * Index{sizeof(double)};
    };
    const auto g = sweep::separable_route(gradient_plan, budget(1, 2));
    const auto q = sweep::separable_route(filter_plan, budget(2, 1));
    ASSERT_TRUE(g && q);
    ASSERT_EQ(g->group, group);
    ASSERT_EQ(q->group, group);
    ASSERT_FALSE(g->filter);
    ASSERT_TRUE(q->filter);
    auto out = outputs(f, 3);
    std::vector<double> scratch(2 * f.components * n);
    sweep::separable_cpu(*g, host_map(f.tensors, &out), ij.read(core::Where::host), scratch.data());
    for (std::size_t t = 0; t < out.size(); ++t) EXPECT_LT(relative_difference(ref[t], out[t]), 1e-12) << group;
    auto copy = outputs(f, 1);
    for (std::size_t t = 0; t < copy.size(); ++t)
      std::copy_n(f.tensors[t].data.read(core::Where::host), copy[t].size(), copy[t].write(core::Where::host));
    sweep::separable_cpu(*q, host_map(f.tensors, &copy), nullptr, scratch.data());
    for (std::size_t t = 0; t < copy.size(); ++t)
      EXPECT_LT(relative_difference(filtered[t], copy[t]), 1e-12) << "filter " << group;
  }
}

// A shell whose angular field is too large for the generic kernel's four shared buffers (4 x 3200 doubles) still
// has the fused separable route (2 q's per block), and it equals the reference; the dense route is refused.
TEST(MultiTensorSeparable, LargeAngularGridTakesTheSeparableRouteOnly) {
  Shell s(4, 40, 1.5, 4);
  const Index n = s.size();
  Tensor u(shape_of(TensorKind::a), n);
  u.data = random_array(u.components() * n, 11);
  const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
  OperatorCache cache;
  core::Array<double> ref(3 * u.components() * n), scratch(3 * u.components() * n);
  Differentiator(s, AngularMethod::separable).cartesian_gradient(Strategy::reference, cache, ij, u, scratch, ref);
  EXPECT_EQ(Differentiator(s, AngularMethod::dense).fused(), nullptr);
  const Differentiator d(s, AngularMethod::separable);
  ASSERT_NE(d.fused(), nullptr);
  const auto route = sweep::separable_route(d.fused()->plan(cache, core::Where::host));
  ASSERT_TRUE(route);
  EXPECT_EQ(route->group, 2);
  core::Array<double> out(3 * u.components() * n);
  std::vector<double> work(2 * u.components() * n);
  cpu::shell_gradient(d.fused()->plan(cache, core::Where::host),
                      component_map(u.data.read(core::Where::host), out.write(core::Where::host), u.components()),
                      ij.read(core::Where::host), work.data());
  EXPECT_LT(relative_difference(ref, out), 1e-12);
}

// `loom spectral --shells K`'s batch: every copy of the shell gets the gradient of one contiguous block of the
// tensors' components (here the GH state's 50) equal to the same shell's gradient alone, and close to the
// analytic gradient it is checked against; a shell left unwritten (its output zero) would show in error().
TEST(ShellBatch, EveryShellEqualsTheShellAloneAndTheExactGradient) {
  Shell s(10, 12, 1.5, 3);
  const std::vector<TensorKind> kinds{TensorKind::aa, TensorKind::iaa, TensorKind::aa};
  ShellBatch batch(s, kinds, 3, Strategy::blas, AngularMethod::separable);
  EXPECT_EQ(batch.components(), 50);
  batch.run();
  Workload alone(&s, 0, kinds, Operation::deriv, Strategy::blas, {}, AngularMethod::separable);
  alone.run();
  ASSERT_LT(alone.error(), 1e-4);
  EXPECT_NEAR(batch.error(), alone.error(), 1e-9 * alone.error());
  const Index n = s.size(), c = batch.components();
  Index first = 0;  // the first component of tensor t in the block
  for (std::size_t t = 0; t < kinds.size(); ++t) {
    const Index ne = shape_of(kinds[t]).components();
    const double* a = alone.result(t).read(core::Where::host);  // [(i N_e + c) N + p]
    for (int k = 0; k < batch.shells(); ++k) {
      const double* b = batch.result(k).read(core::Where::host);  // [(i C + c) N + p]
      double worst = 0;
      for (int i = 0; i < 3; ++i)
        for (Index q = 0; q < ne * n; ++q)
          worst = std::max(worst, std::abs(b[(i * c + first) * n + q] - a[i * ne * n + q]));
      EXPECT_LT(worst, 1e-12) << "tensor " << t << " shell " << k;
    }
    first += ne;
  }
  EXPECT_NEAR(batch.work().flops, 3 * alone.work().flops, 1e-9 * alone.work().flops);
}

TEST(ShellBatch, RefusesACubeAndNoShells) {
  const auto cube = make_topology("cube", {6, 6, 6}, {0, 0});
  EXPECT_THROW(ShellBatch(*cube, {TensorKind::a}, 2, Strategy::blas, AngularMethod::dense), UsageError);
  Shell s(6, 7, 1, 2);
  EXPECT_THROW(ShellBatch(s, {TensorKind::a}, 0, Strategy::blas, AngularMethod::dense), UsageError);
}

TEST(MultiTensorMap, RefusesMoreTensorsThanTheKernelTakes) {
  std::vector<const double*> in(sweep::ComponentMap::max_parts + 1, nullptr);
  std::vector<double*> out(in.size(), nullptr);
  std::vector<Index> comps(in.size(), 1);
  EXPECT_THROW(component_map(in, out, comps), UsageError);
  const auto map = component_map(std::span(in).first(3), std::span(out).first(3), std::span(comps).first(3));
  EXPECT_EQ(map.components(), 3);
  EXPECT_EQ(map.part(2), 2);
}

}  // namespace
}  // namespace loom::spectral
