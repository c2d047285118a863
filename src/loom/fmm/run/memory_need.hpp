// The memory a `loom fmm` run on generated bodies needs, from n, p and ncrit, checked before the bodies exist.
#pragma once

#include "loom/core/memory_budget.hpp"
#include "loom/fmm/run/config.hpp"

namespace loom::fmm {

// Per body: its inputs and results, each twice (the caller's order and the tree's), and the reference sums'
// copies. Per cell (about 2 n / ncrit leaves and their parents): the multipole and local expansions of
// p (p + 1) / 2 complex terms per component, and the cell's interaction lists. Plus the resident base.
// tests/fmm/test_fmm_memory.cpp holds it to the measured peak RSS.
core::MemoryNeed memory_need(const FmmConfig& config);

}  // namespace loom::fmm
