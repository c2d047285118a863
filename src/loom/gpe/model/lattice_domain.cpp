#include "loom/gpe/model/lattice_domain.hpp"

#include <cmath>

#include "loom/core/error.hpp"

namespace loom::gpe {

LatticeDomain make_lattice_domain(dec::GridType grid, double scale, int nx, int ny, int nz) {
  LOOM_REQUIRE(scale > 0 && nx > 0 && ny > 0 && nz > 0, "make_lattice_domain: positive scale and counts");
  LatticeDomain d;
  d.grid = grid;
  d.scale = scale;
  d.structure = dec::replicable_structure(grid).scaled(scale);
  d.stencil = dec::Stencil(d.structure);
  d.lattice = dec::StructureLattice{d.structure.cell_count(), nx, ny, nz, false};  // psi = 0 outside (section 5)
  d.origin = -0.5 * d.extent();
  d.edges = dec::dual_edge_statistics(d.structure);
  return d;
}

dec::Vec3 structure_counts(dec::GridType grid, double scale, dec::Vec3 half_extent) {
  const auto& unit = dec::replicable_structure(grid);
  auto count = [&](double half, double edge) { return std::max(1.0, std::ceil(2 * half / (scale * edge) - 1e-9)); };
  return {count(half_extent.x, unit.size.x), count(half_extent.y, unit.size.y), count(half_extent.z, unit.size.z)};
}

double lattice_dof(dec::GridType grid, double scale, dec::Vec3 half_extent) {
  const dec::Vec3 n = structure_counts(grid, scale, half_extent);
  return n.x * n.y * n.z * dec::replicable_structure(grid).cell_count();
}

LatticeDomain make_lattice_domain(dec::GridType grid, double scale, dec::Vec3 half_extent) {
  const dec::Vec3 n = structure_counts(grid, scale, half_extent);
  LOOM_REQUIRE(n.x * n.y * n.z < 2e9, "make_lattice_domain: structure counts beyond int (check memory first)");
  return make_lattice_domain(grid, scale, static_cast<int>(n.x), static_cast<int>(n.y), static_cast<int>(n.z));
}

double scale_for_dual_edge(dec::GridType grid, double dual_edge) {
  return dual_edge / dec::dual_edge_statistics(dec::replicable_structure(grid)).mean;
}

}  // namespace loom::gpe
