// The leapfrog step's implementations, selectable at run time and in `loom bench gpe`:
//   plain   core::parallel_for over vertices with the shared formula (both backends; CPU loops over structures)
//   tuned   CUDA, after the paper's Algorithm 1: thread grid (structure x * m_s + local, y, z), m_s a compile-time
//           constant (no integer division at run time), per-entry flat neighbour offsets with a bounds mask
//           (psi = 0 outside), read-only loads of the stencil
//   shared  tuned, plus psi(n) of the block's structures staged in shared memory (the paper's section 4.1)
//   soa     persistent blocks with the stencil in structure-of-arrays form staged in shared memory, face loop
//           padded and unrolled (soa_stencil.hpp); on the CPU an OpenMP loop over structures with compile-time
//           (m_s, F) and no bounds masks in interior structures (leapfrog_cpu.hpp)
//   march   CUDA, 2.5D blocking: a block marches a tile of structures along z with psi(n) of the tile and the halo
//           cells its faces reach staged in a ring of shared-memory layers (march_tiles.hpp)
#pragma once

#include <string>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/error.hpp"
#include "loom/gpe/hamiltonian.hpp"
#include "loom/gpe/march_tiles.hpp"
#include "loom/gpe/soa_stencil.hpp"

namespace loom::gpe {

enum class LeapfrogKernel { plain, tuned, shared, soa, march };

std::string_view to_string(LeapfrogKernel k);
// plain and soa have CPU loops; the others are CUDA kernels.
inline bool runs_on_cpu(LeapfrogKernel k) { return k == LeapfrogKernel::plain || k == LeapfrogKernel::soa; }
// Throws UsageError naming `key` for an unknown name or a CUDA-only kernel in a build without CUDA.
LeapfrogKernel parse_leapfrog_kernel(std::string_view text, std::string_view key = "kernel");
// The kernels that exist for `backend` in this build (plain and soa everywhere; tuned, shared and march with CUDA).
std::vector<LeapfrogKernel> leapfrog_kernels(core::Backend backend);

// The fastest kernel measured (docs/performance.md): on the H200 march for cubic, FCC and BCC (m_s <= 12), soa for
// A15, Z and C15 (whose halos make the march tiles 17-23% larger); on the CPU soa (1.5-2.5x plain).
LeapfrogKernel default_leapfrog_kernel(core::Backend backend, int cells_per_structure);

// Per-entry flat neighbour offsets j - i for a lattice (valid wherever the neighbour's instance is inside).
std::vector<std::int32_t> flat_neighbour_offsets(const dec::Stencil& stencil, const dec::StructureLattice& lattice);

// The structure layers [first, first + count) in z of a lattice: what one launch updates. A rank's slab
// updates the layers it sends first and the rest while the halos travel (section 4.2).
struct LayerRange {
  int first = 0, count = 0;
  bool empty() const { return count <= 0; }
};
inline LayerRange all_layers(const dec::StructureLattice& lattice) { return {0, lattice.nz}; }
// Throws loom::Error unless the layers lie inside the lattice (the kernels' precondition).
inline void require_layers_inside(const dec::StructureLattice& lattice, LayerRange layers) {
  LOOM_REQUIRE(layers.first >= 0 && layers.first + layers.count <= lattice.nz,
               "leapfrog step: layers outside the lattice");
}

// One step on the device over `layers`: other[i] = other[i] - 2 i dt (M now)_i. `offsets` is a
// device pointer to flat_neighbour_offsets() (unused by plain); h holds device views; `stream` is a cudaStream_t
// (nullptr: the default stream). Throws in a build without CUDA. The plain kernel here serves slabs; a whole
// lattice's plain step is the integrator's core::parallel_for.
void leapfrog_step_cuda(LeapfrogKernel kernel, const Hamiltonian& h, const std::int32_t* offsets, const Complex* now,
                        Complex* other, double dt, LayerRange layers, void* stream);
// Launch choices of the soa kernel (leapfrog_kernels.cu), selectable in `loom bench gpe` (--soa_band_rows,
// --soa_vertices, --soa_tiles, --soa_order, --soa_columns): the height in rows of structures of the bands the tiles
// sweep (0: a whole slice, no bands), the vertices each thread updates (1 or 2), whether a tile stays inside one
// row of structures, whether the blocks take tiles in order from an atomic counter (else by a grid stride), and
// the column order.
struct SoaTuning {
  int band_rows = 16;
  int vertices_per_thread = 1;
  bool row_tiles = false;
  bool ordered_tiles = false;
  // > 0: column order (column_tiles.hpp): a block updates band_rows rows (at least 1) of one row segment over this
  // many layers; row_tiles is then implied. Not yet measured on a GPU (2026-11-29).
  int column_layers = 0;
  friend bool operator==(const SoaTuning&, const SoaTuning&) = default;
};

// The fastest soa launch measured on the H200 for a grid and size (docs/performance.md, scripts/gpu-tune-gpe.sh):
// 2 vertices per thread (+5-22% on BCC, FCC, A15, Z and cubic; C15, m_s = 136, 1), tiles of whole chunks, on the
// grids of m_s <= 12 no bands (whole slices), else bands of 16 rows; tiles in order from a counter from 5e7 DOF on
// (BCC: +26% at 1e8, +8% at 2.4e8; C15 +5% at 1.4e8), by a grid stride below (ordered cost 5-7% at 1e7-2e7).
SoaTuning default_soa_tuning(int cells_per_structure, Index dof);

// One soa step on the device; `t` holds device views of the SoA tables.
void leapfrog_step_cuda_soa(const SoaStencilView& t, const Hamiltonian& h, const Complex* now, Complex* other,
                            double dt, LayerRange layers, void* stream, SoaTuning tuning = {});

// The march kernel's tiling for a grid (docs/performance.md, scripts/gpu-tune-gpe.sh).
MarchTiling default_march_tiling(int cells_per_structure);

// One march step on the device; `t` holds device views of the SoA tables, `plan` was made for h.lattice. Throws
// UsageError when the plan's tile does not fit a block (shared memory, at most 2048 vertices).
void leapfrog_step_cuda_march(const SoaStencilView& t, const MarchPlan& plan, const Hamiltonian& h, const Complex* now,
                              Complex* other, double dt, LayerRange layers, void* stream);

}  // namespace loom::gpe
