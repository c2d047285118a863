// Brute force over vertex triples: a cell here has at most a few dozen vertices (8 for the cube).
#include "loom/dec/convex_cell.hpp"

#include <algorithm>
#include <cmath>

#include "loom/core/error.hpp"

namespace loom::dec {

Vec3 circumcenter(Vec3 a, Vec3 b, Vec3 c, Vec3 d, double flatness, bool& ok) {
  // Relative to a: 2 (p_k - a) . x = |p_k - a|^2, solved by Cramer's rule.
  const Vec3 u = b - a, v = c - a, w = d - a;
  const double det = 2 * dot(u, cross(v, w));
  ok = std::abs(det) > 2 * flatness * norm(u) * norm(v) * norm(w);
  if (!ok) return a;
  const Vec3 x = (dot(u, u) * cross(v, w) + dot(v, v) * cross(w, u) + dot(w, w) * cross(u, v)) / det;
  return a + x;
}

ConvexCell convex_cell(std::span<const Vec3> points, double tolerance) {
  const int n = static_cast<int>(points.size());
  LOOM_REQUIRE(n >= 4, "convex_cell: fewer than four points");
  Vec3 inside{};
  for (const auto& p : points) inside += p;
  inside = inside / n;

  ConvexCell cell;
  std::vector<std::vector<int>> seen;  // vertex sets of the faces found so far
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k) {
        Vec3 normal = cross(points[j] - points[i], points[k] - points[i]);
        const double len = norm(normal);
        if (len <= tolerance * (norm(points[j] - points[i]) + norm(points[k] - points[i]))) continue;  // collinear
        normal = normal / len;
        if (dot(normal, points[i] - inside) < 0) normal = -normal;  // outward
        std::vector<int> on_plane;
        bool supporting = true;
        for (int m = 0; m < n && supporting; ++m) {
          const double h = dot(normal, points[m] - points[i]);
          if (h > tolerance)
            supporting = false;
          else if (h >= -tolerance)
            on_plane.push_back(m);
        }
        if (!supporting || std::find(seen.begin(), seen.end(), on_plane) != seen.end()) continue;
        seen.push_back(on_plane);

        // Order the polygon counter-clockwise around the outward normal.
        Vec3 center{};
        for (int m : on_plane) center += points[m];
        center = center / static_cast<double>(on_plane.size());
        const Vec3 e1 = (points[on_plane[0]] - center) / norm(points[on_plane[0]] - center);
        const Vec3 e2 = cross(normal, e1);
        std::vector<std::pair<double, int>> by_angle;
        for (int m : on_plane) {
          const Vec3 r = points[m] - center;
          by_angle.emplace_back(std::atan2(dot(r, e2), dot(r, e1)), m);
        }
        std::sort(by_angle.begin(), by_angle.end());
        ConvexFace face;
        face.normal = normal;
        for (const auto& [angle, m] : by_angle) face.vertices.push_back(m);
        // Area and centroid by a fan of triangles from the first vertex.
        const Vec3 p0 = points[face.vertices[0]];
        Vec3 weighted{};
        for (std::size_t t = 1; t + 1 < face.vertices.size(); ++t) {
          const Vec3 p1 = points[face.vertices[t]], p2 = points[face.vertices[t + 1]];
          const double a = 0.5 * dot(cross(p1 - p0, p2 - p0), normal);
          face.area += a;
          weighted += a * (p0 + p1 + p2) / 3.0;
        }
        face.centroid = weighted / face.area;
        // Volume as a sum of pyramids from the interior point.
        cell.volume += face.area * dot(normal, p0 - inside) / 3.0;
        cell.faces.push_back(std::move(face));
      }
  LOOM_REQUIRE(cell.faces.size() >= 4 && cell.volume > 0, "convex_cell: the points do not span a 3-cell");
  return cell;
}

}  // namespace loom::dec
