// The replicable structure of a DEC grid (section 2 and eq. 5-8 of the DEC-GPE paper): the primal 3-cells of
// one unit cell (its periodic Delaunay complex) with their circumcentric duals. Cell i carries the unknown
// psi_i at its circumcentre; each boundary face F has the area |F|, the signed length |E*| of the dual edge to
// the neighbouring cell's circumcentre, and that neighbour as (local index, structure offset) — the paper's
// sets J^_i. Stencil (stencil.hpp) is the flat form the integrators read.
#pragma once

#include <array>
#include <vector>

#include "loom/dec/crystal.hpp"
#include "loom/dec/periodic_delaunay.hpp"
#include "loom/dec/structure_lattice.hpp"
#include "loom/dec/vec3.hpp"

namespace loom::dec {

// A boundary face F of primal cell B_i and the dual edge E* through it.
struct DualFace {
  int neighbour = 0;            // local index j of the cell on the other side of F
  std::array<int, 3> offset{};  // structure offset of that cell (dx, dy, dz), in structures
  double area = 0;              // |F|
  double dual_length = 0;       // signed |E*| = (c_j + offset * size - c_i) . n_F: positive when c_j is outside
  Vec3 normal;                  // unit normal of F pointing out of B_i
  std::vector<Vec3> polygon;    // F's vertices, counter-clockwise around `normal`, in B_i's frame

  double weight() const { return area / dual_length; }  // |F| / |E*|, the Hodge-star ratio of eq. (5)
};

// A primal 3-cell B_i and its dual 0-cell.
struct PrimalCell {
  Vec3 circumcenter;  // the dual vertex: where psi_i lives; inside the structure's cuboid
  double circumradius = 0;
  double volume = 0;            // |B_i|
  std::vector<Vec3> vertices;   // B_i's corners (in this cell's frame: may reach past the cuboid)
  std::vector<DualFace> faces;  // the boundary faces, each with its dual edge

  // (1/|B_i|) sum_F |F|/|E*|: the diagonal of -Laplacian, twice M_ii of eq. (10) without the potential.
  double laplacian_diagonal() const;
};

struct ReplicableStructure {
  GridType grid = GridType::cubic;
  Vec3 size;                          // edges of the cuboid the structure tiles
  double scale = 1;                   // lengths relative to the unit cell of make_crystal()
  std::vector<Vec3> primal_vertices;  // the crystal's points (primal 0-cells), scaled
  std::vector<PrimalCell> cells;      // local index = position in this vector (m_s cells)

  int cell_count() const { return static_cast<int>(cells.size()); }
  double volume() const { return size.x * size.y * size.z; }
  // Every length times s (areas s^2, volumes s^3): the same grid placed with a different length scale.
  ReplicableStructure scaled(double s) const;
};

// Builds the structure from a crystal (periodic Delaunay complex, then faces, neighbours and dual edges).
// Throws loom::Error if a face is not shared by exactly two cells.
ReplicableStructure build_replicable_structure(const Crystal& crystal);

// The structure of a grid at unit scale (make_crystal's cell), built once per process and kept.
const ReplicableStructure& replicable_structure(GridType grid);

// The position of every dual vertex of a domain of nx x ny x nz structures, in StructureLattice's order.
std::vector<Vec3> dual_vertex_positions(const ReplicableStructure& structure, const StructureLattice& lattice);

}  // namespace loom::dec
