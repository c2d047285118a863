// What a run of `loom hit` needs in memory, counted before anything is allocated, so that a grid too large for
// the machine is refused with exit 2 ("grid.n = 1024: needs X GiB ..., has Y GiB") rather than ending in
// bad_alloc or a CUDA out-of-memory error mid-run. Per rank; rank 0 is counted, the largest (the widest slab, and
// the whole modes it gathers for checkpoints).
#pragma once

#include "loom/core/memory_budget.hpp"
#include "loom/hit/config.hpp"

namespace loom::hit {

// Host and device bytes of one rank (device 0 on the CPU backend).
using MemoryEstimate = core::MemoryNeed;

// The solver's arrays on the slab of the widest rank (SlabLayout's sizes for FFTW's blocks), the transforms' work
// space, the initial field (the rank's slab of an analytic one; a file or checkpoint whole), and on rank 0 the
// gathered outputs.
MemoryEstimate estimate_memory(const HitConfig& config, int ranks = 1);

// Throws UsageError naming grid.n when a rank's estimate exceeds what the machine has: MemAvailable of
// core::available_host_bytes shared by the `ranks_per_node` ranks of a node, and the current device's free memory.
void check_memory(const HitConfig& config, int ranks, int ranks_per_node);

}  // namespace loom::hit
