// The received field alone (fmm/parallel/let.hpp, let_field.hpp), in one process: the bodies of a cube split
// at x = 0 into a receiving part A and a sending part B; B's local essential tree for A's patches, parsed and
// evaluated at A's bodies, against a direct sum over B's bodies only (A's strengths zero), for Laplace and
// Biot-Savart; and the same received field on the GPU (let_field_device.hpp, double precision) against the
// CPU's (skips without a device). Then the way the ranks' FMM runs it (received_sources.hpp): A's own
// evaluation with B's LET as extra sources, against a direct sum over all bodies at A's, on both backends.
#include <gtest/gtest.h>

#include <cmath>
#include <type_traits>
#include <vector>

#include "backends.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/kernels/biot_savart.hpp"
#include "loom/fmm/kernels/laplace.hpp"
#include "loom/fmm/parallel/cubic_tree.hpp"
#include "loom/fmm/parallel/let_field.hpp"
#include "loom/fmm/parallel/local_tree.hpp"
#include "loom/fmm/parallel/received_sources.hpp"

namespace loom::fmm::parallel {
namespace {

struct Part {
  std::vector<Vec3d> x;
  std::vector<double> strength, sigma;  // ncomp per body; one per body
  std::vector<Index> id;                // index in the whole set
};

struct Split {
  std::vector<Vec3d> x;
  std::vector<double> strength, sigma;
  Part a, b;
};

Split split_cube(Index n, int ncomp) {
  Split s;
  s.x = make_positions(Distribution::cube, n, 41);
  s.strength = make_uniform(n * ncomp, -1, 1, 42);
  s.sigma = make_uniform(n, 0.04, 0.06, 43);
  for (Index i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    Part& p = s.x[u].x < 0 ? s.a : s.b;
    p.x.push_back(s.x[u]);
    for (int d = 0; d < ncomp; ++d) p.strength.push_back(s.strength[u * static_cast<std::size_t>(ncomp) + d]);
    p.sigma.push_back(s.sigma[u]);
    p.id.push_back(i);
  }
  return s;
}

// B's LET for A, evaluated at A's bodies: K::nout rows of A's bodies in A's order (unscaled).
template <class K>
std::vector<double> received_field(const Options& o, const Part& a, const Part& b, bool guarded) {
  const Tree ta = cubic_tree(a.x, o.ncrit), tb = cubic_tree(b.x, o.ncrit);
  auto sigma = [&](const Part& p) { return guarded ? std::span<const double>(p.sigma) : std::span<const double>(); };
  const LocalTree la = local_tree(ta, o.order, K::ncomp, a.strength, sigma(a));
  const LocalTree lb = local_tree(tb, o.order, K::ncomp, b.strength, sigma(b));
  std::vector<double> patches, wire;
  append_patches(ta, patches_per_rank, patches);
  select_let(lb.source(), read_patches(patches), {o.theta, guarded ? o.guard : 0.0}, &wire);
  const Let let = parse_let(wire, o.order, K::ncomp);
  const std::vector<double> tree_order = let_field<K>(o, la.t, la.strength, la.sigma, let);
  const auto n = static_cast<Index>(a.x.size());
  std::vector<double> out(tree_order.size());
  for (int k = 0; k < K::nout; ++k)
    for (Index i = 0; i < n; ++i)
      out[static_cast<std::size_t>(k * n + ta.order()[static_cast<std::size_t>(i)])] = tree_order[static_cast<std::size_t>(k * n + i)];
  return out;
}

// Relative L2 difference of components [first, first + 3) (or 1) at the sampled bodies of A.
double error(const std::vector<double>& got, Index n, int first, int count, const std::vector<Index>& targets,
             const std::vector<double>& exact) {
  double e = 0, norm = 0;
  for (std::size_t t = 0; t < targets.size(); ++t)
    for (int k = 0; k < count; ++k) {
      const double want = exact[t * static_cast<std::size_t>(count) + static_cast<std::size_t>(k)];
      e += std::pow(got[static_cast<std::size_t>((first + k) * n + targets[t])] - want, 2);
      norm += want * want;
    }
  return std::sqrt(e / norm);
}

std::vector<Vec3d> vectors(const std::vector<double>& v) {
  std::vector<Vec3d> out;
  for (std::size_t i = 0; i + 2 < v.size(); i += 3) out.push_back({v[i], v[i + 1], v[i + 2]});
  return out;
}

std::vector<double> flat(const std::vector<Vec3d>& v) {
  std::vector<double> out;
  for (const Vec3d& a : v) out.insert(out.end(), {a.x, a.y, a.z});
  return out;
}

TEST(FmmLetField, LaplaceEqualsTheDirectSumOverTheSender) {
  Split s = split_cube(6000, 1);
  Options o;
  const std::vector<double> got = received_field<LaplaceKernel>(o, s.a, s.b, false);
  std::vector<double> q = s.strength;
  for (Index i : s.a.id) q[static_cast<std::size_t>(i)] = 0;  // B's bodies only
  const auto n = static_cast<Index>(s.a.x.size());
  const std::vector<Index> sample = sample_targets(n, 200);
  std::vector<Index> targets;
  for (Index i : sample) targets.push_back(s.a.id[static_cast<std::size_t>(i)]);
  std::vector<double> phi;
  std::vector<Vec3d> grad;
  direct_laplace(s.x, q, targets, phi, grad);
  EXPECT_LT(error(got, n, 0, 1, sample, phi), 1e-6);
  EXPECT_LT(error(got, n, 1, 3, sample, flat(grad)), 1e-6);
}

TEST(FmmLetField, BiotSavartEqualsTheDirectSumOverTheSender) {
  // the stretching at A's bodies takes their own alpha: B's part is the sum over all bodies less A's alone
  Split s = split_cube(4000, 3);
  Options o;
  std::vector<double> got = received_field<BiotSavartKernel>(o, s.a, s.b, true);
  for (double& v : got) v /= 12.566370614359172;  // the kernel's outputs are 4 pi u and 4 pi stretching
  const auto n = static_cast<Index>(s.a.x.size());
  const std::vector<Index> sample = sample_targets(n, 200);
  std::vector<Index> targets;
  for (Index i : sample) targets.push_back(s.a.id[static_cast<std::size_t>(i)]);
  std::vector<Vec3d> u, st, u_a, st_a;
  direct_biot_savart(s.x, vectors(s.strength), s.sigma, targets, u, st);
  direct_biot_savart(s.a.x, vectors(s.a.strength), s.a.sigma, sample, u_a, st_a);
  for (std::size_t t = 0; t < targets.size(); ++t) {
    u[t] -= u_a[t];
    st[t] -= st_a[t];
  }
  EXPECT_LT(error(got, n, 0, 3, sample, flat(u)), 1e-6);
  EXPECT_LT(error(got, n, 3, 3, sample, flat(st)), 1e-5);
}

template <class K>
void expect_gpu_equals_cpu(int ncomp, bool guarded) {
  Split s = split_cube(8000, ncomp);
  Options cpu;
  Options gpu = cpu;
  gpu.backend = core::Backend::cuda;
  gpu.precision = Precision::double_;
  const std::vector<double> a = received_field<K>(cpu, s.a, s.b, guarded), b = received_field<K>(gpu, s.a, s.b, guarded);
  ASSERT_EQ(a.size(), b.size());
  double e = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    e += (a[i] - b[i]) * (a[i] - b[i]);
    norm += a[i] * a[i];
  }
  EXPECT_LT(std::sqrt(e / norm), 1e-10);  // the same pairs in double: rounding only
}

TEST(FmmLetField, GpuEqualsCpu) {
  test::skip_unless_available(core::Backend::cuda);
  if (IsSkipped()) return;
  expect_gpu_equals_cpu<LaplaceKernel>(1, false);
  expect_gpu_equals_cpu<BiotSavartKernel>(3, true);
}

// A's evaluation (its own bodies' sum) with B's LET as received sources: the sum over every body at A's bodies.
template <class K>
std::vector<double> merged(const Options& o, const Part& a, const Part& b, bool guarded) {
  const Tree ta = cubic_tree(a.x, o.ncrit), tb = cubic_tree(b.x, o.ncrit);
  auto sigma = [&](const Part& p) { return guarded ? std::span<const double>(p.sigma) : std::span<const double>(); };
  const LocalTree lb = local_tree(tb, o.order, K::ncomp, b.strength, sigma(b));
  std::vector<double> patches, wire;
  append_patches(ta, patches_per_rank, patches);
  select_let(lb.source(), read_patches(patches), {o.theta, guarded ? o.guard : 0.0}, &wire);
  const Let let = parse_let(wire, o.order, K::ncomp);
  ReceivedSources<K> received(o, [&]() -> const Let& { return let; }, nullptr);
  Evaluator e(o);
  e.set_tree(ta);
  std::vector<double> out;
  if constexpr (K::ncomp == 1) {
    LaplaceResult r;
    e.laplace(a.strength, r, &received);
    out = r.potential;
    for (const Vec3d& g : r.gradient) out.insert(out.end(), {g.x, g.y, g.z});
  } else {
    BiotSavartResult r;
    e.biot_savart(vectors(a.strength), a.sigma, r, &received);
    out = flat(r.velocity);
    const std::vector<double> s = flat(r.stretching);
    out.insert(out.end(), s.begin(), s.end());
  }
  EXPECT_GT(received.counts().m2l, 0);
  EXPECT_GT(received.counts().p2p, 0);
  return out;  // per body: potential, then gradients (x, y, z); or velocities, then stretchings
}

// 200 sampled bodies of A: their indices in A and in the whole set.
struct Sample {
  std::vector<Index> in_a, in_all;
};

Sample sample_of_a(const Split& s) {
  Sample t;
  t.in_a = sample_targets(static_cast<Index>(s.a.x.size()), 200);
  for (Index i : t.in_a) t.in_all.push_back(s.a.id[static_cast<std::size_t>(i)]);
  return t;
}

// Relative L2 difference at the sampled bodies of the vectors stored from `first` on, 3 per body (or of the
// scalars, 1 per body, with exact.size() == sample size).
template <class V>
double sampled_difference(const std::vector<double>& got, std::size_t first, const std::vector<Index>& sample,
                          const std::vector<V>& exact) {
  constexpr int width = std::is_same_v<V, Vec3d> ? 3 : 1;
  double e = 0, norm = 0;
  for (std::size_t t = 0; t < sample.size(); ++t)
    for (int k = 0; k < width; ++k) {
      double want = 0;
      if constexpr (width == 3) want = exact[t][k];
      else want = exact[t];
      e += std::pow(got[first + width * static_cast<std::size_t>(sample[t]) + static_cast<std::size_t>(k)] - want, 2);
      norm += want * want;
    }
  return std::sqrt(e / norm);
}

void expect_merged_laplace_equals_direct_sum(const Options& o, double bound) {
  const Split s = split_cube(6000, 1);
  const std::vector<double> got = merged<LaplaceKernel>(o, s.a, s.b, false);
  const Sample t = sample_of_a(s);
  std::vector<double> phi;
  std::vector<Vec3d> grad;
  direct_laplace(s.x, s.strength, t.in_all, phi, grad);
  EXPECT_LT(sampled_difference(got, 0, t.in_a, phi), bound);
  EXPECT_LT(sampled_difference(got, s.a.x.size(), t.in_a, grad), bound);
}

void expect_merged_biot_savart_equals_direct_sum(const Options& o, double bound_u, double bound_s) {
  const Split s = split_cube(4000, 3);
  const std::vector<double> got = merged<BiotSavartKernel>(o, s.a, s.b, true);
  const Sample t = sample_of_a(s);
  std::vector<Vec3d> u, st;
  direct_biot_savart(s.x, vectors(s.strength), s.sigma, t.in_all, u, st);
  EXPECT_LT(sampled_difference(got, 0, t.in_a, u), bound_u);
  EXPECT_LT(sampled_difference(got, 3 * s.a.x.size(), t.in_a, st), bound_s);
}

TEST(FmmLetField, ReceivedSourcesInTheLocalEvaluationEqualTheDirectSum) {
  expect_merged_laplace_equals_direct_sum({}, 1e-6);
  expect_merged_biot_savart_equals_direct_sum({}, 1e-6, 1e-5);
}

TEST(FmmLetField, ReceivedSourcesInTheLocalEvaluationOnTheGpu) {
  test::skip_unless_available(core::Backend::cuda);
  if (IsSkipped()) return;
  Options gpu;
  gpu.backend = core::Backend::cuda;
  gpu.precision = Precision::double_;
  expect_merged_laplace_equals_direct_sum(gpu, 1e-6);
  expect_merged_biot_savart_equals_direct_sum(gpu, 1e-6, 1e-5);
}

}  // namespace
}  // namespace loom::fmm::parallel
