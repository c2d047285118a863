// The discrete Gross-Pitaevskii operator of the DEC-GPE paper, eq. (6): (M psi)_i = -1/2 (Lap psi)_i +
// (V_i + g |psi_i|^2) psi_i with the DEC Laplacian of eq. (5)/(8) and the trap V = (x^2 + y^2 + lambda^2 z^2)/2
// of eq. (2), psi = 0 outside the computational cuboid. One formula for both backends (DESIGN.md): loops and
// kernels capture a Hamiltonian by value and call apply(); the trap and the row are physics.hpp's. V is computed
// from the dual vertex position instead of being stored, which saves 8 of 56 bytes per update.
#pragma once

#include "loom/core/complex.hpp"
#include "loom/core/host_device.hpp"
#include "loom/dec/laplacian.hpp"
#include "loom/dec/stencil.hpp"
#include "loom/dec/structure_lattice.hpp"
#include "loom/gpe/model/physics.hpp"

namespace loom::gpe {

using core::Complex;

struct Hamiltonian {
  dec::StencilView stencil;
  dec::StructureLattice lattice;
  dec::Vec3 origin;  // where the corner of structure instance (0, 0, 0) of the global lattice sits
  Physics physics;
  // The global z index of the lattice's layer 0: nonzero on a rank's slab (section 4.2), whose positions and
  // potential are those of the global lattice, to the bit.
  int z_offset = 0;

  LOOM_HOST_DEVICE dec::StructureInstance global(dec::StructureInstance s) const {
    return {s.sx, s.sy, s.sz + z_offset};
  }
  LOOM_HOST_DEVICE dec::Vec3 position(Index i) const {
    return origin +
           dec::dual_vertex_position(stencil.position, stencil.size, lattice.local(i), global(lattice.instance(i)));
  }
  LOOM_HOST_DEVICE double potential(Index i) const { return trap_potential(physics.lambda, position(i)); }
  LOOM_HOST_DEVICE double volume(Index i) const { return stencil.volume[lattice.local(i)]; }  // |B_i|
  LOOM_HOST_DEVICE double potential(int local, dec::StructureInstance s) const {
    return trap_potential(physics.lambda,
                          origin + dec::dual_vertex_position(stencil.position, stencil.size, local, global(s)));
  }
  // (M psi)_i, for a vertex whose local index and structure instance are known (no integer division).
  LOOM_HOST_DEVICE Complex apply(const Complex* psi, Index i, int local, dec::StructureInstance s) const {
    return gross_pitaevskii_row(dec::laplacian(stencil, lattice, psi, i, local, s), potential(local, s), physics.g,
                                psi[i]);
  }
  // (M psi)_i.
  LOOM_HOST_DEVICE Complex apply(const Complex* psi, Index i) const {
    return apply(psi, i, lattice.local(i), lattice.instance(i));
  }
  // M_ii = (1/2)(1/|B_i|) sum_F |F|/|E*| + V_i + g |psi_i|^2, the quantity of the stability bound, eq. (10)-(11).
  LOOM_HOST_DEVICE double diagonal(const Complex* psi, Index i) const {
    const int local = lattice.local(i);
    double w = 0;
    for (int f = stencil.first[local]; f < stencil.first[local + 1]; ++f) w += stencil.entries[f].weight;
    return 0.5 * stencil.inverse_volume[local] * w + potential(i) + physics.g * core::norm2(psi[i]);
  }
};

// One leapfrog step at vertex i, eq. (7): psi(n+1) = psi(n-1) - 2 i dt (M psi(n)), written over psi(n-1).
LOOM_HOST_DEVICE inline void leapfrog_update(const Hamiltonian& h, const Complex* now, Complex* other, double dt,
                                             Index i, int local, dec::StructureInstance s) {
  other[i] -= (2 * dt) * core::times_i(h.apply(now, i, local, s));
}
LOOM_HOST_DEVICE inline void leapfrog_update(const Hamiltonian& h, const Complex* now, Complex* other, double dt,
                                             Index i) {
  leapfrog_update(h, now, other, dt, i, h.lattice.local(i), h.lattice.instance(i));
}

}  // namespace loom::gpe
