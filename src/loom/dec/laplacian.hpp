// The DEC Laplacian at one dual vertex, one formula for both backends (DESIGN.md): eq. (5)/(8) of the DEC-GPE
// paper without the potential, (Lap psi)_i = (1/|B_i|) sum_{F in dB_i} |F|/|E*_F| (psi_j(F) - psi_i).
// T is the value type (double, or a complex type with T{} = 0, T - T, T + T and double * T). The stencil and
// the lattice must have the same m_s.
#pragma once

#include "loom/core/host_device.hpp"
#include "loom/dec/stencil.hpp"
#include "loom/dec/structure_lattice.hpp"

namespace loom::dec {

// At vertex i whose local index and structure instance the caller already knows (loops over structures need no
// integer division per vertex).
template <class T>
LOOM_HOST_DEVICE inline T laplacian(const StencilView& stencil, const StructureLattice& lattice, const T* psi,
                                    Index i, int local, StructureInstance instance) {
  const T center = psi[i];
  T sum{};
  for (int f = stencil.first[local]; f < stencil.first[local + 1]; ++f) {
    const StencilEntry e = stencil.entries[f];
    const Index j = lattice.neighbour(instance, e.neighbour, e.dx, e.dy, e.dz);
    const T other = j >= 0 ? psi[j] : T{};  // psi = 0 outside a non-periodic domain
    sum += e.weight * (other - center);
  }
  return stencil.inverse_volume[local] * sum;
}

template <class T>
LOOM_HOST_DEVICE inline T laplacian(const StencilView& stencil, const StructureLattice& lattice, const T* psi,
                                    Index i) {
  return laplacian(stencil, lattice, psi, i, lattice.local(i), lattice.instance(i));
}

}  // namespace loom::dec
