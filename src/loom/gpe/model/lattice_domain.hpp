// A DEC lattice placed over the computational cuboid of a GPE run: the grid's replicable structure at a length
// scale, repeated nx x ny x nz times (the smallest whole number covering the cuboid), centred on the origin.
#pragma once

#include "loom/core/backend.hpp"
#include "loom/dec/crystal.hpp"
#include "loom/dec/equal_work.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/dec/stencil.hpp"
#include "loom/gpe/model/hamiltonian.hpp"

namespace loom::gpe {

struct LatticeDomain {
  dec::GridType grid = dec::GridType::bcc;
  double scale = 1;                     // structure scale (lengths relative to make_crystal's unit cell)
  dec::ReplicableStructure structure;  // at that scale
  dec::Stencil stencil;
  dec::StructureLattice lattice;
  dec::Vec3 origin;                     // corner of instance (0, 0, 0)
  dec::EdgeStatistics edges;            // dual edge lengths at this scale
  int z_offset = 0;                     // global z index of layer 0 (a rank's slab, slab_domain.hpp)

  Index dof() const { return lattice.size(); }
  dec::Vec3 extent() const {
    return {lattice.nx * structure.size.x, lattice.ny * structure.size.y, lattice.nz * structure.size.z};
  }
  Hamiltonian hamiltonian(core::Where where, Physics physics) const {
    return {stencil.view(where), lattice, origin, physics, z_offset};
  }
};

// Covers the cuboid [-half.x, half.x] x [-half.y, half.y] x [-half.z, half.z] with whole structures at `scale`.
LatticeDomain make_lattice_domain(dec::GridType grid, double scale, dec::Vec3 half_extent);
// The whole structures covering that cuboid along x, y, z (as doubles: a request may exceed int), and the dual
// vertices (unknowns) they hold; memory is checked against these before the lattice is built.
dec::Vec3 structure_counts(dec::GridType grid, double scale, dec::Vec3 half_extent);
double lattice_dof(dec::GridType grid, double scale, dec::Vec3 half_extent);
// Same, with explicit structure counts (benchmarks, tests), centred on the origin.
LatticeDomain make_lattice_domain(dec::GridType grid, double scale, int nx, int ny, int nz);

// The structure scale whose mean dual edge is `dual_edge`.
double scale_for_dual_edge(dec::GridType grid, double dual_edge);

}  // namespace loom::gpe
