// The tree and interaction lists built by the backend code of gpu/device_tree.* and gpu/device_lists.* (here on the
// host: thrust's host system and the CPU parallel_for run the same code the GPU runs) against the host Tree and the
// dual traversal: for bodies without equal coordinates the very cells of the host tree (body sets included); for a
// lattice (many ties) a tree with the host tree's invariants; lists with exactly the dual traversal's pairs per
// target (free space, periodic, and guarded by core radii); and the FMM over the backend-built tree equal to the
// direct sum to the FMM's error and to the host tree's FMM closely.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <vector>

#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/fmm.hpp"
#include "loom/fmm/gpu/device_lists.hpp"
#include "loom/fmm/gpu/device_tree.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm {
namespace {

constexpr core::Backend cpu = core::Backend::cpu;

Tree backend_tree(const std::vector<Vec3d>& x, int ncrit) {
  return gpu::to_host_tree(gpu::build_tree(cpu, x.data(), static_cast<Index>(x.size()), ncrit));
}

std::vector<Vec3d> lattice(int n, double h) {
  std::vector<Vec3d> x;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) x.push_back({h * (i + 0.5), h * (j + 0.5), h * (k + 0.5)});
  return x;
}

// The host tree's invariants (tests/fmm/test_tree.cpp's, for any tree over x).
void check_invariants(const Tree& tree, const std::vector<Vec3d>& x, int ncrit) {
  std::vector<Index> sorted = tree.order();
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], static_cast<Index>(i));  // every body once
  const auto& cells = tree.cells();
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const Cell& cell = cells[c];
    double r2 = 0;
    for (Index i = cell.begin; i < cell.begin + cell.count; ++i) {
      const Vec3d p = tree.positions()[static_cast<std::size_t>(i)];
      ASSERT_EQ(p.x, x[static_cast<std::size_t>(tree.order()[static_cast<std::size_t>(i)])].x);
      r2 = std::max(r2, norm2(p - cell.center));
    }
    EXPECT_NEAR(cell.radius, std::sqrt(r2), 1e-12 * (1 + cell.radius)) << c;  // the radius is the largest distance
    if (cell.leaf()) {
      EXPECT_LE(cell.count, ncrit) << c;
      continue;
    }
    EXPECT_GE(cell.child_count, 2);
    EXPECT_LE(cell.child_count, 8);
    Index next = cell.begin;  // children contiguous, in order, partitioning the parent
    for (int k = cell.child_begin; k < cell.child_begin + cell.child_count; ++k) {
      const Cell& child = cells[static_cast<std::size_t>(k)];
      EXPECT_EQ(child.begin, next);
      EXPECT_EQ(child.parent, static_cast<int>(c));
      EXPECT_EQ(child.level, cell.level + 1);
      next += child.count;
    }
    EXPECT_EQ(next, cell.begin + cell.count);
  }
  for (int l = 0; l < tree.levels(); ++l)
    for (int c = tree.level_begin(l); c < tree.level_begin(l + 1); ++c) EXPECT_EQ(cells[static_cast<std::size_t>(c)].level, l);
}

TEST(DeviceTree, CellsAreTheHostTreesForDistinctCoordinates) {
  for (Distribution d : {Distribution::cube, Distribution::plummer, Distribution::sphere}) {
    const auto x = make_positions(d, 20000, 7);
    const Tree host(x, 40), built = backend_tree(x, 40);
    check_invariants(built, x, 40);
    ASSERT_EQ(built.cells().size(), host.cells().size()) << to_string(d);
    ASSERT_EQ(built.levels(), host.levels());
    for (std::size_t c = 0; c < host.cells().size(); ++c) {
      const Cell &a = built.cells()[c], &b = host.cells()[c];
      ASSERT_EQ(std::tie(a.begin, a.count, a.child_begin, a.child_count, a.parent, a.level),
                std::tie(b.begin, b.count, b.child_begin, b.child_count, b.parent, b.level))
          << to_string(d) << " cell " << c;
      EXPECT_NEAR(a.radius, b.radius, 1e-12 * b.radius);
      EXPECT_NEAR(std::sqrt(norm2(a.center - b.center)), 0.0, 1e-12 * (1 + b.radius));
      if (!a.leaf()) continue;
      std::vector<Index> p(built.order().begin() + a.begin, built.order().begin() + a.begin + a.count);
      std::vector<Index> q(host.order().begin() + b.begin, host.order().begin() + b.begin + b.count);
      std::sort(p.begin(), p.end());
      std::sort(q.begin(), q.end());
      ASSERT_EQ(p, q) << "leaf " << c;  // the same bodies
    }
  }
}

