// Empty-sphere search. For each crystal vertex a (in the base cell), every triple of tiling points within a
// cutoff D of a and of each other gives a candidate sphere through four points; it is a Delaunay sphere when no
// tiling point lies strictly inside. Every Delaunay cell with edges no longer than D and circumradius at most D
// is found this way; the cutoff grows until the cells found tile the unit cell (their volumes add up), which
// proves that none is missing.
#include "loom/dec/periodic_delaunay.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "loom/core/error.hpp"
#include "loom/dec/convex_cell.hpp"

namespace loom::dec {
namespace {

struct Image {
  LatticePoint point;
  Vec3 x;
};

// All tiling points within distance r of `center`.
std::vector<Image> points_near(const Crystal& c, Vec3 center, double r) {
  std::vector<Image> out;
  std::array<int, 3> lo{}, hi{};
  for (int k = 0; k < 3; ++k) {
    lo[k] = static_cast<int>(std::floor((center[k] - r) / c.size[k])) - 1;
    hi[k] = static_cast<int>(std::ceil((center[k] + r) / c.size[k])) + 1;
  }
  for (int ox = lo[0]; ox <= hi[0]; ++ox)
    for (int oy = lo[1]; oy <= hi[1]; ++oy)
      for (int oz = lo[2]; oz <= hi[2]; ++oz)
        for (int v = 0; v < static_cast<int>(c.vertices.size()); ++v) {
          const LatticePoint p{v, {ox, oy, oz}};
          const Vec3 x = position(c, p);
          if (norm(x - center) <= r) out.push_back({p, x});
        }
  return out;
}

// The lattice shift that brings x into the unit cell [0, size) (with points within `tol` of the upper face
// going to the lower one, so that one cell is never found twice on both faces).
std::array<int, 3> cell_of(const Crystal& c, Vec3 x, double tol) {
  std::array<int, 3> t{};
  for (int k = 0; k < 3; ++k) t[k] = static_cast<int>(std::floor((x[k] + tol) / c.size[k]));
  return t;
}

double cell_volume(const Crystal& c, const DelaunayCell& cell, double tol) {
  std::vector<Vec3> x;
  for (const auto& p : cell.vertices) x.push_back(position(c, p));
  return convex_cell(x, tol).volume;
}

// Candidate cells for one cutoff; merged by centre (one empty sphere, one cell).
std::vector<DelaunayCell> search(const Crystal& c, double cutoff, double tol) {
  std::vector<DelaunayCell> cells;
  for (int a = 0; a < static_cast<int>(c.vertices.size()); ++a) {
    const Vec3 xa = c.vertices[static_cast<std::size_t>(a)];
    std::vector<Image> near = points_near(c, xa, cutoff);
    std::erase_if(near, [&](const Image& q) { return norm(q.x - xa) < tol; });  // a itself
    const std::vector<Image> around = points_near(c, xa, 2 * cutoff + tol);     // can lie inside a candidate sphere
    const int n = static_cast<int>(near.size());
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        if (norm(near[i].x - near[j].x) > cutoff) continue;
        for (int k = j + 1; k < n; ++k) {
          if (norm(near[i].x - near[k].x) > cutoff || norm(near[j].x - near[k].x) > cutoff) continue;
          bool ok = false;
          const Vec3 center = circumcenter(xa, near[i].x, near[j].x, near[k].x, 1e-8, ok);
          if (!ok) continue;
          const double radius = norm(center - xa);
          if (radius > cutoff) continue;
          // Shifted into the unit cell, the sphere may already be known.
          const auto t = cell_of(c, center, tol);
          const Vec3 shift = hadamard(Vec3{double(t[0]), double(t[1]), double(t[2])}, c.size);
          const Vec3 home = center - shift;
          if (std::any_of(cells.begin(), cells.end(),
                          [&](const DelaunayCell& d) { return norm(d.circumcenter - home) < tol; }))
            continue;
          DelaunayCell cell{{}, home, radius};
          bool empty = true;
          for (const auto& q : around) {
            const double d = norm(q.x - center);
            if (d < radius - tol) {
              empty = false;
              break;
            }
            if (d <= radius + tol)
              cell.vertices.push_back(
                  {q.point.vertex, {q.point.offset[0] - t[0], q.point.offset[1] - t[1], q.point.offset[2] - t[2]}});
          }
          if (!empty) continue;
          std::sort(cell.vertices.begin(), cell.vertices.end());
          cells.push_back(std::move(cell));
        }
      }
  }
  return cells;
}

}  // namespace

Vec3 position(const Crystal& crystal, const LatticePoint& p) {
  return crystal.vertices[static_cast<std::size_t>(p.vertex)] +
         hadamard(Vec3{double(p.offset[0]), double(p.offset[1]), double(p.offset[2])}, crystal.size);
}

std::vector<DelaunayCell> periodic_delaunay(const Crystal& crystal, double relative_tolerance) {
  LOOM_REQUIRE(!crystal.vertices.empty(), "periodic_delaunay: no points");
  const double edge = std::max({crystal.size.x, crystal.size.y, crystal.size.z});
  const double tol = relative_tolerance * edge;
  const double volume = crystal.size.x * crystal.size.y * crystal.size.z;
  // Start near the mean point spacing; a Delaunay edge is never longer than the cell's diagonal (the covering
  // radius of the lattice of cell copies bounds every empty sphere), so the search ends.
  const double spacing = std::cbrt(volume / static_cast<double>(crystal.vertices.size()));
  const double longest = 2 * norm(crystal.size);
  for (double cutoff = 1.2 * spacing; cutoff < 1.25 * longest; cutoff *= 1.2) {
    std::vector<DelaunayCell> cells = search(crystal, cutoff, tol);
    double total = 0;
    for (const auto& cell : cells) total += cell_volume(crystal, cell, tol);
    if (std::abs(total - volume) <= 1e-9 * volume) {
      std::sort(cells.begin(), cells.end(), [&](const DelaunayCell& a, const DelaunayCell& b) {
        for (int k : {2, 1, 0})
          if (std::abs(a.circumcenter[k] - b.circumcenter[k]) > tol) return a.circumcenter[k] < b.circumcenter[k];
        return false;
      });
      return cells;
    }
    LOOM_REQUIRE(total < volume * (1 + 1e-9), "periodic_delaunay: the cells found overlap (volume " +
                                                  std::to_string(total) + " > " + std::to_string(volume) +
                                                  "): the tolerance is too large for this point set");
  }
  throw Error("periodic_delaunay: the empty spheres found never tiled the cell");
}

}  // namespace loom::dec
