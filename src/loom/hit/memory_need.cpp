#include "loom/hit/memory_need.hpp"

namespace loom::hit {
namespace {

constexpr double complex_bytes = 16, real_bytes = 8, host_base_bytes = 160e6;

}  // namespace

core::MemoryNeed hit_memory_need(const HitConfig& config) {
  const double modes = static_cast<double>(config.grid.modes()), points = static_cast<double>(config.grid.points());
  const double solver_complex = 15 + (config.solver.dealiasing == Dealiasing::phase_shift ? 3 : 0);
  const double solver_real = 6 + 6;  // the solver's physical work, the FFT's buffers
  return {host_base_bytes + modes * complex_bytes * (solver_complex + 3) + points * real_bytes * (solver_real + 6),
          modes * complex_bytes * solver_complex + points * real_bytes * solver_real};
}

}  // namespace loom::hit
