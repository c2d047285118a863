#include "loom/vortex/memory_need.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "loom/hit/memory.hpp"
#include "loom/vortex/benchmark.hpp"
#include "loom/vortex/ring.hpp"

namespace loom::vortex {

namespace {

// The FMM's estimate counts the base of `loom fmm` (its value for no bodies); loom's whole resident base replaces it.
core::MemoryNeed with_resident_base(core::MemoryNeed need, const fmm::Options& options) {
  need.host_bytes += std::max(0.0, core::resident_base_bytes - step_memory_need_of(0, options).host_bytes);
  return need;
}

}  // namespace

core::MemoryNeed vortex_memory_need(const VortexConfig& c) {
  if (c.initial == InitialType::ring) {
    const double particles = ring_particle_count(c.ring, c.ring_spacing, c.overlap);
    return with_resident_base(step_memory_need_of(particles, c.fmm), c.fmm);
  }
  if (!c.periodic || c.initial == InitialType::checkpoint) return {};
  core::MemoryNeed need = with_resident_base(step_memory_need(c.lattice_n, c.fmm), c.fmm);
  hit::HitConfig statistics;
  statistics.backend = c.backend;
  statistics.grid = hit::SpectralGrid{c.lattice_n};
  const auto solver = hit::estimate_memory(statistics);
  need.host_bytes += solver.host_bytes;
  need.device_bytes += solver.device_bytes;
  return need;
}

std::string vortex_memory_setting(const VortexConfig& c) {
  if (c.initial == InitialType::ring)
    return fmt::format("ring.spacing = {} ({:.3g} particles)", c.ring_spacing,
                       ring_particle_count(c.ring, c.ring_spacing, c.overlap));
  const double n = double(c.lattice_n);
  return fmt::format("particles.n = {} (particles.refine {}: {:.0f} particles)", c.grid_n, c.refine, n * n * n);
}

}  // namespace loom::vortex
