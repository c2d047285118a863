// The cluster route of the separable shell gradient (cluster_route.hpp), its CPU form (the steps the kernel runs,
// every block of a cluster one step at a time): the Cartesian gradient of the GH state's three tensors in one call
// against the FFT reference applied to each tensor alone, for several components per cluster and shells whose
// lines or matrix groups are fewer than the cluster's blocks; the logical gradient; agreement with the other CPU
// routes; the bookkeeping of which block owns what; refusal of DFT matrices without the half-period symmetry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <utility>
#include <vector>

#include "loom/spectral/cluster_route.hpp"
#include "loom/spectral/operations.hpp"
#include "spectral/gh_fields.hpp"

namespace loom::spectral {
namespace {

using namespace gh;

// The separable route of a shell's gradient with the cache's host matrices.
sweep::Separable host_route(const Differentiator& d, OperatorCache& cache) {
  const auto route = sweep::separable_route(d.fused()->plan(cache, core::Where::host), Index{1} << 40);
  EXPECT_TRUE(route);
  return *route;
}

struct ShellCase {
  int n_r, n_theta;
};

TEST(ClusterRoute, CpuFormEqualsTheReferencePerTensor) {
  // 2 x 3: fewer lines (6) than blocks; 3 x 4: fewer matrix groups (5) than blocks; 10 x 19: SpEC's shell
  for (const ShellCase k : {ShellCase{2, 3}, ShellCase{3, 4}, ShellCase{6, 7}, ShellCase{10, 19}}) {
    Shell s(k.n_r, k.n_theta, 1.5, 4);
    const Index n = s.size();
    auto f = gh_fields(n);
    const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
    const auto ref = reference_gradients(s, f, ij);
    const Differentiator d(s, AngularMethod::separable);
    ASSERT_TRUE(d.supports(Strategy::cluster));
    OperatorCache cache;
    const auto route = host_route(d, cache);
    // 3 does not divide the 50 components: the last cluster is partial; 4 blocks per SM: the narrow tiles;
    // the tensor-core tiles (cluster_mma.hpp) with natural and padded strides, the register tiles padded
    // clusters of 5 and 3 blocks (SpEC's shell with one component per cluster of 5: a fixed instance); d_r from
    // shared memory (lines by whole theta columns, some blocks without any on the small shells); the tensor-core
    // products in strips (cluster_strips.hpp: fixed instances at 10 x 19 for two per cluster of 8, one per
    // cluster of 7 or 6 for three blocks per SM, one per cluster of 8 for four, two per cluster of 8 on blocks of
    // 512 threads, two per cluster of 5 or 4 on blocks of 1024; one tile per warp elsewhere)
    struct Variant {
      int per_cluster, per_sm;
      bool tensor_cores, padded;
      int blocks = cluster::max_blocks;
      bool shared_radial = false, strips = false;
      int threads = 256;
      bool split = false;  // cos and sin of one m split between blocks
    };
    for (const Variant v : {Variant{1, 2, false, false}, Variant{2, 2, false, false}, Variant{3, 2, false, false},
                            Variant{1, 4, false, false}, Variant{2, 4, false, false}, Variant{2, 2, false, true},
                            Variant{1, 2, true, false}, Variant{2, 2, true, false}, Variant{1, 2, true, true},
                            Variant{2, 2, true, true}, Variant{3, 2, true, true}, Variant{1, 2, true, true, 5},
                            Variant{2, 2, false, false, 3}, Variant{3, 2, true, true, 5},
                            Variant{1, 2, true, true, 5, true}, Variant{2, 2, true, true, 8, true},
                            Variant{2, 2, true, false, 3, true},  Variant{2, 3, true, true, 8, false, true},
                            Variant{2, 3, true, false, 8, false, true}, Variant{1, 3, true, true, 7, false, true},
                            Variant{1, 3, true, false, 6, false, true}, Variant{1, 4, true, false, 8, false, true},
                            Variant{3, 3, true, true, 8, false, true}, Variant{1, 3, true, true, 5, false, true},
                            Variant{2, 2, true, true, 8, false, true, 512},
                            Variant{2, 1, true, true, 5, false, true, 1024},
                            Variant{2, 1, true, true, 4, false, true, 1024},
                            Variant{2, 2, true, true, 8, false, true, 512, true},
                            Variant{1, 4, true, false, 8, false, true, 256, true},
                            Variant{2, 2, false, false, 8, false, false, 256, true},
                            Variant{1, 2, true, true, 5, false, false, 256, true}}) {
      const auto c = ClusterShell::make(route, v.per_cluster, Index{1} << 30,
                                        {v.threads, v.per_sm, v.tensor_cores, v.padded, v.blocks, v.shared_radial,
                                         v.strips, false, v.split});
      ASSERT_TRUE(c);
      const auto& plan = c->plan(core::Where::host);
      if (k.n_r == 10) {  // 38 coefficients: 6 on the largest block of 8 with whole groups, 5 with split ones
        EXPECT_EQ(plan.max_q, v.split ? (38 + v.blocks - 1) / v.blocks : v.blocks == 8 ? 6 : plan.max_q)
            << v.blocks << " blocks" << (v.split ? " split" : "");
      }
      // a compiled fixed instance here, else the plan's
      if (k.n_r == 10 && v.strips) {  // no strips instance for 3 per cluster nor for 1 per cluster of 5
        EXPECT_EQ(cluster::runs_strips(plan), v.per_cluster < 3 && (v.blocks != 5 || v.threads == 1024))
            << v.per_cluster << " per cluster of " << v.blocks;
        EXPECT_EQ(cluster::Production1Padded7::matches(plan), v.blocks == 7);
        EXPECT_EQ(cluster::Production1Natural6::matches(plan), v.blocks == 6);
      } else if (k.n_r == 10 && v.per_cluster < 3 && v.blocks != 3 && (v.blocks == 5 || !v.shared_radial)) {
        const bool fixed = v.blocks == 5      ? (v.shared_radial ? cluster::Production1Padded5Radial::matches(plan)
                                                                 : cluster::Production1Padded5::matches(plan))
                           : v.padded ? cluster::Production1Padded::matches(plan) || cluster::Production2Padded::matches(plan)
                                      : cluster::Production1::matches(plan) || cluster::Production2::matches(plan);
        EXPECT_TRUE(fixed) << v.per_cluster << (v.padded ? " padded" : "") << " blocks " << v.blocks;
      }
      if (v.padded) {
        EXPECT_EQ(plan.ld_line % 8, 4) << "rows 4 mod 8 doubles apart";
        EXPECT_GE(plan.ld_line, plan.max_lines);
      }
      auto out = outputs(f, 3);
      cpu::cluster_gradient(plan, host_map(f.tensors, &out), ij.read(core::Where::host));
      for (std::size_t t = 0; t < out.size(); ++t)
        EXPECT_LT(relative_difference(ref[t], out[t]), 1e-12)
            << k.n_r << "x" << k.n_theta << " G " << v.per_cluster << " per SM " << v.per_sm << " threads " << v.threads
            << (v.tensor_cores ? " tensor cores" : "") << (v.padded ? " padded" : "") << " blocks " << v.blocks
            << (v.shared_radial ? " shared d_r" : "") << (v.strips ? " strips" : "") << (v.split ? " split" : "")
            << " tensor " << t;
    }
  }
}

// The logical gradient (no Jacobian) of one contiguous block against the reference's, and the Cartesian gradient
// against the blas route (OpenBLAS on the dense angular matrices), the GEMM route's CPU form and the fused
// passes' CPU form, each an independent implementation of the same operator.
TEST(ClusterRoute, CpuFormEqualsTheOtherRoutes) {
  Shell s(5, 6, 1, 3);
  const Index n = s.size();
  auto f = gh_fields(n);
  const core::Array<double> ij = core::Array<double>::from(s.inverse_jacobian());
  const Differentiator d(s, AngularMethod::separable), dense(s, AngularMethod::dense);
  OperatorCache cache;
  const auto c = ClusterShell::make(host_route(d, cache), 2, Index{1} << 30);
  ASSERT_TRUE(c);
  const auto& plan = c->plan(core::Where::host);

  core::Array<double> block(f.components * n), expected(3 * f.components * n), logical(3 * f.components * n);
  double* b = block.write(core::Where::host);
  for (const Tensor& t : f.tensors) b = std::copy_n(t.data.read(core::Where::host), t.components() * n, b);
  const double* u = block.read(core::Where::host);
  dense.logical_gradient(Strategy::reference, cache, f.components, u, expected.write(core::Where::host));
  cpu::cluster_gradient(plan, component_map(u, logical.write(core::Where::host), f.components), nullptr);
  EXPECT_LT(relative_difference(expected, logical), 1e-12);

  auto mine = outputs(f, 3), blas = outputs(f, 3), gemm = outputs(f, 3), fused = outputs(f, 3);
  cpu::cluster_gradient(plan, host_map(f.tensors, &mine), ij.read(core::Where::host));
  core::Array<double> scratch(dense.gradient_scratch(f.components));
  dense.cartesian_gradient(Strategy::blas, cache, ij, f.in, scratch, pointers(blas));
  std::vector<double> work(3 * f.components * n);
  SeparableGemm().gradient(host_route(d, cache), host_map(f.tensors, &gemm), ij.read(core::Where::host), work.data(),
                           core::Where::host);
  cpu::shell_gradient(d.fused()->plan(cache, core::Where::host), host_map(f.tensors, &fused),
                      ij.read(core::Where::host), work.data());
  for (std::size_t t = 0; t < mine.size(); ++t) {
    EXPECT_LT(relative_difference(blas[t], mine[t]), 1e-12) << "blas " << t;
    EXPECT_LT(relative_difference(gemm[t], mine[t]), 1e-12) << "gemm " << t;
    EXPECT_LT(relative_difference(fused[t], mine[t]), 1e-12) << "fused " << t;
  }
}

// Every line and every Fourier coefficient has exactly one owner, the owner's range holds it, and the blocks'
// matrix groups tile the coefficients; the shared memory fits the bound `supports` uses.
// Several shells in one launch (cluster::Shells): three shells of the same extents, other radii and radial maps
// (so other radial matrices and inverse Jacobians) and other fields, through the table in the kernel's cluster
// order, each against the FFT reference of its own shell and against the same plan run for that shell alone; at
// 10 x 19 the default variant (strips on 512 threads, a fixed instance), at 6 x 7 the run-time one.
TEST(ClusterRoute, ShellsInOneLaunchEqualEachShellAlone) {
  struct Radii {
    double inner, outer;
    RadialMap map;
  };
  const Radii radii[] = {{1.62, 6, RadialMap::linear}, {6, 12, RadialMap::log}, {12, 30, RadialMap::inverse}};
  for (const ShellCase k : {ShellCase{6, 7}, ShellCase{10, 19}}) {
    std::deque<Shell> shells;  // (not movable)
    for (const Radii& r : radii) shells.emplace_back(k.n_r, k.n_theta, r.inner, r.outer, r.map);
    const Index n = shells[0].size();
    std::vector<Fields> fields;
    std::vector<core::Array<double>> ij;
    std::vector<std::vector<core::Array<double>>> refs, outs;
    std::deque<Differentiator> ds;  // (not movable)
    fields.reserve(shells.size());
    for (std::size_t s = 0; s < shells.size(); ++s) {
      fields.push_back(gh_fields(n, 3 + 10 * static_cast<unsigned>(s)));
      ij.push_back(core::Array<double>::from(shells[s].inverse_jacobian()));
      refs.push_back(reference_gradients(shells[s], fields[s], ij[s]));
      ds.emplace_back(shells[s], AngularMethod::separable);
    }
    for (const auto& d : ds) EXPECT_TRUE(ds[0].shares_launch(d)) << "same extents, other radii and maps";
    OperatorCache cache;
    std::vector<ClusterShell> routes;
    std::vector<sweep::ComponentMap> maps;
    std::vector<const double*> jacobians, radials;
    for (std::size_t s = 0; s < shells.size(); ++s) {
      auto c = ClusterShell::make_default(host_route(ds[s], cache), fields[s].components, 227 * 1024);
      ASSERT_TRUE(c);
      routes.push_back(std::move(*c));
      outs.push_back(outputs(fields[s], 3));
      maps.push_back(host_map(fields[s].tensors, &outs[s]));
      jacobians.push_back(ij[s].read(core::Where::host));
    }
    for (const auto& r : routes) radials.push_back(r.plan(core::Where::host).radial);
    const auto& plan = routes[0].plan(core::Where::host);
    EXPECT_EQ(cluster::runs_strips(plan), k.n_r == 10);
    const auto table = shell_table(plan, maps, jacobians, radials);
    EXPECT_EQ(table.clusters(), 3 * ((fields[0].components + plan.components - 1) / plan.components));
    cpu::cluster_gradient(plan, table);
    for (std::size_t s = 0; s < shells.size(); ++s) {
      auto alone = outputs(fields[s], 3);
      cpu::cluster_gradient(routes[s].plan(core::Where::host), host_map(fields[s].tensors, &alone),
                            jacobians[s]);
      for (std::size_t t = 0; t < alone.size(); ++t) {
        EXPECT_LT(relative_difference(refs[s][t], outs[s][t]), 1e-12) << k.n_r << " shell " << s << " tensor " << t;
        EXPECT_EQ(relative_difference(alone[t], outs[s][t]), 0) << k.n_r << " shell " << s << " tensor " << t;
      }
    }
  }
  // other extents: another launch
  const Shell a(10, 19, 1, 2), b(10, 17, 1, 2), c(9, 19, 1, 2);
  const Differentiator da(a, AngularMethod::separable), db(b, AngularMethod::separable),
      dc(c, AngularMethod::separable);
  EXPECT_FALSE(da.shares_launch(db));
  EXPECT_FALSE(da.shares_launch(dc));
}

TEST(ClusterRoute, EveryLineAndCoefficientHasOneOwner) {
  for (const ShellCase k : {ShellCase{2, 3}, ShellCase{3, 4}, ShellCase{6, 7}, ShellCase{10, 19}, ShellCase{9, 6}}) {
    Shell s(k.n_r, k.n_theta, 1.5, 4);
    const Differentiator d(s, AngularMethod::separable);
    OperatorCache cache;
    // clusters of 8, 5 and 7 blocks, lines split evenly or by whole theta columns
    for (const auto& [blocks, columns] : {std::pair{cluster::max_blocks, false}, std::pair{5, false},
                                          std::pair{7, false}, std::pair{5, true},
                                          std::pair{cluster::max_blocks, true}}) {
      const ClusterOptions options{.tensor_cores = columns, .blocks = blocks, .shared_radial = columns};
      const auto c = ClusterShell::make(host_route(d, cache), 1, Index{1} << 30, options);
      ASSERT_TRUE(c);
      const auto& p = c->plan(core::Where::host);
      EXPECT_EQ(p.line_start(0), 0);
      EXPECT_EQ(p.line_start(blocks), p.lines);
      for (int l = 0; l < p.lines; ++l) {
        const int o = p.line_owner(l);
        ASSERT_TRUE(o >= 0 && o < blocks) << l;
        EXPECT_TRUE(p.line_start(o) <= l && l < p.line_start(o + 1)) << l;
      }
      EXPECT_EQ(p.q_start[0], 0);
      EXPECT_EQ(p.q_start[blocks], p.n_phi);
      for (int q = 0; q < p.n_phi; ++q) {
        const int o = p.q_owner(q);
        EXPECT_TRUE(p.q_start[o] <= q && q < p.q_start[o + 1]) << q;
      }
      EXPECT_EQ(p.group_q[0], 0);
      EXPECT_EQ(p.group_q[p.groups], p.n_phi);
      // cos and sin of each 0 < m < n_phi / 2 share their theta matrices: n_phi / 2 + 1 groups
      EXPECT_EQ(p.groups, p.n_phi / 2 + 1);
      // sigma = (-1)^m: the coefficients of even m (cos only at m = 0 and m = n_phi / 2)
      int even = 0;
      for (int m = 0; m <= p.n_phi / 2; m += 2) even += m == 0 || m == p.n_phi / 2 ? 1 : 2;
      EXPECT_EQ(p.even, even);
      if (columns) {
        for (int b = 0; b <= blocks; ++b) EXPECT_EQ(p.line_start(b) % p.n_r, 0) << "whole theta columns";
      }
      EXPECT_LE(Index{p.shared} * 8, ClusterShell::shared_bound(k.n_r, k.n_theta, 2 * k.n_theta, 1, options));
    }
  }
}

// The strategy's variant: the tensor cores in strips with padded rows, two components per cluster of 8 on blocks
// of 512 threads, for the 50 GH components on SpEC's shell (a compiled strips instance runs it); the register
// tiles where no tensor-core variant has a compiled instance (6 x 7 x 14) and for fewer than 33 components.
// Split groups (ClusterOptions::split_groups) refine the whole groups: every boundary of those stays, the blocks'
// coefficient ranges start at the coefficient nearest b n_phi / blocks, every added cut is one of those starts (at
// 10 x 19 on 8 blocks: no more groups per block and less shared memory than whole groups), each part of a split
// group carries the matrices of the group it came from, and the shared memory stays within the bound from the
// shapes.
TEST(ClusterRoute, SplitGroupsRefineTheGroupsAtTheBlockBoundaries) {
  for (const ShellCase k : {ShellCase{3, 4}, ShellCase{6, 7}, ShellCase{10, 19}, ShellCase{9, 6}}) {
    Shell s(k.n_r, k.n_theta, 1.5, 4);
    const Differentiator d(s, AngularMethod::separable);
    OperatorCache cache;
    for (const int blocks : {cluster::max_blocks, 5, 7}) {
      const auto whole = ClusterShell::make(host_route(d, cache), 2, Index{1} << 30, {.blocks = blocks});
      const ClusterOptions options{.blocks = blocks, .split_groups = true};
      const auto split = ClusterShell::make(host_route(d, cache), 2, Index{1} << 30, options);
      ASSERT_TRUE(whole && split);
      const auto &w = whole->plan(core::Where::host), &p = split->plan(core::Where::host);
      const std::vector<int> cuts(p.group_q, p.group_q + p.groups + 1);
      for (int g = 0; g <= w.groups; ++g)
        EXPECT_TRUE(std::binary_search(cuts.begin(), cuts.end(), w.group_q[g])) << "boundary " << w.group_q[g];
      for (int b = 0; b <= blocks; ++b)
        EXPECT_LE(std::abs(p.q_start[b] - double(b) * p.n_phi / blocks), 0.5) << k.n_r << " block " << b;
      // every added cut is a block's boundary (a cut inside a block would only add a group for it to stage)
      const std::vector<int> starts(p.q_start, p.q_start + blocks + 1), old(w.group_q, w.group_q + w.groups + 1);
      for (const int q : cuts)
        EXPECT_TRUE(std::binary_search(old.begin(), old.end(), q) || std::count(starts.begin(), starts.end(), q))
            << k.n_r << " blocks " << blocks << " cut " << q;
      if (k.n_r == 10 && blocks == cluster::max_blocks) {  // SpEC's shell: no more groups, less shared memory
        EXPECT_LE(p.max_groups, w.max_groups);
        EXPECT_LT(p.shared, w.shared);
      }
      const int ld = p.ld_theta, square = ld * p.n_theta;
      for (int t = 0; t < 2; ++t)
        for (int g = 0; g < p.groups; ++g) {
          const int from = w.group_of[p.group_q[g]];
          for (int v = 0; v < square; ++v)
            ASSERT_EQ(p.per_q[(t * p.groups + g) * square + v], w.per_q[(t * w.groups + from) * square + v])
                << k.n_r << " group " << g;
        }
      EXPECT_LE(Index{p.shared} * 8, ClusterShell::shared_bound(k.n_r, k.n_theta, 2 * k.n_theta, 2, options));
    }
  }
}

TEST(ClusterRoute, DefaultVariantByShellAndComponents) {
  struct Case {
    int n_r, n_theta;
    Index total;
    bool tensor_cores;
    int components;
  };
  for (const Case k : {Case{10, 19, 50, true, 2}, Case{6, 7, 50, false, 2}, Case{10, 19, 10, false, 1}}) {
    Shell s(k.n_r, k.n_theta, 1.5, 4);
    const Differentiator d(s, AngularMethod::separable);
    OperatorCache cache;
    const auto c = ClusterShell::make_default(host_route(d, cache), k.total, 227 * 1024);
    ASSERT_TRUE(c);
    const auto& p = c->plan(core::Where::host);
    EXPECT_EQ(p.tensor_cores, k.tensor_cores) << k.n_r << "x" << k.n_theta << " " << k.total;
    EXPECT_EQ(p.padded, k.tensor_cores);
    EXPECT_EQ(p.components, k.components);
    EXPECT_EQ(cluster::runs_fixed(p), k.n_r == 10) << "compiled fixed extents at 10x19x38 only";
    EXPECT_EQ(cluster::runs_strips(p), k.tensor_cores);
    EXPECT_EQ(p.threads, k.tensor_cores ? 512 : 256);
    EXPECT_EQ(p.max_q, k.tensor_cores ? 5 : p.max_q) << "split groups: 5 of 38 coefficients per block of 8";
    // launches of several shells: one component per cluster of 8 at four blocks per SM with split groups where
    // it runs
    const auto batch = ClusterShell::make_default(host_route(d, cache), k.total, 227 * 1024, 2);
    ASSERT_TRUE(batch);
    const auto& q = batch->plan(core::Where::host);
    EXPECT_EQ(q.components, k.tensor_cores ? 1 : k.components);
    EXPECT_EQ(q.per_sm, k.tensor_cores ? 4 : p.per_sm);
    EXPECT_EQ(q.max_q, k.tensor_cores ? 5 : q.max_q);
    EXPECT_EQ(cluster::runs_strips(q), k.tensor_cores);
    EXPECT_EQ(ClusterShell::shell_class(1), 1);
    EXPECT_EQ(ClusterShell::shell_class(8), 2);
  }
}

TEST(ClusterRoute, RefusesDftMatricesWithoutTheHalfPeriodSymmetry) {
  Shell s(4, 5, 1, 3);
  const Differentiator d(s, AngularMethod::separable);
  OperatorCache cache;
  auto route = host_route(d, cache);
  EXPECT_TRUE(ClusterShell::make(route, 1, Index{1} << 30));
  EXPECT_FALSE(ClusterShell::make(route, 1, 1024)) << "more shared memory than allowed";
  for (int which = 0; which < 2; ++which) {
    auto r = route;
    const Index size = r.n_phi * r.n_phi;
    std::vector<double> copy(which == 0 ? r.forward : r.inverse[1], (which == 0 ? r.forward : r.inverse[1]) + size);
    copy[3 * r.n_phi + 2] += 1e-6;  // phi 3 of q 2 in F; phi 2 of q 3 in B_1
    (which == 0 ? r.forward : r.inverse[1]) = copy.data();
    EXPECT_FALSE(ClusterShell::make(r, 1, Index{1} << 30)) << which;
  }
}

TEST(ClusterRoute, OnlyTheSeparableShellGradient) {
  Shell s(4, 5, 1, 3);
  EXPECT_TRUE(Differentiator(s, AngularMethod::separable).supports(Strategy::cluster));
  EXPECT_FALSE(Differentiator(s, AngularMethod::dense).supports(Strategy::cluster));
  EXPECT_FALSE(SpectralFilter(s, FilterSpec{}, AngularMethod::separable).supports(Strategy::cluster));
  const auto cube = make_topology("cube", {8, 8, 8}, {0, 0});
  EXPECT_FALSE(Differentiator(*cube, AngularMethod::dense).supports(Strategy::cluster));
  // SingleBH k = 10 (49 x 26 x 52): a block's buffers exceed shared memory
  EXPECT_FALSE(Differentiator(Shell(49, 26, 1, 3), AngularMethod::separable).supports(Strategy::cluster));
}

}  // namespace
}  // namespace loom::spectral
