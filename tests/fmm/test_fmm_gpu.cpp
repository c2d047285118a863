// The CUDA backend of the FMM (gpu/cuda_engine.cpp and the tuned kernels of gpu/kernels.hpp) against the CPU
// path: in double the two agree to rounding; in single precision (the default on the GPU) the errors against
// direct summation stay at the single-precision level the paper claims. Every case skips without a GPU.
#include <gtest/gtest.h>

#include <vector>

#include "backends.hpp"
#include "loom/core/array.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/gpu/kernels.hpp"

namespace loom::fmm {
namespace {

class FmmGpu : public ::testing::Test {
 protected:
  void SetUp() override { test::skip_unless_available(core::Backend::cuda); }
};

Options on(core::Backend b, bool single, int p = 10, int ncrit = 64) {
  Options o;
  o.backend = b;
  o.precision = single ? Precision::single : Precision::double_;
  o.order = p;
  o.ncrit = ncrit;
  return o;
}

std::vector<double> sampled(const std::vector<double>& v, const std::vector<Index>& t) {
  std::vector<double> out;
  for (Index i : t) out.push_back(v[static_cast<std::size_t>(i)]);
  return out;
}
std::vector<Vec3d> sampled(const std::vector<Vec3d>& v, const std::vector<Index>& t) {
  std::vector<Vec3d> out;
  for (Index i : t) out.push_back(v[static_cast<std::size_t>(i)]);
  return out;
}

// Small problems through every GPU path (run under compute-sanitizer by scripts/gpu-check-fmm.sh).
TEST_F(FmmGpu, SmallProblemsMatchTheCpu) {
  const Index n = 3000;
  const auto x = make_positions(Distribution::cube, n, 80);
  const auto q = make_uniform(n, -1, 1, 79);
  const auto alpha = make_uniform_vectors(n, -1, 1, 78);
  const std::vector<double> sigma(static_cast<std::size_t>(n), 0.1);
  for (int block : {1, 2, 4})
    for (bool single : {false, true}) {
      SCOPED_TRACE("m2l block " + std::to_string(block));
      const double tol = single ? 5e-6 : 1e-12;
      Options g = on(core::Backend::cuda, single, 8, 16);
      g.m2l_block = block;
      const auto lc = laplace(x, q, on(core::Backend::cpu, false, 8, 16));
      const auto lg = laplace(x, q, g);
      EXPECT_LT(relative_l2_error(lg.gradient, lc.gradient), tol) << single;
      EXPECT_LT(relative_l2_error(lg.potential, lc.potential), tol) << single;
      const auto bc = biot_savart(x, alpha, sigma, on(core::Backend::cpu, false, 8, 16));
      const auto bg = biot_savart(x, alpha, sigma, g);
      EXPECT_LT(relative_l2_error(bg.velocity, bc.velocity), tol) << single;
      EXPECT_LT(relative_l2_error(bg.stretching, bc.stretching), tol) << single;
    }
}

TEST_F(FmmGpu, LaplaceMatchesTheCpuOnEachDistribution) {
  for (auto d : {Distribution::cube, Distribution::sphere, Distribution::plummer}) {
    SCOPED_TRACE(std::string(to_string(d)));
    const Index n = 60000;
    const auto x = make_positions(d, n, 81);
    const auto q = make_uniform(n, -1, 1, 82);
    const auto cpu = laplace(x, q, on(core::Backend::cpu, false));
    const auto gpu_double = laplace(x, q, on(core::Backend::cuda, false));
    const auto gpu_single = laplace(x, q, on(core::Backend::cuda, true));
    EXPECT_LT(relative_l2_error(gpu_double.potential, cpu.potential), 1e-12);
    EXPECT_LT(relative_l2_error(gpu_double.gradient, cpu.gradient), 1e-12);
    const auto t = sample_targets(n, 500);
    std::vector<double> phi;
    std::vector<Vec3d> grad;
    direct_laplace(x, q, t, phi, grad);
    const double cpu_error = relative_l2_error(sampled(cpu.gradient, t), grad);
    const double single_error = relative_l2_error(sampled(gpu_single.gradient, t), grad);
    const double single_phi = relative_l2_error(sampled(gpu_single.potential, t), phi);
    std::printf("[ %s ] gradient error: cpu %.2e, gpu single %.2e (potential %.2e)\n",
                std::string(to_string(d)).c_str(), cpu_error, single_error, single_phi);
    // The host emulation of the float path (test_fmm_float_path, same bodies and targets, rsqrtf modelled at
    // its worst) measures 8e-8 (cube), 8e-8 (sphere), 1.8e-7 (plummer) for both; 5e-7 leaves room for the
    // device's own rounding. The committed float kernels gave 3.9e-6, 1.5e-5, 4.1e-7 here.
    EXPECT_LT(single_error, cpu_error + 5e-7);
    EXPECT_LT(single_phi, 5e-7);
    Options fast = on(core::Backend::cuda, true);
    fast.precision = Precision::single_fast;
    const auto gpu_fast = laplace(x, q, fast);
    const double fast_error = relative_l2_error(sampled(gpu_fast.gradient, t), grad);
    std::printf("[ %s ] gpu single-fast %.2e\n", std::string(to_string(d)).c_str(), fast_error);
    EXPECT_LT(fast_error, cpu_error + 3e-5);  // emulated: 4.5e-6, 1.5e-5, 7.5e-7
  }
}

TEST_F(FmmGpu, LargeLeavesAndHighOrder) {
  // leaves above 64 bodies (128-thread blocks) and above 128 (several target chunks per block); p = 16
  const Index n = 40000;
  const auto x = make_positions(Distribution::cube, n, 83);
  const auto q = make_uniform(n, -1, 1, 84);
  for (int ncrit : {100, 300}) {
    const auto cpu = laplace(x, q, on(core::Backend::cpu, false, 16, ncrit));
    const auto gpu = laplace(x, q, on(core::Backend::cuda, false, 16, ncrit));
    EXPECT_LT(relative_l2_error(gpu.gradient, cpu.gradient), 1e-12) << ncrit;
    const auto single = laplace(x, q, on(core::Backend::cuda, true, 16, ncrit));
    // float against the double CPU: at p = 16 both are far below the float path's floor (~1e-7 in the
    // emulation at p = 10; the float M2L itself is within 3e-7 of double at p = 16, test_fmm_m2l_scaled)
    EXPECT_LT(relative_l2_error(single.gradient, cpu.gradient), 1e-6) << ncrit;
  }
}

TEST_F(FmmGpu, EveryOrderMatchesTheCpu) {
  // the M2L kernel's thread groups and shared tables change with p (and with 3 expansions for Biot-Savart)
  const Index n = 4000;
  const auto x = make_positions(Distribution::plummer, n, 93);
  const auto q = make_uniform(n, -1, 1, 94);
  const auto alpha = make_uniform_vectors(n, -1, 1, 95);
  const std::vector<double> sigma(static_cast<std::size_t>(n), 0.05);
  // and with the orders per thread (runs of 1, 2 and 4 orders m; past the last order of a degree their
  // harmonics are read from the table's padding and their sums dropped)
  for (int p : {1, 2, 3, 5, 9, 13, 16}) {
    const auto cpu = laplace(x, q, on(core::Backend::cpu, false, p, 32));
    for (int block : {1, 2, 4}) {
      Options gd = on(core::Backend::cuda, false, p, 32), gs = on(core::Backend::cuda, true, p, 32);
      gd.m2l_block = gs.m2l_block = block;
      const auto gpu = laplace(x, q, gd);
      EXPECT_LT(relative_l2_error(gpu.gradient, cpu.gradient), 1e-12) << p << " block " << block;
      EXPECT_LT(relative_l2_error(gpu.potential, cpu.potential), 1e-12) << p << " block " << block;
      const auto single = laplace(x, q, gs);
      EXPECT_LT(relative_l2_error(single.gradient, cpu.gradient), 1e-6) << p << " block " << block;
      if (p == 5 || p == 16) {
        const auto bc = biot_savart(x, alpha, sigma, on(core::Backend::cpu, false, p, 32));
        const auto bg = biot_savart(x, alpha, sigma, gd);
        EXPECT_LT(relative_l2_error(bg.velocity, bc.velocity), 1e-12) << p << " block " << block;
        EXPECT_LT(relative_l2_error(bg.stretching, bc.stretching), 1e-12) << p << " block " << block;
        const auto bs = biot_savart(x, alpha, sigma, gs);
        EXPECT_LT(relative_l2_error(bs.velocity, bc.velocity), 5e-6) << p << " block " << block;
        EXPECT_LT(relative_l2_error(bs.stretching, bc.stretching), 5e-6) << p << " block " << block;
      }
    }
  }
}

TEST_F(FmmGpu, BiotSavartMatchesTheCpu) {
  const Index n = 30000;
  const auto x = make_positions(Distribution::cube, n, 85);
  const auto alpha = make_uniform_vectors(n, -1, 1, 86);
  const std::vector<double> sigma(static_cast<std::size_t>(n), 0.06);
  const auto cpu = biot_savart(x, alpha, sigma, on(core::Backend::cpu, false));
  const auto gpu_double = biot_savart(x, alpha, sigma, on(core::Backend::cuda, false));
  const auto gpu_single = biot_savart(x, alpha, sigma, on(core::Backend::cuda, true));
  EXPECT_LT(relative_l2_error(gpu_double.velocity, cpu.velocity), 1e-12);
  EXPECT_LT(relative_l2_error(gpu_double.stretching, cpu.stretching), 1e-12);
  EXPECT_LT(relative_l2_error(gpu_single.velocity, cpu.velocity), 5e-6);
  EXPECT_LT(relative_l2_error(gpu_single.stretching, cpu.stretching), 5e-6);
}

// The work per cell counted on the device equals a count over the host traversal's lists of the same tree.
void expect_work_of_host_lists(const Tree& tree, double theta, const ListWork& work) {
  TraversalOptions t;
  t.theta = theta;
  const InteractionLists l = traverse(tree, tree, t);
  const auto& cells = tree.cells();
  ASSERT_EQ(work.m2l.size(), cells.size());
  ASSERT_EQ(work.sources.size(), cells.size());
  int wrong = 0;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    double sources = 0;
    for (Index k = l.p2p_offset[c]; k < l.p2p_offset[c + 1]; ++k)
      sources += double(cells[static_cast<std::size_t>(l.p2p_source[static_cast<std::size_t>(k)])].count);
    wrong += work.m2l[c] != double(l.m2l_offset[c + 1] - l.m2l_offset[c]) || work.sources[c] != sources;
  }
  EXPECT_EQ(wrong, 0);
}

// Options::tree_on_backend on the GPU (the ranks' tree): the lists go from the traversal to the passes on the
// device unless a host copy is asked for, and the tree's host form may hold the cells alone; in every form the
// results equal the CPU's host-tree evaluation to rounding (double), with the same pair counts (the host
// traversal's), also on a kept evaluator given new positions and new core radii (the lists traversed again).
TEST_F(FmmGpu, BackendTreeEvaluatorEqualsTheCpu) {
  const Index n = 20000;
  const std::vector<std::vector<Vec3d>> positions = {make_positions(Distribution::plummer, n, 90),
                                                     make_positions(Distribution::cube, n, 93)};
  const auto q = make_uniform(n, -1, 1, 91);
  const auto alpha = make_uniform_vectors(n, -1, 1, 92);
  std::vector<double> sigma = make_uniform(n, 0.005, 0.02, 94), wider = sigma;
  for (double& s : wider) s *= 1.5;  // other cells' largest radii: the guarded lists change
  Evaluator cpu(on(core::Backend::cpu, false, 8, 32));
  for (bool host_lists : {false, true})
    for (bool host_bodies : {true, false}) {
      SCOPED_TRACE("host lists " + std::to_string(host_lists) + ", host bodies " + std::to_string(host_bodies));
      Options g = on(core::Backend::cuda, false, 8, 32);
      g.tree_on_backend = true;
      Evaluator gpu(g);
      gpu.set_host_lists(host_lists);
      gpu.set_host_bodies(host_bodies);
      gpu.set_list_work(!host_lists);  // the ranks' costs without host lists
      for (const auto& x : positions) {
        cpu.set_positions(x);
        gpu.set_positions(x);
        EXPECT_EQ(gpu.tree().has_bodies(), host_bodies);
        EXPECT_EQ(gpu.tree().size(), n);
        const auto lc = cpu.laplace(q), lg = gpu.laplace(q);
        EXPECT_LT(relative_l2_error(lg.potential, lc.potential), 1e-12);
        EXPECT_LT(relative_l2_error(lg.gradient, lc.gradient), 1e-12);
        EXPECT_EQ(lg.stats.m2l_pairs, lc.stats.m2l_pairs);
        EXPECT_EQ(lg.stats.p2p_pairs, lc.stats.p2p_pairs);
        EXPECT_EQ(lg.stats.p2p_interactions, lc.stats.p2p_interactions);
        const ListWork* work = gpu.list_work(Kernel::laplace);
        ASSERT_EQ(work != nullptr, !host_lists);
        if (work) expect_work_of_host_lists(cpu.tree(), g.theta, *work);
        for (const auto* s : {&sigma, &wider}) {
          const auto bc = cpu.biot_savart(alpha, *s), bg = gpu.biot_savart(alpha, *s);
          EXPECT_LT(relative_l2_error(bg.velocity, bc.velocity), 1e-12);
          EXPECT_LT(relative_l2_error(bg.stretching, bc.stretching), 1e-12);
          EXPECT_EQ(bg.stats.m2l_pairs, bc.stats.m2l_pairs);
          EXPECT_EQ(bg.stats.p2p_pairs, bc.stats.p2p_pairs);
          EXPECT_EQ(bg.stats.p2p_interactions, bc.stats.p2p_interactions);
        }
      }
    }
}

TEST_F(FmmGpu, GaussianSumMatchesTheCpu) {
  const Index n = 30000;
  const auto x = make_positions(Distribution::plummer, n, 87);
  const auto alpha = make_uniform_vectors(n, -1, 1, 88);
  const std::vector<double> sigma(static_cast<std::size_t>(n), 0.02);
  Evaluator cpu(on(core::Backend::cpu, false)), gpu(on(core::Backend::cuda, true));
  cpu.set_positions(x);
  gpu.set_positions(x);
  const auto a = cpu.gaussian_sum(alpha, sigma), b = gpu.gaussian_sum(alpha, sigma);
  EXPECT_LT(relative_l2_error(b, a), 1e-6);
}

TEST_F(FmmGpu, PeriodicMatchesTheCpu) {
  const Index n = 20000;
  auto x = make_positions(Distribution::cube, n, 89);  // in [-1, 1)^3
  auto q = make_uniform(n, -1, 1, 90);
  double mean = 0;
  for (double v : q) mean += v / double(n);
  for (double& v : q) v -= mean;
  Options o = on(core::Backend::cpu, false, 12);
  o.periodic = true;
  o.period = 2;
  o.box_lower = {-1, -1, -1};
  const auto cpu = laplace(x, q, o);
  o.backend = core::Backend::cuda;
  const auto gpu = laplace(x, q, o);
  EXPECT_LT(relative_l2_error(gpu.gradient, cpu.gradient), 1e-12);
  EXPECT_LT(relative_l2_error(gpu.potential, cpu.potential), 1e-12);
}

TEST_F(FmmGpu, PlainDirectKernelMatchesTheDirectSum) {
  const Index n = 20000;
  const auto x = make_positions(Distribution::cube, n, 91);
  const auto q = make_uniform(n, -1, 1, 92);
  auto xs = core::Array<Vec3d>::from(std::span<const Vec3d>(x));
  auto qs = core::Array<double>::from(std::span<const double>(q));
  core::Array<double> out(static_cast<std::size_t>(4 * n));
  gpu::direct_laplace(n, xs.read(core::Where::device), qs.read(core::Where::device), out.write(core::Where::device));
  const double* h = out.read(core::Where::host);
  const auto t = sample_targets(n, 300);
  std::vector<double> phi, got_phi;
  std::vector<Vec3d> grad, got_grad;
  direct_laplace(x, q, t, phi, grad);
  for (Index i : t) {
    got_phi.push_back(h[i]);
    got_grad.push_back({h[n + i], h[2 * n + i], h[3 * n + i]});
  }
  EXPECT_LT(relative_l2_error(got_phi, phi), 1e-4);  // float, absolute coordinates, no compensation
  EXPECT_LT(relative_l2_error(got_grad, grad), 1e-4);
}

}  // namespace
}  // namespace loom::fmm
