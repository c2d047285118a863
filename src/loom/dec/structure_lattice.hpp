// How structure instances tile a cuboid domain of nx x ny x nz structures, in the memory layout of the DEC-GPE
// paper's Algorithm 1: the m_s values of one instance are contiguous, instances in row-major order with x
// fastest, i = m_s (sz Sx Sy + sy Sx + sx) + c_l. The domain is periodic, or psi = 0 outside it (the paper's
// boundary condition, section 5).
#pragma once

#include "loom/core/host_device.hpp"
#include "loom/dec/vec3.hpp"

namespace loom::dec {

struct StructureInstance {
  int sx = 0, sy = 0, sz = 0;
};

struct StructureLattice {
  int cells = 1;               // m_s
  int nx = 1, ny = 1, nz = 1;  // structures per direction (the paper's S)
  bool periodic = true;

  LOOM_HOST_DEVICE Index size() const { return Index(cells) * nx * ny * nz; }
  LOOM_HOST_DEVICE Index index(int local, int sx, int sy, int sz) const {
    return Index(cells) * ((Index(sz) * ny + sy) * nx + sx) + local;
  }
  LOOM_HOST_DEVICE int local(Index i) const { return static_cast<int>(i % cells); }
  LOOM_HOST_DEVICE StructureInstance instance(Index i) const { return structure(i / cells); }
  // Structure instance number s (row-major, x fastest) as (sx, sy, sz).
  LOOM_HOST_DEVICE StructureInstance structure(Index s) const {
    return {static_cast<int>(s % nx), static_cast<int>((s / nx) % ny), static_cast<int>(s / (Index(nx) * ny))};
  }
  LOOM_HOST_DEVICE Index structures() const { return Index(nx) * ny * nz; }
  // The global index of the value at (local, instance s shifted by (dx, dy, dz)); -1 when that instance is
  // outside a non-periodic domain.
  LOOM_HOST_DEVICE Index neighbour(StructureInstance s, int local, int dx, int dy, int dz) const {
    int x = s.sx + dx, y = s.sy + dy, z = s.sz + dz;
    if (periodic) {
      x = wrap(x, nx);
      y = wrap(y, ny);
      z = wrap(z, nz);
    } else if (x < 0 || x >= nx || y < 0 || y >= ny || z < 0 || z >= nz) {
      return -1;
    }
    return index(local, x, y, z);
  }
  LOOM_HOST_DEVICE Index neighbour(Index i, int local, int dx, int dy, int dz) const {
    return neighbour(instance(i), local, dx, dy, dz);
  }

 private:
  LOOM_HOST_DEVICE static int wrap(int v, int n) { return ((v % n) + n) % n; }
};

// Where dual vertex i sits: its local circumcentre plus its instance times the structure's edges (the domain's
// corner at the origin). `local_position` holds the m_s circumcentres of one structure.
LOOM_HOST_DEVICE inline Vec3 dual_vertex_position(const Vec3* local_position, Vec3 structure_size, int local,
                                                  StructureInstance s) {
  return local_position[local] + hadamard(Vec3{double(s.sx), double(s.sy), double(s.sz)}, structure_size);
}
LOOM_HOST_DEVICE inline Vec3 dual_vertex_position(const Vec3* local_position, Vec3 structure_size,
                                                  const StructureLattice& lattice, Index i) {
  return dual_vertex_position(local_position, structure_size, lattice.local(i), lattice.instance(i));
}

}  // namespace loom::dec
