// The DEC Laplacian (src/loom/dec/laplacian.hpp, eq. 5/8 of the DEC-GPE paper) on every grid: exact on linear
// functions, 2 delta_ab on x_a x_b in the volume-weighted mean (so 6 on |x|^2), and second-order convergence of
// the solution of a periodic Poisson problem with a smooth right-hand side. (Pointwise, the truncation error on
// quadratics is O(1) wherever the cells differ — FCC's octahedra get 4.5 and its tetrahedra 9 on |x|^2 — as for
// any Voronoi-type finite volume scheme; the method still converges at second order, which is what is tested.)
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "dec/every_grid.hpp"
#include "loom/dec/laplacian.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/dec/stencil.hpp"

namespace loom::dec {
namespace {

// The middle structure of a 3 x 3 x 3 block (psi = 0 outside it): every neighbour of its cells is inside.
struct Block {
  const ReplicableStructure& s;
  Stencil stencil{s};
  StructureLattice lattice{s.cell_count(), 3, 3, 3, false};
  std::vector<Vec3> x = dual_vertex_positions(s, lattice);

  template <class F>
  std::vector<double> laplacian_in_middle(F f) const {
    std::vector<double> psi(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) psi[i] = f(x[i]);
    std::vector<double> out;
    for (int c = 0; c < lattice.cells; ++c)
      out.push_back(laplacian(stencil.view(core::Where::host), lattice, psi.data(), lattice.index(c, 1, 1, 1)));
    return out;
  }
};

// Global index i = m_s (sz Sx Sy + sy Sx + sx) + local (Algorithm 1), and the dual vertex there.
TEST(Laplacian, LatticeLayoutAndPositions) {
  const auto& s = replicable_structure(GridType::z);
  const StructureLattice lattice{s.cell_count(), 3, 4, 5, true};
  const auto x = dual_vertex_positions(s, lattice);
  ASSERT_EQ(x.size(), std::size_t(80 * 60));
  const Index i = 80 * (4 * 3 * 4 + 2 * 3 + 1) + 17;  // local 17 of instance (1, 2, 4)
  EXPECT_EQ(lattice.index(17, 1, 2, 4), i);
  EXPECT_EQ(lattice.local(i), 17);
  EXPECT_EQ(lattice.instance(i).sx, 1);
  EXPECT_EQ(lattice.instance(i).sy, 2);
  EXPECT_EQ(lattice.instance(i).sz, 4);
  const Vec3 expected = s.cells[17].circumcenter + Vec3{1 * s.size.x, 2 * s.size.y, 4 * s.size.z};
  EXPECT_LT(norm(x[static_cast<std::size_t>(i)] - expected), 1e-14);
  // Periodic wrap and the non-periodic outside.
  EXPECT_EQ(lattice.neighbour(lattice.index(3, 0, 0, 0), 5, -1, 0, 1), lattice.index(5, 2, 0, 1));
  const StructureLattice closed{s.cell_count(), 3, 4, 5, false};
  EXPECT_EQ(closed.neighbour(closed.index(3, 0, 0, 0), 5, -1, 0, 1), -1);
  EXPECT_EQ(closed.neighbour(closed.index(3, 2, 3, 4), 5, 0, 0, -1), closed.index(5, 2, 3, 3));
}

// The flat stencil carries exactly the structure's faces, weights, volumes and dual vertices.
TEST_P(EveryGrid, StencilIsTheStructureFlattened) {
  const auto& s = replicable_structure(GetParam()).scaled(1.7);
  const Stencil stencil(s);
  const StencilView v = stencil.view(core::Where::host);
  ASSERT_EQ(v.cells, s.cell_count());
  EXPECT_EQ(v.first[0], 0);
  for (int i = 0; i < v.cells; ++i) {
    const auto& c = s.cells[static_cast<std::size_t>(i)];
    ASSERT_EQ(v.faces(i), static_cast<int>(c.faces.size()));
    EXPECT_DOUBLE_EQ(v.volume[i], c.volume);
    EXPECT_DOUBLE_EQ(v.inverse_volume[i] * c.volume, 1.0);
    EXPECT_EQ(norm(v.position[i] - c.circumcenter), 0.0);
    for (int f = 0; f < v.faces(i); ++f) {
      const StencilEntry e = v.entries[v.first[i] + f];
      const auto& face = c.faces[static_cast<std::size_t>(f)];
      EXPECT_EQ(e.neighbour, face.neighbour);
      EXPECT_EQ((std::array<int, 3>{e.dx, e.dy, e.dz}), face.offset);
      EXPECT_DOUBLE_EQ(e.weight, face.area / face.dual_length);
    }
  }
  EXPECT_EQ(norm(v.size - s.size), 0.0);
}

TEST_P(EveryGrid, AnnihilatesLinearFunctions) {
  const Block b{replicable_structure(GetParam())};
  const auto lap = b.laplacian_in_middle([](Vec3 p) { return 0.3 + 1.1 * p.x - 0.7 * p.y + 2.3 * p.z; });
  for (double v : lap) EXPECT_NEAR(v, 0.0, 1e-10);
}

// Volume-weighted mean of Lap(x_a x_b) over the structure = 2 delta_ab: the diamonds |F| |E*| / 3 tile space
// with the right second moments. The trace is the "6 on |x|^2".
TEST_P(EveryGrid, QuadraticsInTheVolumeWeightedMean) {
  const Block b{replicable_structure(GetParam())};
  double total_volume = 0;
  for (const auto& c : b.s.cells) total_volume += c.volume;
  for (int a = 0; a < 3; ++a)
    for (int c = a; c < 3; ++c) {
      const auto lap = b.laplacian_in_middle([&](Vec3 p) { return p[a] * p[c]; });
      double mean = 0;
      for (std::size_t i = 0; i < lap.size(); ++i) mean += b.s.cells[i].volume * lap[i] / total_volume;
      EXPECT_NEAR(mean, a == c ? 2.0 : 0.0, 1e-10) << "x" << a << " x" << c;
    }
  const auto lap = b.laplacian_in_middle([](Vec3 p) { return dot(p, p); });
  double mean = 0;
  for (std::size_t i = 0; i < lap.size(); ++i) mean += b.s.cells[i].volume * lap[i] / total_volume;
  EXPECT_NEAR(mean, 6.0, 1e-10);
}

// FCC, pointwise: Lap |x|^2 = sum_F |F| |E*| / |B| = 8 (sqrt3/8)(sqrt3/4) * 6 = 4.5 on the octahedra and
// 4 (sqrt3/8)(sqrt3/4) * 24 = 9 on the tetrahedra; cubic and BCC (all cells alike) give 6 everywhere.
TEST(Laplacian, PointwiseValuesOnQuadraticsAreKnown) {
  {
    const Block b{replicable_structure(GridType::fcc)};
    const auto lap = b.laplacian_in_middle([](Vec3 p) { return dot(p, p); });
    for (std::size_t i = 0; i < lap.size(); ++i) EXPECT_NEAR(lap[i], b.s.cells[i].faces.size() == 8 ? 4.5 : 9.0, 1e-10);
  }
  for (GridType g : {GridType::cubic, GridType::bcc}) {
    const Block b{replicable_structure(g)};
    for (double v : b.laplacian_in_middle([](Vec3 p) { return dot(p, p); })) EXPECT_NEAR(v, 6.0, 1e-10);
  }
}

TEST(Laplacian, WorksOnComplexValuesAndZeroOutside) {
  const auto& s = replicable_structure(GridType::bcc);
  Stencil stencil(s);
  const StructureLattice lattice{s.cell_count(), 2, 1, 1, false};
  std::vector<std::complex<double>> psi(static_cast<std::size_t>(lattice.size()), {1.0, -2.0});
  // A constant inside a domain with psi = 0 outside: only boundary cells feel the zero, with -w (psi_i) each.
  for (Index i = 0; i < lattice.size(); ++i) {
    const int local = static_cast<int>(i % s.cell_count());
    double outside = 0;
    for (const auto& f : s.cells[static_cast<std::size_t>(local)].faces) {
      const int sx = static_cast<int>(i / s.cell_count()) + f.offset[0];
      if (sx < 0 || sx > 1 || f.offset[1] != 0 || f.offset[2] != 0) outside += f.weight();
    }
    const auto lap = laplacian(stencil.view(core::Where::host), lattice, psi.data(), i);
    const std::complex<double> expected = -outside / s.cells[static_cast<std::size_t>(local)].volume * psi[0];
    EXPECT_NEAR(std::abs(lap - expected), 0.0, 1e-12);
  }
}

// Solves Lap u = f on a periodic box of n^3 structures for the smooth u = prod_k sin(2 pi x_k / L_k + phase_k)
// by conjugate gradients on the symmetric form -V Lap (V = diag |B_i|); returns max |u_h - u| after removing
// the (volume-weighted) mean of each.
double poisson_error(GridType grid, int n) {
  const auto& s = replicable_structure(grid);
  Stencil stencil(s);
  const StencilView view = stencil.view(core::Where::host);
  const StructureLattice lattice{s.cell_count(), n, n, n, true};
  const auto x = dual_vertex_positions(s, lattice);
  const std::size_t size = x.size();
  const Vec3 k{2 * std::numbers::pi / (n * s.size.x), 2 * std::numbers::pi / (n * s.size.y),
               2 * std::numbers::pi / (n * s.size.z)};
  auto exact = [&](Vec3 p) {
    return std::sin(k.x * p.x + 0.3) * std::sin(k.y * p.y + 0.7) * std::sin(k.z * p.z + 1.1);
  };
  std::vector<double> volume(size), u(size), b(size);
  double total = 0, b_sum = 0;
  for (std::size_t i = 0; i < size; ++i) {
    volume[i] = s.cells[i % s.cells.size()].volume;
    u[i] = exact(x[i]);
    b[i] = volume[i] * dot(k, k) * u[i];  // -V f with f = -|k|^2 u
    total += volume[i];
    b_sum += b[i];
  }
  for (std::size_t i = 0; i < size; ++i) b[i] -= volume[i] * b_sum / total;  // solvable: orthogonal to constants
  auto apply = [&](const std::vector<double>& in, std::vector<double>& out) {
    for (std::size_t i = 0; i < size; ++i) out[i] = -volume[i] * laplacian(view, lattice, in.data(), Index(i));
  };
  std::vector<double> sol(size, 0.0), r = b, p = b, ap(size);
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < size; ++i) rr += r[i] * r[i];
  bb = rr;
  for (int it = 0; it < 20000 && rr > 1e-26 * bb; ++it) {
    apply(p, ap);
    double pap = 0;
    for (std::size_t i = 0; i < size; ++i) pap += p[i] * ap[i];
    const double alpha = rr / pap;
    double rr_new = 0;
    for (std::size_t i = 0; i < size; ++i) {
      sol[i] += alpha * p[i];
      r[i] -= alpha * ap[i];
      rr_new += r[i] * r[i];
    }
    for (std::size_t i = 0; i < size; ++i) p[i] = r[i] + rr_new / rr * p[i];
    rr = rr_new;
  }
  EXPECT_LE(rr, 1e-24 * bb) << "CG did not converge";
  double mean_h = 0, mean = 0;
  for (std::size_t i = 0; i < size; ++i) {
    mean_h += volume[i] * sol[i] / total;
    mean += volume[i] * u[i] / total;
  }
  double err = 0;
  for (std::size_t i = 0; i < size; ++i) err = std::max(err, std::abs((sol[i] - mean_h) - (u[i] - mean)));
  return err;
}

TEST_P(EveryGrid, PoissonSolutionConvergesAtSecondOrder) {
  // Resolutions with a few dual vertices per structure edge: cubic (one per structure) needs more structures.
  const int n0 = GetParam() == GridType::cubic ? 8 : 4;
  const double coarse = poisson_error(GetParam(), n0), fine = poisson_error(GetParam(), 2 * n0);
  const double order = std::log2(coarse / fine);
  RecordProperty("order", std::to_string(order));
  EXPECT_GT(order, 1.8) << "errors " << coarse << " (n = " << n0 << "), " << fine << " (n = " << 2 * n0 << ")";
  EXPECT_LT(order, 2.6);
  EXPECT_LT(fine, 0.05);
}

}  // namespace
}  // namespace loom::dec
