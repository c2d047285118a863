// The memory a `loom hit` run needs, from grid.n and the dealiasing, checked before anything is allocated.
#pragma once

#include "loom/core/memory_budget.hpp"
#include "loom/hit/config.hpp"

namespace loom::hit {

// Per mode (n^2 (n/2 + 1) of them), complex: the solver's u, w, acc and 6 spectral work components (15), 3 more
// with phase-shift dealiasing, and on the host the 3 of the initial field. Per grid point, real: the solver's 6
// physical work components and FFTW's, and on the host the 3 of the initial velocity and 3 of a snapshot. Plus the
// executable's resident base. tests/hit/test_hit_memory.cpp holds it to the measured peak RSS.
core::MemoryNeed hit_memory_need(const HitConfig& config);

}  // namespace loom::hit
