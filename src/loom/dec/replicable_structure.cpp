// Faces are matched between cells by their vertex sets. A face seen from cell A (as lattice points in A's frame)
// and from cell B (in B's frame) differ by the lattice shift between the two frames: that shift is B's
// structure offset seen from A. Faces are compared in a canonical form (translated so that one vertex sits in
// the base cell, the smallest such list chosen) to find that shift.
#include "loom/dec/replicable_structure.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>

#include "loom/core/error.hpp"
#include "loom/dec/convex_cell.hpp"

namespace loom::dec {
namespace {

using FaceKey = std::vector<LatticePoint>;

LatticePoint shifted(LatticePoint p, const std::array<int, 3>& t) {
  for (int k = 0; k < 3; ++k) p.offset[k] -= t[k];
  return p;
}

// The canonical form of a face's vertex list and the shift t that produced it (canonical = face - t).
std::pair<FaceKey, std::array<int, 3>> canonical(const std::vector<LatticePoint>& face) {
  FaceKey best;
  std::array<int, 3> best_t{};
  for (const auto& anchor : face) {
    FaceKey key;
    for (const auto& p : face) key.push_back(shifted(p, anchor.offset));
    std::sort(key.begin(), key.end());
    if (best.empty() || key < best) {
      best = std::move(key);
      best_t = anchor.offset;
    }
  }
  return {best, best_t};
}

struct FaceUse {
  int cell, face;
  std::array<int, 3> shift;
};

}  // namespace

double PrimalCell::laplacian_diagonal() const {
  double s = 0;
  for (const auto& f : faces) s += f.weight();
  return s / volume;
}

ReplicableStructure ReplicableStructure::scaled(double s) const {
  ReplicableStructure out = *this;
  out.size = s * size;
  out.scale = s * scale;
  for (auto& v : out.primal_vertices) v = s * v;
  for (auto& c : out.cells) {
    c.circumcenter = s * c.circumcenter;
    c.circumradius *= s;
    c.volume *= s * s * s;
    for (auto& v : c.vertices) v = s * v;
    for (auto& f : c.faces) {
      f.area *= s * s;
      f.dual_length *= s;
      for (auto& v : f.polygon) v = s * v;
    }
  }
  return out;
}

ReplicableStructure build_replicable_structure(const Crystal& crystal) {
  const double tol = 1e-9 * std::max({crystal.size.x, crystal.size.y, crystal.size.z});
  const std::vector<DelaunayCell> delaunay = periodic_delaunay(crystal);

  ReplicableStructure s;
  s.grid = crystal.grid;
  s.size = crystal.size;
  s.primal_vertices = crystal.vertices;
  std::map<FaceKey, std::vector<FaceUse>> uses;
  std::vector<std::vector<std::vector<LatticePoint>>> face_points(delaunay.size());
  for (std::size_t i = 0; i < delaunay.size(); ++i) {
    const DelaunayCell& d = delaunay[i];
    PrimalCell cell;
    cell.circumcenter = d.circumcenter;
    cell.circumradius = d.circumradius;
    for (const auto& p : d.vertices) cell.vertices.push_back(position(crystal, p));
    const ConvexCell hull = convex_cell(cell.vertices, tol);
    cell.volume = hull.volume;
    for (const auto& f : hull.faces) {
      DualFace face;
      face.area = f.area;
      face.normal = f.normal;
      std::vector<LatticePoint> points;
      for (int v : f.vertices) {
        face.polygon.push_back(cell.vertices[static_cast<std::size_t>(v)]);
        points.push_back(d.vertices[static_cast<std::size_t>(v)]);
      }
      auto [key, shift] = canonical(points);
      uses[key].push_back({static_cast<int>(i), static_cast<int>(cell.faces.size()), shift});
      cell.faces.push_back(std::move(face));
    }
    s.cells.push_back(std::move(cell));
  }

  // Each face joins exactly two cells (a cell may meet itself across the structure boundary: the cube).
  for (const auto& [key, list] : uses) {
    if (list.size() != 2)
      throw Error("build_replicable_structure: a face of the " + std::string(display_name(crystal.grid)) +
                  " complex is shared by " + std::to_string(list.size()) + " cells, not 2");
    for (int side = 0; side < 2; ++side) {
      const FaceUse& a = list[static_cast<std::size_t>(side)];
      const FaceUse& b = list[static_cast<std::size_t>(1 - side)];
      DualFace& f = s.cells[static_cast<std::size_t>(a.cell)].faces[static_cast<std::size_t>(a.face)];
      f.neighbour = b.cell;
      for (int k = 0; k < 3; ++k) f.offset[k] = a.shift[k] - b.shift[k];
      const Vec3 there = s.cells[static_cast<std::size_t>(b.cell)].circumcenter +
                         hadamard(Vec3{double(f.offset[0]), double(f.offset[1]), double(f.offset[2])}, s.size);
      f.dual_length = dot(there - s.cells[static_cast<std::size_t>(a.cell)].circumcenter, f.normal);
    }
  }
  return s;
}

const ReplicableStructure& replicable_structure(GridType grid) {
  static std::mutex mutex;
  static std::map<GridType, ReplicableStructure> built;
  std::lock_guard lock(mutex);
  auto it = built.find(grid);
  if (it == built.end()) it = built.emplace(grid, build_replicable_structure(make_crystal(grid))).first;
  return it->second;
}

std::vector<Vec3> dual_vertex_positions(const ReplicableStructure& structure, const StructureLattice& lattice) {
  LOOM_REQUIRE(lattice.cells == structure.cell_count(), "dual_vertex_positions: lattice and structure differ in m_s");
  std::vector<Vec3> local;
  for (const auto& c : structure.cells) local.push_back(c.circumcenter);
  std::vector<Vec3> out(static_cast<std::size_t>(lattice.size()));
  for (Index i = 0; i < lattice.size(); ++i)
    out[static_cast<std::size_t>(i)] = dual_vertex_position(local.data(), structure.size, lattice, i);
  return out;
}

}  // namespace loom::dec