TEST(DeviceTree, LatticeWithTiesGivesAValidTree) {
  const auto x = lattice(24, 0.25);
  for (int ncrit : {1, 8, 64, 20000}) check_invariants(backend_tree(x, ncrit), x, ncrit);
  check_invariants(backend_tree({}, 8), {}, 8);
}

// Per target cell, the sorted (source, shift) pairs of each kind.
using PairSets = std::vector<std::vector<std::pair<int, int>>>;
PairSets by_target(const std::vector<Index>& offset, const std::vector<int>& source,
                   const std::vector<std::uint8_t>& shift) {
  PairSets out(offset.size() - 1);
  for (std::size_t c = 0; c + 1 < offset.size(); ++c) {
    for (Index k = offset[c]; k < offset[c + 1]; ++k)
      out[c].push_back({source[static_cast<std::size_t>(k)], shift[static_cast<std::size_t>(k)]});
    std::sort(out[c].begin(), out[c].end());
  }
  return out;
}

void expect_same_lists(const std::vector<Vec3d>& x, int ncrit, TraversalOptions o, bool with_sigma) {
  const gpu::BackendTree bt = gpu::build_tree(cpu, x.data(), static_cast<Index>(x.size()), ncrit);
  const Tree tree = gpu::to_host_tree(bt);
  std::vector<double> sigma(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) sigma[i] = 0.01 + 0.02 * double(i % 7) / 7;
  const core::Array<double> sigma_array = core::Array<double>::from(std::span<const double>(sigma));
  const core::Array<double> cell_sigma = gpu::cell_max_sigma(bt, sigma_array.read(core::Where::host));
  std::vector<double> host_sigma(tree.cells().size(), 0.0);  // written separately: each cell from its bodies
  for (std::size_t c = 0; c < tree.cells().size(); ++c) {
    const Cell& cell = tree.cells()[c];
    for (Index i = cell.begin; i < cell.begin + cell.count; ++i)
      host_sigma[c] = std::max(host_sigma[c], sigma[static_cast<std::size_t>(tree.order()[static_cast<std::size_t>(i)])]);
    ASSERT_EQ(cell_sigma.host()[c], host_sigma[c]) << c;
  }
  TraversalOptions device_o = o;
  if (with_sigma) {
    o.source_sigma = host_sigma.data();
    device_o.source_sigma = cell_sigma.read(core::Where::host);
  }
  const InteractionLists host = traverse(tree, tree, o);
  const InteractionLists dev = gpu::to_host_lists(gpu::traverse_tree(bt, device_o));
  EXPECT_EQ(dev.m2l_count(), host.m2l_count());
  EXPECT_EQ(dev.p2p_count(), host.p2p_count());
  EXPECT_GT(host.p2p_count(), 0);
  EXPECT_EQ(by_target(dev.m2l_offset, dev.m2l_source, dev.m2l_shift),
            by_target(host.m2l_offset, host.m2l_source, host.m2l_shift));
  EXPECT_EQ(by_target(dev.p2p_offset, dev.p2p_source, dev.p2p_shift),
            by_target(host.p2p_offset, host.p2p_source, host.p2p_shift));
}

TEST(DeviceLists, EqualTheDualTraversalsPairs) {
  TraversalOptions o;
  o.theta = 0.5;
  expect_same_lists(make_positions(Distribution::plummer, 20000, 3), 32, o, false);
  expect_same_lists(lattice(20, 0.3), 16, o, false);
  TraversalOptions guarded = o;
  guarded.guard = 6;
  expect_same_lists(make_positions(Distribution::cube, 20000, 4), 32, guarded, true);
  TraversalOptions periodic = o;
  periodic.periodic = true;
  periodic.period = 6.0;
  expect_same_lists(lattice(16, 6.0 / 16), 16, periodic, false);
  TraversalOptions cutoff;  // P2P only within a guard of core radii (the Gaussian sums)
  cutoff.far_field = false;
  cutoff.guard = 8;
  expect_same_lists(make_positions(Distribution::cube, 8000, 5), 32, cutoff, true);
}

