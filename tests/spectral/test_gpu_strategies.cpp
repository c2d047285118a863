// Every GPU strategy equals the CPU reference on whole tensors, for the cube's and the shell's derivatives and
// filters (skipped without a CUDA device); the Cartesian gradient on the GPU equals the CPU one.
#include <gtest/gtest.h>

#include <deque>

#include "backends.hpp"
#include "loom/spectral/cluster_route.hpp"
#include "loom/spectral/operations.hpp"
#include "loom/spectral/s2_filter.hpp"
#include "loom/spectral/shell_batch.hpp"
#include "loom/spectral/workload.hpp"
#include "spectral/gh_fields.hpp"
#include "spectral/random_fields.hpp"

namespace loom::spectral {
namespace {

using fields::random_array;
using fields::random_values;

class SpectralGpuStrategy : public ::testing::TestWithParam<Strategy> {
 protected:
  void SetUp() override { test::skip_unless_available(core::Backend::cuda); }
};

TEST_P(SpectralGpuStrategy, EqualsTheReference) {
  const auto cube = make_topology("cube", {9, 8, 7}, {0, 0});
  const auto shell = make_topology("shell", {10, 8, 16}, {1, 3});
  const Index components = 10;
  for (const Topology* t : {cube.get(), shell.get()}) {
    std::vector<AxisOperator> ops;
    for (int j = 0; j < 3; ++j) ops.push_back(t->derivative(j));
    for (auto& op : t->filter(FilterSpec{})) ops.push_back(std::move(op));
    for (int j = 1; j < 3; ++j)
      for (auto& op : t->derivative_steps(j, AngularMethod::separable)) ops.push_back(std::move(op));
    OperatorCache cache;
    for (const auto& op : ops) {
      if (!supports(GetParam(), op)) continue;
      const auto in = random_array(op.shape.input_size() * components, 9);
      core::Array<double> ref(op.shape.output_size() * components), gpu(op.shape.output_size() * components);
      apply(Strategy::reference, cache, op, components, in.read(core::Where::host), ref.write(core::Where::host));
      apply(GetParam(), cache, op, components, in.read(core::Where::device), gpu.write(core::Where::device));
      const double *r = ref.read(core::Where::host), *g = gpu.read(core::Where::host);
      double scale = 1, e = 0;
      for (std::size_t i = 0; i < ref.size(); ++i) {
        scale = std::max(scale, std::abs(r[i]));
        e = std::max(e, std::abs(r[i] - g[i]));
      }
      EXPECT_LT(e, 1e-12 * scale) << op.key << " " << to_string(GetParam());
    }
  }
}

TEST_P(SpectralGpuStrategy, CartesianGradientEqualsTheCpu) {
  Shell s(6, 6, 1, 3);
  OperatorCache cache;
  const Index n = s.size();
  const auto jac = s.inverse_jacobian();
  const core::Array<double> ij = core::Array<double>::from(jac);
  Tensor u(shape_of(TensorKind::aa), n);
  u.data = random_array(10 * n, 4);
  core::Array<double> scratch(30 * n), cpu(30 * n), gpu(30 * n);
  cartesian_gradient(s, Strategy::blas, cache, ij, u, scratch, cpu);
  for (auto m : {AngularMethod::dense, AngularMethod::separable}) {
    if (!supports_gradient(s, GetParam(), m)) continue;
    cartesian_gradient(s, GetParam(), cache, ij, u, scratch, gpu, m);
    const double *c = cpu.read(core::Where::host), *g = gpu.read(core::Where::host);
    for (Index i = 0; i < 30 * n; ++i) EXPECT_NEAR(c[i], g[i], 1e-11) << to_string(m);
  }
}

TEST_P(SpectralGpuStrategy, CsrFilterEqualsTheCpu) {
  if (GetParam() == Strategy::fused) GTEST_SKIP() << "the CSR route's transforms are too large for fused";
  Shell s(7, 8, 1, 3);
  const Index n = s.size();
  const auto values = fields::random_values(40 * n, 17);
  Tensor cpu(shape_of(TensorKind::abb), n), gpu(shape_of(TensorKind::abb), n);
  cpu.data = core::Array<double>::from(values);
  gpu.data = core::Array<double>::from(values);
  OperatorCache cache;
  filter_csr(s, Strategy::blas, cache, FilterSpec{}, cpu);
  filter_csr(s, GetParam(), cache, FilterSpec{}, gpu);
  const double *c = cpu.data.read(core::Where::host), *g = gpu.data.read(core::Where::host);
  for (Index i = 0; i < 40 * n; ++i) EXPECT_NEAR(c[i], g[i], 1e-12);
}

// The fused strategy's two-launch shell gradient (gpu::shell_gradient) against the FFT-based reference line maps
// on the CPU, on shells from the SingleBH sequence's smallest (k = 0) and SpEC's production shell to k = 10.
TEST(SpectralGpuShellGradient, FusedEqualsTheReference) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  struct Case {
    int n_r, n_theta;
    TensorKind kind;
  };
  for (const Case& k : {Case{9, 6, TensorKind::abb}, Case{10, 19, TensorKind::aa}, Case{49, 26, TensorKind::a}}) {
    Shell s(k.n_r, k.n_theta, 1.62, 6);
    OperatorCache cache;
    const Index n = s.size();
    const Tensor u = [&] {
      Tensor t(shape_of(k.kind), n);
      t.data = random_array(t.components() * n, 21);
      return t;
    }();
    const Index size = 3 * u.components() * n;
    const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
    core::Array<double> scratch(size), ref(size), gpu(size), ref_logical(size), gpu_logical(size);
    const Differentiator d(s, AngularMethod::separable);
    ASSERT_TRUE(d.supports(Strategy::fused));
    d.cartesian_gradient(Strategy::reference, cache, ij, u, scratch, ref);
    d.logical_gradient(Strategy::reference, cache, u.components(), u.data.read(core::Where::host),
                       ref_logical.write(core::Where::host));
    // batched: the GEMM route; cluster: one launch, not at k = 10 (a block's buffers exceed shared memory)
    ASSERT_EQ(d.supports(Strategy::cluster), k.n_r != 49);
    for (Strategy strategy : {Strategy::fused, Strategy::batched, Strategy::cluster}) {
      if (!d.supports(strategy)) continue;
      d.cartesian_gradient(strategy, cache, ij, u, scratch, gpu);
      d.logical_gradient(strategy, cache, u.components(), u.data.read(core::Where::device),
                         gpu_logical.write(core::Where::device));
      for (const auto* pair : {&ref, &ref_logical}) {
        const bool cartesian = pair == &ref;
        const double* r = pair->read(core::Where::host);
        const double* g = (cartesian ? gpu : gpu_logical).read(core::Where::host);
        double scale = 0, e = 0;
        for (Index i = 0; i < size; ++i) {
          scale = std::max(scale, std::abs(r[i]));
          e = std::max(e, std::abs(r[i] - g[i]));
        }
        EXPECT_LT(e, 1e-12 * scale) << k.n_r << "x" << k.n_theta << (cartesian ? " cartesian" : " logical") << " "
                                    << to_string(strategy);
      }
    }
  }
}

// The cluster route (one launch) on the GH state's three tensors in one call against the FFT reference per
// tensor: SpEC's production shell (two components per cluster, 25 clusters: the compiled fixed extents), T_aa
// alone there (one per cluster: the other fixed instance) and on a small shell (the plan's extents); outputs set
// to NaN on the device first, so a value the route does not write fails; two calls, the second on the kept plan.
TEST(SpectralGpuClusterRoute, EqualsTheReferencePerTensor) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  if (!gpu::clusters_available()) GTEST_SKIP() << "no thread-block clusters on this device or build";
  struct Case {
    int n_r, n_theta;
    bool all;  // the three GH tensors, else T_aa alone
  };
  for (const Case k : {Case{10, 19, true}, Case{10, 19, false}, Case{6, 7, false}}) {
    const int n_theta = k.n_theta;
    Shell s(k.n_r, n_theta, 1.62, 6);
    const Index n = s.size();
    auto f = gh::gh_fields(n);
    if (!k.all) {  // T_aa alone
      f.tensors.resize(1);
      f.in.resize(1);
      f.components = 10;
    }
    const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
    const auto ref = gh::reference_gradients(s, f, ij);
    const Differentiator d(s, AngularMethod::separable);
    ASSERT_TRUE(d.supports(Strategy::cluster));
    OperatorCache cache;
    core::Array<double> scratch(d.gradient_scratch(f.components));
    auto out = gh::outputs(f, 3);
    for (int call = 0; call < 2; ++call) {
      for (auto& o : out) {
        o = core::Array<double>(o.size(), std::nan(""));
        o.read(core::Where::device);
      }
      d.cartesian_gradient(Strategy::cluster, cache, ij, f.in, scratch, gh::pointers(out));
      for (std::size_t t = 0; t < out.size(); ++t)
        EXPECT_LT(gh::relative_difference(ref[t], out[t]), 1e-12) << n_theta << (k.all ? " GH" : " T_aa") << " call " << call
                                                                 << " tensor " << t;
    }
  }
}

