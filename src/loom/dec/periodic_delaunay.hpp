// The Delaunay complex of a periodic point set (a Crystal tiled over all of space): every sphere through four
// or more points with no point inside it bounds one primal 3-cell; points co-spherical within a tolerance
// belong to one convex cell (the cube of the cubic grid, FCC's octahedra). Section 2 of the DEC-GPE paper.
#pragma once

#include <array>
#include <compare>
#include <vector>

#include "loom/dec/crystal.hpp"
#include "loom/dec/vec3.hpp"

namespace loom::dec {

// A vertex of the tiling: vertex `vertex` of the crystal's cell, in the cell copy shifted by `offset` cells.
struct LatticePoint {
  int vertex = 0;
  std::array<int, 3> offset{};
  auto operator<=>(const LatticePoint&) const = default;
};

Vec3 position(const Crystal& crystal, const LatticePoint& p);

struct DelaunayCell {
  std::vector<LatticePoint> vertices;  // every point on the empty sphere, sorted
  Vec3 circumcenter;                   // inside the crystal's cell [0, size)
  double circumradius = 0;
};

// One cell per empty sphere whose centre lies in the unit cell, sorted by centre (z, then y, then x).
// `relative_tolerance` (times the largest cell edge) decides "on the sphere" and "on a plane". The search
// grows its neighbourhood until the cells' volumes add up to the cell volume; throws loom::Error if they never
// do (a point set too degenerate for the tolerance).
std::vector<DelaunayCell> periodic_delaunay(const Crystal& crystal, double relative_tolerance = 1e-9);

}  // namespace loom::dec