TEST(DeviceTree, FmmOverItMatchesTheDirectSumAndTheHostTree) {
  const auto x = lattice(22, 0.1);  // ties: a tree of its own, not the host's
  const auto q = make_uniform(static_cast<Index>(x.size()), -1, 1, 9);
  Options o;
  o.order = 10;
  o.ncrit = 32;
  Evaluator host(o), built(o);
  host.set_positions(x);
  built.set_tree(backend_tree(x, o.ncrit));
  const LaplaceResult a = built.laplace(q), b = host.laplace(q);
  const auto targets = sample_targets(static_cast<Index>(x.size()), 300);
  std::vector<double> phi;
  std::vector<Vec3d> grad;
  direct_laplace(x, q, targets, phi, grad);
  std::vector<double> fa, fb, fd;
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const auto i = static_cast<std::size_t>(targets[k]);
    for (int d = 0; d < 3; ++d) {
      fa.push_back(a.gradient[i][d]);
      fb.push_back(b.gradient[i][d]);
      fd.push_back(grad[k][d]);
    }
  }
  const double error = relative_l2_error(fa, fd), host_error = relative_l2_error(fb, fd);
  EXPECT_LT(error, 1e-4);  // issue 21's accuracy at p = 10
  EXPECT_LT(error, 3 * host_error + 1e-7);
  EXPECT_LT(relative_l2_error(fa, fb), 1e-4);
}

// Laplace gradients at sampled targets: the evaluator's, and the direct sum's.
struct Gradients {
  std::vector<double> fmm, direct;
};
Gradients sampled_gradients(Evaluator& e, const std::vector<Vec3d>& x, const std::vector<double>& q) {
  const LaplaceResult r = e.laplace(q);
  const auto targets = sample_targets(static_cast<Index>(x.size()), 300);
  std::vector<double> phi;
  std::vector<Vec3d> grad;
  direct_laplace(x, q, targets, phi, grad);
  Gradients g;
  for (std::size_t k = 0; k < targets.size(); ++k)
    for (int d = 0; d < 3; ++d) {
      g.fmm.push_back(r.gradient[static_cast<std::size_t>(targets[k])][d]);
      g.direct.push_back(grad[k][d]);
    }
  return g;
}

TEST(DeviceTree, RefittedTreeGivesTheRebuiltTreesResults) {
  const auto x0 = make_positions(Distribution::plummer, 10000, 5);
  const auto shift = make_uniform_vectors(static_cast<Index>(x0.size()), -0.05, 0.05, 6);
  std::vector<Vec3d> x1(x0.size());
  for (std::size_t i = 0; i < x0.size(); ++i) x1[i] = x0[i] + shift[i];
  const auto q = make_uniform(static_cast<Index>(x0.size()), -1, 1, 9);
  gpu::BackendTree bt = gpu::build_tree(cpu, x0.data(), static_cast<Index>(x0.size()), 32);
  const Tree before = gpu::to_host_tree(bt);
  const double growth = gpu::refit(bt, x1.data());
  const Tree after = gpu::to_host_tree(bt);
  check_invariants(after, x1, 32);
  double largest = 0;  // the growth, from the two trees' radii
  for (std::size_t c = 0; c < after.cells().size(); ++c)
    largest = std::max(largest, after.cells()[c].radius / before.cells()[c].radius);
  EXPECT_EQ(growth, largest);
  EXPECT_GT(growth, 1.0);
  Options o;
  o.ncrit = 32;
  Evaluator refitted(o), rebuilt(o);
  refitted.set_tree(after);
  rebuilt.set_positions(x1);
  const Gradients a = sampled_gradients(refitted, x1, q), b = sampled_gradients(rebuilt, x1, q);
  EXPECT_LT(relative_l2_error(a.fmm, a.direct), 1e-4);
  EXPECT_LT(relative_l2_error(b.fmm, b.direct), 1e-4);
  EXPECT_LT(relative_l2_error(a.fmm, b.fmm), 1e-4);
}

