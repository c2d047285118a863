#include "loom/fmm/run/memory_need.hpp"

namespace loom::fmm {
namespace {

constexpr double host_base_bytes = 160e6;
constexpr double list_entries_per_cell = 300;  // M2L and P2P pairs of a cell at theta ~ 0.4, 8 bytes each

}  // namespace

core::MemoryNeed memory_need(const FmmConfig& config) {
  const bool laplace = config.kernel == Kernel::laplace;
  const double n = static_cast<double>(config.bodies.n), p = config.options.order;
  const double body_bytes = laplace ? 8 * (3 + 1) + 8 * (1 + 3) : 8 * (3 + 3 + 1) + 8 * (3 + 3);
  const double components = laplace ? 1 : 3;
  const double cells = 2.3 * n / config.options.ncrit;  // leaves about half full, and 1/7 more for their parents
  const double cell_bytes = 2 * components * p * (p + 1) / 2 * 16 + 8 * list_entries_per_cell + 128;
  const double bodies_and_cells = 2 * n * body_bytes + cells * cell_bytes;
  return {host_base_bytes + bodies_and_cells + n * body_bytes, bodies_and_cells};
}

}  // namespace loom::fmm
