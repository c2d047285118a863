// The passes written once for both backends: core::parallel_for loops over cells or bodies (an OpenMP loop on
// the CPU, a CUDA kernel on the GPU; passes.cpp is a loom_backend_sources file). The CPU engine runs all of
// them; the CUDA engine those it has no tuned kernel for (the Biot-Savart L2P, zeroing, the periodic terms).
#pragma once

#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/kernels/biot_savart.hpp"
#include "loom/fmm/kernels/laplace.hpp"

namespace loom::fmm::detail {

void fill_zero(core::Backend backend, core::Array<C>& a);
void fill_zero(core::Backend backend, core::Array<double>& a);

// P2M for every leaf, then M2M level by level from the leaves up (writes every multipole).
void upward(core::Backend backend, int p, int ncomp, const TreeData& t, const core::Array<double>& strength,
            core::Array<C>& multipoles);
// The same by the CUDA engine's tuned kernels (gpu/kernels.hpp), on the device.
void device_upward(int p, int ncomp, const TreeData& t, const core::Array<double>& strength, core::Array<C>& multipoles);
// L2L level by level from the root down (the locals must already hold every M2L).
void local_to_local(core::Backend backend, int p, int ncomp, const TreeData& t, core::Array<C>& locals);
// L2P for every body with the kernel's K::l2p: writes (not adds) the far field into out.
void local_to_bodies(LaplaceKernel, core::Backend backend, int p, const TreeData& t,
                     const core::Array<double>& strength, const core::Array<C>& locals, core::Array<double>& out);
void local_to_bodies(BiotSavartKernel, core::Backend backend, int p, const TreeData& t,
                     const core::Array<double>& strength, const core::Array<C>& locals, core::Array<double>& out);
// dst[r * n + i] += src[r * stride + i] for `rows` rows of n values (on the backend): the first n of each row of
// a wider component-major array into a narrower one.
void add_rows(core::Backend backend, int rows, Index n, const core::Array<double>& src, Index stride,
              core::Array<double>& dst);
// Adds host terms (ncomp * nt per cell, in the order of `cells`) to those cells' expansions.
void add_to_cell_expansions(core::Backend backend, core::Array<C>& a, const std::vector<int>& cells,
                            const std::vector<C>& terms);
// The reverse: those cells' expansions (per_cell terms each, in the order of `cells`) on the host; on the GPU
// gathered on the device first, so that only they cross PCIe.
std::vector<C> cell_expansions(core::Backend backend, const core::Array<C>& a, const std::vector<int>& cells,
                               Index per_cell);
// The same into `out` (room for cells.size() * per_cell terms: a caller's kept buffer).
void cell_expansions(core::Backend backend, const core::Array<C>& a, const std::vector<int>& cells, Index per_cell,
                     C* out);

}  // namespace loom::fmm::detail
