// The stencil in structure-of-arrays form for the fastest CUDA leapfrog ("soa" kernel): every local cell padded to
// the grid's largest face count F (padding: weight 0, offset 0, so no divergent loop lengths, as FCC's 8- and
// 4-faced cells would otherwise cause), and per face slot f the values of all m_s cells contiguous
// (index f m_s + c), so a warp's loads of one slot fall into few sectors. The tables are staged in shared memory
// by each (persistent) block: per-thread stencil loads saturated the tuned kernel's L1
// (docs/performance.md, "GPE: the measurements behind the kernel code's choices").
#pragma once

#include <cstdint>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/complex.hpp"
#include "loom/core/host_device.hpp"
#include "loom/dec/stencil.hpp"
#include "loom/dec/structure_lattice.hpp"
#include "loom/gpe/model/physics.hpp"

namespace loom::gpe {

struct SoaStencilView {
  int cells = 0, faces = 0;                // m_s and the padded face count F
  const double* weight = nullptr;          // F x m_s: |F|/|E*|, 0 for padding
  const std::int32_t* offset = nullptr;    // F x m_s: flat neighbour offset j - i
  const std::int32_t* shift = nullptr;     // F x m_s: (dx + 128) | (dy + 128) << 8 | (dz + 128) << 16
  const double* inverse_volume = nullptr;  // m_s
  const double* px = nullptr;              // m_s: dual vertex position in its structure
  const double* py = nullptr;
  const double* pz = nullptr;
  dec::Vec3 size;  // structure edges
  int reach = 1;   // the farthest neighbour, in structures along any axis
};

// A face slot's structure offset (dx, dy, dz), packed in SoaStencilView::shift.
struct StructureShift {
  int dx, dy, dz;
};
LOOM_HOST_DEVICE inline StructureShift decode_shift(std::int32_t code) {
  return {(code & 255) - 128, ((code >> 8) & 255) - 128, ((code >> 16) & 255) - 128};
}

class SoaStencil {
 public:
  SoaStencil() = default;
  SoaStencil(const dec::Stencil& stencil, const dec::StructureLattice& lattice);
  SoaStencilView view(core::Where where) const;
  int faces() const { return faces_; }
  int cells() const { return cells_; }
  // Bytes of the tables: what a block stages in shared memory.
  std::size_t bytes() const { return std::size_t(faces_) * cells_ * 16 + std::size_t(cells_) * 32; }
  // F x m_s on the host: the local index of each face slot's neighbour (padding: the cell itself).
  const std::vector<std::int32_t>& neighbour_cells() const { return neighbour_cells_; }

 private:
  int cells_ = 0, faces_ = 0, reach_ = 0;
  dec::Vec3 size_;
  core::Array<double> weight_, inverse_volume_, px_, py_, pz_;
  core::Array<std::int32_t> offset_, shift_;
  std::vector<std::int32_t> neighbour_cells_;
};

// Per-entry flat neighbour offsets j - i for a lattice (valid wherever the neighbour's instance is inside).
std::vector<std::int32_t> flat_neighbour_offsets(const dec::Stencil& stencil, const dec::StructureLattice& lattice);

// Row i of eq. (8) once the weighted differences sum_F |F|/|E*| (psi_j - psi_i) are summed: the row of eq. (6) with
// the Laplacian sum / |B_c| and V from the vertex position (z_offset: a rank's slab, below).
LOOM_HOST_DEVICE inline core::Complex soa_row(const SoaStencilView& t, dec::Vec3 origin, Physics physics,
                                              core::Complex center, core::Complex sum, int c, dec::StructureInstance s,
                                              int z_offset) {
  const double rx = origin.x + t.px[c] + s.sx * t.size.x, ry = origin.y + t.py[c] + s.sy * t.size.y,
               rz = origin.z + t.pz[c] + (s.sz + z_offset) * t.size.z;
  return gross_pitaevskii_row(t.inverse_volume[c] * sum, trap_potential(physics.lambda, rx * rx + ry * ry, rz),
                              physics.g, center);
}

// (M psi)_i from the SoA tables, eq. (6)/(8); F > 0 fixes the face count at compile time (unrolled loop).
// z_offset: the global z index of the lattice's layer 0 (a rank's slab), for the potential.
template <int F>
LOOM_HOST_DEVICE inline core::Complex soa_apply(const SoaStencilView& t, const dec::StructureLattice& lattice,
                                                dec::Vec3 origin, Physics physics, const core::Complex* psi,
                                                Index i, int c, dec::StructureInstance s, int z_offset = 0) {
  const core::Complex center = psi[i];
  core::Complex sum{};
  const int faces = F > 0 ? F : t.faces;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int f = 0; f < faces; ++f) {
    const int k = f * t.cells + c;
    const StructureShift d = decode_shift(t.shift[k]);
    const int x = s.sx + d.dx, y = s.sy + d.dy, z = s.sz + d.dz;
    const bool inside =
        unsigned(x) < unsigned(lattice.nx) && unsigned(y) < unsigned(lattice.ny) && unsigned(z) < unsigned(lattice.nz);
    const core::Complex value = inside ? psi[i + t.offset[k]] : core::Complex{};  // psi = 0 outside
    sum += t.weight[k] * (value - center);
  }
  return soa_row(t, origin, physics, center, sum, c, s, z_offset);
}

// The same for a vertex whose structure is not on the domain boundary (every neighbour inside): no bounds
// masks. The CPU loop takes this path for the interior structures.
template <int F>
LOOM_HOST_DEVICE inline core::Complex soa_apply_interior(const SoaStencilView& t, dec::Vec3 origin,
                                                         Physics physics, const core::Complex* psi, Index i, int c,
                                                         dec::StructureInstance s, int z_offset) {
  const core::Complex center = psi[i];
  double re = 0, im = 0;
  const int faces = F > 0 ? F : t.faces;
  for (int f = 0; f < faces; ++f) {
    const int k = f * t.cells + c;
    const core::Complex value = psi[i + t.offset[k]];
    re += t.weight[k] * (value.re - center.re);
    im += t.weight[k] * (value.im - center.im);
  }
  return soa_row(t, origin, physics, center, {re, im}, c, s, z_offset);
}

}  // namespace loom::gpe
