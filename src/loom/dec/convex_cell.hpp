// The boundary of a convex 3-cell given only its vertices (all on one sphere, for a Delaunay cell): its planar
// faces (co-planar triangles merged into one polygon), their outward normals and areas, and the cell volume.
#pragma once

#include <span>
#include <vector>

#include "loom/dec/vec3.hpp"

namespace loom::dec {

struct ConvexFace {
  std::vector<int> vertices;  // indices into the cell's points, counter-clockwise seen from outside
  Vec3 normal;                // outward unit normal
  double area = 0;
  Vec3 centroid;  // area centroid of the polygon
};

struct ConvexCell {
  std::vector<ConvexFace> faces;
  double volume = 0;
};

// `tolerance`: distance below which a point counts as lying on a plane. Throws loom::Error if the points do
// not span a 3-cell.
ConvexCell convex_cell(std::span<const Vec3> points, double tolerance);

// Circumcentre of a tetrahedron; `ok` is false when the four points are (nearly) co-planar: when
// |u . (v x w)| <= flatness |u| |v| |w| for the edges u, v, w from a.
Vec3 circumcenter(Vec3 a, Vec3 b, Vec3 c, Vec3 d, double flatness, bool& ok);

}  // namespace loom::dec
