// The replicable structures (src/loom/dec/replicable_structure.*) against facts independent of the construction:
// the cell counts and face counts the paper gives, FCC's and BCC's known cells, the Frank-Kasper coordination
// numbers of A15, C15 and Z, the Delaunay empty-sphere property, and the consistency of the dual complex (faces
// shared by two cells with opposite orientation, volumes that tile, dual edges orthogonal to faces).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "dec/every_grid.hpp"
#include "loom/dec/crystal.hpp"
#include "loom/dec/periodic_delaunay.hpp"
#include "loom/dec/replicable_structure.hpp"

namespace loom::dec {
namespace {

Vec3 shift_of(const ReplicableStructure& s, const std::array<int, 3>& o) {
  return hadamard(Vec3{double(o[0]), double(o[1]), double(o[2])}, s.size);
}

// Section 2 and the issue: m_s = 1, 12, 12, 46, 136, 80 (Z: 40 per hexagonal cell, two per structure); faces
// per cell 6 (cube), 8 and 4 (FCC octahedra and tetrahedra), 4 (all tetrahedra otherwise).
TEST_P(EveryGrid, CountsMatchThePaper) {
  const std::map<GridType, int> cells = {{GridType::cubic, 1}, {GridType::fcc, 12},  {GridType::bcc, 12},
                                         {GridType::a15, 46},  {GridType::c15, 136}, {GridType::z, 80}};
  const std::map<GridType, std::set<std::size_t>> faces = {{GridType::cubic, {6}}, {GridType::fcc, {4, 8}},
                                                           {GridType::bcc, {4}},   {GridType::a15, {4}},
                                                           {GridType::c15, {4}},   {GridType::z, {4}}};
  const auto& s = replicable_structure(GetParam());
  EXPECT_EQ(s.cell_count(), cells.at(GetParam()));
  std::set<std::size_t> seen;
  for (const auto& c : s.cells) seen.insert(c.faces.size());
  EXPECT_EQ(seen, faces.at(GetParam()));
}

TEST(Structure, FccHasFourOctahedraAndEightTetrahedra) {
  const auto& s = replicable_structure(GridType::fcc);
  int octahedra = 0, tetrahedra = 0;
  for (const auto& c : s.cells) {
    if (c.faces.size() == 8) {
      ++octahedra;
      EXPECT_EQ(c.vertices.size(), 6u);
      EXPECT_NEAR(c.volume, 1.0 / 6, 1e-14);  // regular octahedron of edge 1/sqrt2: sqrt2/3 a^3
    } else {
      ++tetrahedra;
      EXPECT_NEAR(c.volume, 1.0 / 24, 1e-14);  // regular tetrahedron of edge 1/sqrt2: a^3 / (6 sqrt2)
    }
    for (const auto& f : c.faces) EXPECT_NEAR(f.dual_length, std::sqrt(3.0) / 4, 1e-14);  // octahedron-tetrahedron
  }
  EXPECT_EQ(octahedra, 4);
  EXPECT_EQ(tetrahedra, 8);
}

// The paper: BCC's cells are congruent tetrahedra whose faces are isosceles with bottom:side = 2:sqrt3; its dual
// cells are truncated octahedra with equal edges (the Voronoi cell of BCC: edge sqrt2/4 for a cube of edge 1).
TEST(Structure, BccTetrahedraAreCongruentWithEqualDualEdges) {
  for (const auto& c : replicable_structure(GridType::bcc).cells) {
    EXPECT_NEAR(c.volume, 1.0 / 12, 1e-14);
    for (const auto& f : c.faces) {
      ASSERT_EQ(f.polygon.size(), 3u);
      std::vector<double> edges;
      for (int k = 0; k < 3; ++k) edges.push_back(norm(f.polygon[(k + 1) % 3] - f.polygon[k]));
      std::sort(edges.begin(), edges.end());
      EXPECT_NEAR(edges[0], std::sqrt(3.0) / 2, 1e-14);
      EXPECT_NEAR(edges[1], std::sqrt(3.0) / 2, 1e-14);
      EXPECT_NEAR(edges[2], 1.0, 1e-14);
      EXPECT_NEAR(f.dual_length, std::sqrt(2.0) / 4, 1e-14);
    }
  }
}

// Coordination numbers: how many Delaunay edges meet at each crystal site. Cubic 6, FCC 12, BCC 14 (8 + 6); the
// tetrahedrally close-packed phases have Frank-Kasper coordination: A15 (Cr3Si) 2 x CN12 + 6 x CN14; C15
// (MgCu2) 16 x CN12 + 8 x CN16; Z (Zr4Al3) per hexagonal cell 3 x CN12 + 2 x CN14 + 2 x CN15 (twice here).
TEST_P(EveryGrid, CoordinationNumbersOfTheCrystal) {
  const std::map<GridType, std::map<int, int>> expected = {
      {GridType::cubic, {{6, 1}}},          {GridType::fcc, {{12, 4}}},
      {GridType::bcc, {{14, 2}}},           {GridType::a15, {{12, 2}, {14, 6}}},
      {GridType::c15, {{12, 16}, {16, 8}}}, {GridType::z, {{12, 6}, {14, 4}, {15, 4}}}};
  const auto& s = replicable_structure(GetParam());
  const int n = static_cast<int>(s.primal_vertices.size());
  // Which crystal site a point is (modulo the structure), and its neighbours as rounded difference vectors.
  auto site = [&](Vec3 p) {
    for (int v = 0; v < n; ++v) {
      const Vec3 d = p - s.primal_vertices[static_cast<std::size_t>(v)];
      bool same = true;
      for (int k = 0; k < 3; ++k) same = same && std::abs(d[k] / s.size[k] - std::round(d[k] / s.size[k])) < 1e-9;
      if (same) return v;
    }
    return -1;
  };
  std::vector<std::set<std::array<long, 3>>> neighbours(static_cast<std::size_t>(n));
  for (const auto& c : s.cells)
    for (const auto& f : c.faces)
      for (std::size_t k = 0; k < f.polygon.size(); ++k) {
        const Vec3 a = f.polygon[k], b = f.polygon[(k + 1) % f.polygon.size()];
        for (auto [p, q] : {std::pair{a, b}, std::pair{b, a}}) {
          const int v = site(p);
          ASSERT_GE(v, 0);
          const Vec3 d = q - p;
          neighbours[static_cast<std::size_t>(v)].insert(
              {std::lround(d.x * 1e6), std::lround(d.y * 1e6), std::lround(d.z * 1e6)});
        }
      }
  std::map<int, int> histogram;
  for (const auto& nb : neighbours) ++histogram[static_cast<int>(nb.size())];
  EXPECT_EQ(histogram, expected.at(GetParam()));
}

// Every face is shared by exactly two cells, seen with opposite orientation (outward normals opposite, the
// vertex cycle reversed), and each side names the other as its neighbour with the opposite structure offset.
TEST_P(EveryGrid, FacesSharedByTwoCellsWithOppositeOrientation) {
  const auto& s = replicable_structure(GetParam());
  const double tol = 1e-9;
  std::size_t faces = 0;
  for (int i = 0; i < s.cell_count(); ++i)
    for (const auto& f : s.cells[static_cast<std::size_t>(i)].faces) {
      ++faces;
      // Counter-clockwise around the outward normal.
      EXPECT_GT(dot(cross(f.polygon[1] - f.polygon[0], f.polygon[2] - f.polygon[0]), f.normal), 0);
      // Find the faces of every cell (every nearby instance) that coincide with f.
      int matches = 0;
      Vec3 center{};
      for (const auto& p : f.polygon) center += p / double(f.polygon.size());
      for (int j = 0; j < s.cell_count(); ++j)
        for (const auto& g : s.cells[static_cast<std::size_t>(j)].faces) {
          if (g.polygon.size() != f.polygon.size()) continue;
          Vec3 g_center{};
          for (const auto& p : g.polygon) g_center += p / double(g.polygon.size());
          for (int ox = -1; ox <= 1; ++ox)
            for (int oy = -1; oy <= 1; ++oy)
              for (int oz = -1; oz <= 1; ++oz) {
                if (j == i && ox == 0 && oy == 0 && oz == 0) continue;
                const std::array<int, 3> o{ox, oy, oz};
                const Vec3 t = shift_of(s, o);
                if (norm(g_center + t - center) > tol) continue;
                // g shifted by o equals f with the cycle reversed: g[k] + t == f[(start - k) mod n].
                const std::size_t n = f.polygon.size();
                for (std::size_t start = 0; start < n; ++start) {
                  bool same = true;
                  for (std::size_t k = 0; k < n && same; ++k)
                    same = norm(g.polygon[k] + t - f.polygon[(start + n - k) % n]) < tol;
                  if (!same) continue;
                  ++matches;
                  EXPECT_EQ(f.neighbour, j);
                  EXPECT_EQ(f.offset, o);
                  EXPECT_EQ(g.neighbour, i);
                  EXPECT_EQ(g.offset, (std::array<int, 3>{-ox, -oy, -oz}));
                  EXPECT_LT(norm(f.normal + g.normal), tol);
                  EXPECT_NEAR(f.area, g.area, tol);
                  EXPECT_NEAR(f.dual_length, g.dual_length, tol);
                }
              }
        }
      EXPECT_EQ(matches, 1) << "cell " << i;
    }
  EXPECT_GT(faces, 0u);
}

TEST_P(EveryGrid, CellVolumesSumToTheStructureVolume) {
  const auto& s = replicable_structure(GetParam());
  double total = 0;
  for (const auto& c : s.cells) {
    EXPECT_GT(c.volume, 0);
    total += c.volume;
  }
  EXPECT_NEAR(total, s.volume(), 1e-12 * s.volume());
  const std::map<GridType, double> volume = {{GridType::cubic, 1}, {GridType::fcc, 1}, {GridType::bcc, 1},
                                             {GridType::a15, 1},   {GridType::c15, 1}, {GridType::z, std::sqrt(3.0)}};
  EXPECT_NEAR(s.volume(), volume.at(GetParam()), 1e-14);
}

// Each cell's boundary is closed (sum_F |F| n_F = 0) and its circumcentre is equidistant from its corners.
TEST_P(EveryGrid, CellsAreClosedAndInscribedInTheirSpheres) {
  for (const auto& c : replicable_structure(GetParam()).cells) {
    Vec3 flux{};
    for (const auto& f : c.faces) flux += f.area * f.normal;
    EXPECT_LT(norm(flux), 1e-13);
    for (const auto& v : c.vertices) EXPECT_NEAR(norm(v - c.circumcenter), c.circumradius, 1e-12);
  }
}

// The Delaunay property, checked by brute force over every crystal point near each cell: no point strictly
// inside a circumsphere.
TEST_P(EveryGrid, CircumspheresAreEmpty) {
  const auto& s = replicable_structure(GetParam());
  for (const auto& c : s.cells)
    for (int ox = -2; ox <= 2; ++ox)
      for (int oy = -2; oy <= 2; ++oy)
        for (int oz = -2; oz <= 2; ++oz)
          for (const auto& v : s.primal_vertices) {
            const Vec3 p = v + shift_of(s, {ox, oy, oz});
            EXPECT_GE(norm(p - c.circumcenter), c.circumradius - 1e-10);
          }
}

// The circumcentric dual: each dual edge (from c_i to the neighbour's circumcentre, in its instance) is
// orthogonal to its face, crosses it, and has positive length (these grids are well centred).
TEST_P(EveryGrid, DualEdgesAreOrthogonalToTheirFacesAndPositive) {
  const auto& s = replicable_structure(GetParam());
  for (const auto& c : s.cells) {
    EXPECT_GE(c.circumcenter.x, -1e-12);
    EXPECT_LT(c.circumcenter.x, s.size.x);
    EXPECT_GE(c.circumcenter.y, -1e-12);
    EXPECT_LT(c.circumcenter.y, s.size.y);
    EXPECT_GE(c.circumcenter.z, -1e-12);
    EXPECT_LT(c.circumcenter.z, s.size.z);
    for (const auto& f : c.faces) {
      const Vec3 there = s.cells[static_cast<std::size_t>(f.neighbour)].circumcenter + shift_of(s, f.offset);
      const Vec3 e = there - c.circumcenter;
      EXPECT_LT(norm(cross(e, f.normal)), 1e-12);
      EXPECT_GT(f.dual_length, 1e-3);
      EXPECT_NEAR(f.dual_length, norm(e), 1e-12);
      // The dual edge meets the face's plane on opposite sides of c_i and c_j.
      EXPECT_LT(dot(f.polygon[0] - c.circumcenter, f.normal), f.dual_length);
      EXPECT_GT(dot(f.polygon[0] - c.circumcenter, f.normal), 0);
    }
  }
}

TEST(Structure, ScalingScalesEveryMeasure) {
  const auto& s = replicable_structure(GridType::a15);
  const ReplicableStructure t = s.scaled(2.5);
  EXPECT_DOUBLE_EQ(t.scale, 2.5);
  EXPECT_DOUBLE_EQ(t.volume(), s.volume() * 2.5 * 2.5 * 2.5);
  for (std::size_t i = 0; i < s.cells.size(); ++i) {
    EXPECT_NEAR(t.cells[i].volume, 15.625 * s.cells[i].volume, 1e-15);
    EXPECT_NEAR(t.cells[i].laplacian_diagonal(), s.cells[i].laplacian_diagonal() / 6.25, 1e-9);
    EXPECT_NEAR(t.cells[i].faces[0].weight(), 2.5 * s.cells[i].faces[0].weight(), 1e-12);
  }
}

// The same construction handles any cuboid point set: a cubic crystal in a cell of 2 x 1 x 1 holding two
// cubes gives two cubes, each the other's neighbour along x.
TEST(Structure, DoubledCubicCellGivesTwoCubes) {
  Crystal c{GridType::cubic, "two cubes", {2, 1, 1}, {{0, 0, 0}, {1, 0, 0}}};
  const ReplicableStructure s = build_replicable_structure(c);
  ASSERT_EQ(s.cell_count(), 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_NEAR(s.cells[static_cast<std::size_t>(i)].volume, 1.0, 1e-14);
    int other = 0;
    for (const auto& f : s.cells[static_cast<std::size_t>(i)].faces) other += f.neighbour != i;
    EXPECT_EQ(other, 2);  // the two x faces
  }
}

}  // namespace
}  // namespace loom::dec
