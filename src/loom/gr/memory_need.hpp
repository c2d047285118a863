// The memory a `loom bh` run takes, from grid.extents, the number of shells (grid.radii), the filter and the
// backend, estimated before any shell exists: what core::check_memory compares with the free memory.
// tests/apps/test_memory_estimates.cpp holds it to the peak RSS of a run.
#pragma once

#include <string>

#include "loom/core/memory_budget.hpp"
#include "loom/gr/config.hpp"

namespace loom::gr {

// Per point of each shell: the evolved state (50 components) with the six Dormand-Prince stages and the stage
// state, the fixed fields (coordinates, inverse Jacobian, weights, damping, gauge source and its gradient, the
// exact state), the gradient's logical and Cartesian blocks and scratch, the spin filter's triad fields, the
// outputs' point fields. Per shell: the S2 tables (2 N_theta^3), the spin projectors (7 (2 L + 1) N_theta^2), the
// separable route's traced matrices in each CPU thread's cache. `threads`: the CPU threads (caches per thread).
core::MemoryNeed bh_memory_need(const BhConfig& c, int threads);
// `grid.extents = "400,400,800" (2 shells from grid.radii)`: the setting check_memory names.
std::string bh_memory_setting(const BhConfig& c);

}  // namespace loom::gr