// The evaluator with Options::tree_on_backend (here the host's thrust): the same tree and lists as the host's for
// bodies without ties, so the same Biot-Savart sums up to the order of the terms; the guarded lists see the cells'
// core radii through the traverser.
TEST(DeviceTree, EvaluatorWithTheBackendTreeGivesTheHostsBiotSavart) {
  const auto x = make_positions(Distribution::cube, 6000, 2);
  const auto alpha = make_uniform_vectors(static_cast<Index>(x.size()), -1, 1, 3);
  const std::vector<double> sigma(x.size(), 0.06);
  Options o;
  o.ncrit = 32;
  Options on_backend = o;
  on_backend.tree_on_backend = true;
  const BiotSavartResult a = biot_savart(x, alpha, sigma, on_backend), b = biot_savart(x, alpha, sigma, o);
  EXPECT_EQ(a.stats.m2l_pairs, b.stats.m2l_pairs);
  EXPECT_EQ(a.stats.p2p_pairs, b.stats.p2p_pairs);
  std::vector<double> ua, ub;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (int d = 0; d < 3; ++d) {
      ua.push_back(a.velocity[i][d]);
      ub.push_back(b.velocity[i][d]);
      ua.push_back(a.stretching[i][d]);
      ub.push_back(b.stretching[i][d]);
    }
  EXPECT_LT(relative_l2_error(ua, ub), 1e-12);
}

// root_rounds: the root cut in fewer rounds (each along its part's longest side) into near-cubic pieces, as a
// rank's elongated domain wants (parallel/cubic_tree.hpp); the other levels as ever. On a 1 x 1 x 1/2 slab two
// rounds give 4 cubes below the root, and the tree needs about half the M2L pairs of the plain tree, whose cells
// are 2 : 2 : 1 at every level (the host cubic tree's 0.48x, test_fmm_cubic_tree.cpp); one round on a
// 1 x 1/2 x 1/2 bar gives 2 cubes.
std::vector<Vec3d> box_of(Index n, Vec3d sides) {
  std::vector<Vec3d> x = make_positions(Distribution::cube, n, 5);  // [-1, 1)^3
  for (Vec3d& v : x)
    for (int d = 0; d < 3; ++d) v[d] *= sides[d];
  return x;
}

// The largest over the smallest side of each child of the root's bodies' bounding box.
std::vector<double> root_children_aspect(const Tree& t) {
  std::vector<double> out;
  const Cell& root = t.cells()[0];
  for (int k = root.child_begin; k < root.child_begin + root.child_count; ++k) {
    const Cell& c = t.cells()[static_cast<std::size_t>(k)];
    Vec3d lo = t.positions()[static_cast<std::size_t>(c.begin)], hi = lo;
    for (Index i = c.begin; i < c.begin + c.count; ++i)
      for (int d = 0; d < 3; ++d) {
        lo[d] = std::min(lo[d], t.positions()[static_cast<std::size_t>(i)][d]);
        hi[d] = std::max(hi[d], t.positions()[static_cast<std::size_t>(i)][d]);
      }
    const Vec3d e = hi - lo;
    out.push_back(std::max({e.x, e.y, e.z}) / std::min({e.x, e.y, e.z}));
  }
  return out;
}

Tree rounds_tree(const std::vector<Vec3d>& x, int ncrit, int rounds) {
  return gpu::to_host_tree(gpu::build_tree(cpu, x.data(), static_cast<Index>(x.size()), ncrit, rounds));
}

TEST(DeviceTree, RootCutInFewerRoundsGivesNearCubicPieces) {
  const int ncrit = 64;
  const auto slab = box_of(30000, {1, 1, 0.5});
  const Tree cut = rounds_tree(slab, ncrit, 2), plain = rounds_tree(slab, ncrit, 3);
  check_invariants(cut, slab, ncrit);
  ASSERT_EQ(cut.cells()[0].child_count, 4);
  for (double a : root_children_aspect(cut)) EXPECT_LT(a, 1.1);
  for (double a : root_children_aspect(plain)) EXPECT_GT(a, 1.8);  // 1/2 x 1/2 x 1/4 (normalised), 2 : 2 : 1
  TraversalOptions o;
  o.theta = 0.4;
  const double m2l_cut = double(traverse(cut, cut, o).m2l_source.size());
  const double m2l_plain = double(traverse(plain, plain, o).m2l_source.size());
  std::printf("slab 1 x 1 x 1/2, 30000 bodies: M2L pairs %.0f (root cut in 2 rounds), %.0f (plain)\n", m2l_cut,
              m2l_plain);
  EXPECT_LT(m2l_cut, 0.6 * m2l_plain);
  const auto bar = box_of(20000, {1, 0.5, 0.5});
  const Tree halves = rounds_tree(bar, ncrit, 1);
  check_invariants(halves, bar, ncrit);
  ASSERT_EQ(halves.cells()[0].child_count, 2);
  for (double a : root_children_aspect(halves)) EXPECT_LT(a, 1.1);
}

}  // namespace
}  // namespace loom::fmm
