// The memory a `loom gpe` run needs for a lattice of `dof` dual vertices, checked before the lattice is built.
#pragma once

#include "loom/core/memory_budget.hpp"

namespace loom::gpe {

// Host: the complex levels alive together at the peak (the reference state, psi(0), the two leapfrog levels and
// the copies the starter and the snapshots make: host_complex_arrays of 16 bytes each), the lattice tables per
// vertex (host_table_bytes) and the executable's resident base with the stationary vortex's tables
// (host_base_bytes). Device: the levels, the starter's stages and the kernel's tables.
// tests/apps/test_memory_estimates.cpp holds the host figure to the measured peak RSS (BCC, 4.4e5 unknowns:
// 298 MB measured; 3.6e6: 662 MB).
inline constexpr double host_complex_arrays = 6, host_table_bytes = 24, host_base_bytes = 240e6;
inline constexpr double device_complex_arrays = 7, device_table_bytes = 40;

core::MemoryNeed gpe_memory_need(double dof);

}  // namespace loom::gpe