// Several shells' gradients of one contiguous block of 50 components (the GH state) in one launch
// (Differentiator::cartesian_gradients) against the FFT reference of each shell alone: three shells of SpEC's
// extents (other radii, radial maps and fields: one launch of the default strips kernel) and max_shells + 1 of
// 6 x 7 x 14 (a launch of cluster::max_shells, then one shell alone); outputs NaN on the device first; two calls.
TEST(SpectralGpuClusterRoute, ShellsInOneLaunchEqualTheReference) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  if (!gpu::clusters_available()) GTEST_SKIP() << "no thread-block clusters on this device or build";
  struct Case {
    int n_r, n_theta, shells;
  };
  const RadialMap maps[] = {RadialMap::linear, RadialMap::log, RadialMap::inverse};
  const Index components = 50;
  for (const Case k : {Case{10, 19, 3}, Case{6, 7, cluster::max_shells + 1}}) {
    std::deque<Shell> shells;  // (not movable)
    std::deque<Differentiator> ds;
    std::vector<core::Array<double>> ij, in, scratch, out, ref;
    OperatorCache cache;
    for (int s = 0; s < k.shells; ++s) {
      const double inner = 1.62 + 3 * s;
      shells.emplace_back(k.n_r, k.n_theta, inner, inner + 2 + s, maps[s % 3]);
      ds.emplace_back(shells.back(), AngularMethod::separable);
      const Index n = shells.back().size();
      ij.push_back(core::Array<double>::from(shells.back().inverse_jacobian()));
      in.push_back(random_array(components * n, 11 + static_cast<unsigned>(s)));
      scratch.emplace_back(3 * components * n);
      out.emplace_back(3 * components * n);
      ref.emplace_back(3 * components * n);
      const Differentiator dense(shells.back(), AngularMethod::dense);
      dense.cartesian_gradient(Strategy::reference, cache, ij.back(), components, in.back(), scratch.back(),
                               ref.back());
    }
    std::vector<ShellGradient> list;
    for (int s = 0; s < k.shells; ++s) list.push_back({&ds[s], &ij[s], &in[s], &scratch[s], &out[s]});
    for (int call = 0; call < 2; ++call) {
      for (auto& o : out) {
        o = core::Array<double>(o.size(), std::nan(""));
        o.read(core::Where::device);
      }
      Differentiator::cartesian_gradients(Strategy::cluster, cache, components, list);
      for (int s = 0; s < k.shells; ++s)
        EXPECT_LT(gh::relative_difference(ref[s], out[s]), 1e-12)
            << k.n_r << "x" << k.n_theta << " shell " << s << " call " << call;
    }
  }
}

