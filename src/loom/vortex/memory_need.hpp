// The memory a periodic `loom vortex` run takes, from particles.n and particles.refine, estimated before the
// initial field or a particle exists: what core::check_memory compares with the free memory.
#pragma once

#include <string>

#include "loom/core/memory_budget.hpp"
#include "loom/vortex/config.hpp"

namespace loom::vortex {

// A periodic box: a step of (particles.refine particles.n)^3 particles (step_memory_need: the particles, the
// integrator's copies, the FMM's own) plus the statistics' loom hit solver on the lattice's grid (hit's estimate,
// which counts the initial field too). A ring: a step of its particles (ring_particle_count). A checkpoint's
// particles: nothing estimated (zero; their count is in the file).
core::MemoryNeed vortex_memory_need(const VortexConfig& c);
// `particles.n = 512 (particles.refine 2: 1073741824 particles)`, or `ring.spacing = 0.0001 (2.5e+10 particles)`.
std::string vortex_memory_setting(const VortexConfig& c);

}  // namespace loom::vortex
