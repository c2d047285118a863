#include "loom/gpe/kernels/soa_cpu.hpp"

namespace loom::gpe {
namespace {

// M, F > 0: compile-time m_s and face count; M = 0: run-time (any other structure).
template <int M, int F>
void run(const SoaStencilView& t, const Hamiltonian& h, const Complex* now, Complex* other, double dt,
         LayerRange layers) {
  const int cells = M > 0 ? M : t.cells;
  const Index per_layer = Index(h.lattice.nx) * h.lattice.ny;
  const Index first = per_layer * layers.first, last = per_layer * (layers.first + layers.count);
  // Structures at least t.reach (the farthest neighbour, 1 on the six grids) from every face of the lattice need no
  // bounds masks.
  const int reach = t.reach;
#pragma omp parallel for schedule(static)
  for (Index st = first; st < last; ++st) {
    const dec::StructureInstance instance = h.lattice.structure(st);
    const Index base = st * cells;
    const bool interior = instance.sx >= reach && instance.sx + reach < h.lattice.nx && instance.sy >= reach &&
                          instance.sy + reach < h.lattice.ny && instance.sz >= reach &&
                          instance.sz + reach < h.lattice.nz;
    if (interior) {
      for (int c = 0; c < cells; ++c) {
        const Index i = base + c;
        const Complex m_psi = soa_apply_interior<F>(t, h.origin, h.physics, now, i, c, instance, h.z_offset);
        other[i] -= (2 * dt) * core::times_i(m_psi);  // eq. (7)
      }
    } else {
      for (int c = 0; c < cells; ++c) {
        const Index i = base + c;
        const Complex m_psi = soa_apply<F>(t, h.lattice, h.origin, h.physics, now, i, c, instance, h.z_offset);
        other[i] -= (2 * dt) * core::times_i(m_psi);
      }
    }
  }
}

}  // namespace

void leapfrog_step_cpu_soa(const SoaStencilView& t, const Hamiltonian& h, const Complex* now, Complex* other, double dt,
                           LayerRange layers) {
  if (layers.empty()) return;
  // (m_s, F) of the six grids: cubic (1, 6), FCC (12, 8), BCC (12, 4), A15 (46, 4), Z (80, 4), C15 (136, 4).
  if (t.cells == 1 && t.faces == 6) return run<1, 6>(t, h, now, other, dt, layers);
  if (t.cells == 12 && t.faces == 8) return run<12, 8>(t, h, now, other, dt, layers);
  if (t.cells == 12 && t.faces == 4) return run<12, 4>(t, h, now, other, dt, layers);
  if (t.cells == 46 && t.faces == 4) return run<46, 4>(t, h, now, other, dt, layers);
  if (t.cells == 80 && t.faces == 4) return run<80, 4>(t, h, now, other, dt, layers);
  if (t.cells == 136 && t.faces == 4) return run<136, 4>(t, h, now, other, dt, layers);
  return run<0, 0>(t, h, now, other, dt, layers);
}

}  // namespace loom::gpe