// `loom spectral --shells K` on the device: max_shells + 1 copies of SpEC's production shell (a launch of
// max_shells, then one alone) with the cluster strategy, every copy's 50-component gradient as close to the exact
// one as the same shell alone (a copy left unwritten or given another's output would not be).
TEST(SpectralGpuClusterRoute, ShellBatchEqualsOneShellAlone) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  if (!gpu::clusters_available()) GTEST_SKIP() << "no thread-block clusters on this device or build";
  Shell s(10, 19, 1.62, 6);
  const std::vector<TensorKind> kinds{TensorKind::aa, TensorKind::iaa, TensorKind::aa};
  Workload alone(&s, 0, kinds, Operation::deriv, Strategy::cluster, {}, AngularMethod::separable);
  alone.run();
  ASSERT_LT(alone.error(), 1e-4);
  ShellBatch batch(s, kinds, cluster::max_shells + 1, Strategy::cluster, AngularMethod::separable);
  for (int call = 0; call < 2; ++call) {
    batch.run();
    EXPECT_NEAR(batch.error(), alone.error(), 1e-6 * alone.error()) << "call " << call;
  }
}

// The tensor-core products (cluster_mma.hpp: the instruction's own fragment layout, which the CPU form only
// emulates) and the padded shared rows, each kernel instance on the device against the FFT reference per
// tensor: the 50 GH components on SpEC's production shell (fixed extents, two and one per cluster) and on
// 6 x 7 x 14 (the plan's extents); the products in strips (cluster_strips.hpp); outputs set to NaN on the device
// first.
TEST(SpectralGpuClusterRoute, TensorCoresAndPaddedRowsEqualTheReference) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  if (!gpu::clusters_available()) GTEST_SKIP() << "no thread-block clusters on this device or build";
  struct Variant {
    int per_cluster;
    bool tensor_cores, padded;
    int blocks = cluster::max_blocks;
    bool shared_radial = false, strips = false;
    int threads = 256;
    bool prefetch = false, split = false;
  };
  for (const int n_theta : {19, 7}) {
    Shell s(n_theta == 19 ? 10 : 6, n_theta, 1.62, 6);
    const Index n = s.size();
    auto f = gh::gh_fields(n);
    const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
    const auto ref = gh::reference_gradients(s, f, ij);
    const Differentiator d(s, AngularMethod::separable);
    OperatorCache cache;
    const auto route = sweep::separable_route(d.fused()->plan(cache, core::Where::host), Index{1} << 40);
    ASSERT_TRUE(route);
    for (const Variant v : {Variant{2, true, true}, Variant{1, true, true}, Variant{2, true, false},
                            Variant{2, false, true}, Variant{1, true, true, 5}, Variant{1, true, true, 5, true},
                            Variant{2, true, true, 8, true}, Variant{2, true, true, 8, false, true},
                            Variant{2, true, false, 8, false, true}, Variant{1, true, true, 7, false, true},
                            Variant{1, true, false, 6, false, true}, Variant{1, true, false, 8, false, true},
                            Variant{2, true, true, 8, false, true, 512},
                            Variant{2, true, true, 8, false, true, 512, true},
                            Variant{2, true, true, 5, false, true, 1024},
                            Variant{2, true, true, 4, false, true, 1024},
                            Variant{2, true, true, 8, false, true, 512, false, true},
                            Variant{1, true, false, 8, false, true, 256, false, true}}) {
      // strips: 3 blocks per SM, 4 for one per cluster of 8, 2 of 512 threads, 1 of 1024
      const int per_sm = v.threads == 1024                   ? 1
                         : !v.strips || v.threads == 512     ? 2
                         : v.per_cluster == 1 && v.blocks == 8 ? 4
                                                               : 3;
      const auto c = ClusterShell::make(*route, v.per_cluster, 227 * 1024,
                                        {v.threads, per_sm, v.tensor_cores, v.padded, v.blocks, v.shared_radial,
                                         v.strips, v.prefetch, v.split});
      ASSERT_TRUE(c);
      auto out = gh::outputs(f, 3);
      for (auto& o : out) {
        o = core::Array<double>(o.size(), std::nan(""));
        o.read(core::Where::device);
      }
      gpu::cluster_gradient(c->plan(core::Where::device), gh::device_map(f.tensors, out), ij.read(core::Where::device));
      for (std::size_t t = 0; t < out.size(); ++t)
        EXPECT_LT(gh::relative_difference(ref[t], out[t]), 1e-12)
            << n_theta << " G " << v.per_cluster << (v.tensor_cores ? " tensor cores" : "")
            << (v.padded ? " padded" : "") << " blocks " << v.blocks << (v.shared_radial ? " shared d_r" : "")
            << (v.strips ? " strips" : "") << " threads " << v.threads << (v.prefetch ? " prefetch" : "") << (v.split ? " split" : "")
            << " tensor " << t;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, SpectralGpuStrategy,
                         ::testing::Values(Strategy::batched, Strategy::streamed, Strategy::fused),
                         [](const auto& p) { return std::string(to_string(p.param)); });

}  // namespace
}  // namespace loom::spectral
