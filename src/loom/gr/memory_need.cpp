#include "loom/gr/memory_need.hpp"

#include <fmt/format.h>

#include "loom/gr/indices.hpp"
#include "loom/spectral/spin_filter.hpp"

namespace loom::gr {
namespace {

constexpr double bytes_per_value = 8;

// Values per point of the arrays GhSystem, BhRun and DormandPrince keep for every shell.
constexpr double state_values = state_size * (1 + 6 + 1);  // the state, six stages, the stage state
// coords 3, inverse Jacobian 9, weights, gamma0, gamma2, gauge 4, its gradient 16, the exact state 50, the
// logical and Cartesian gradients 3 x 50 each, scratch 50
constexpr double fixed_values = 3 + 9 + 3 + 4 + 16 + state_size + 2 * 3 * state_size + state_size;
// The temporaries of one shell at a time: the exact state BhRun keeps while it checks the excision speed, the
// outputs' point fields (5) and positions (3), the ping-pong buffers of the CPU operators' steps (2 x 50).
constexpr double transient_values = state_size + 8 + 2 * state_size;
// The spin filter's triad fields: 2 x (psi, Pi: 1 + 3 + 9 each, Phi: 3 + 9 + 27) fields of 3^rank components.
constexpr double spin_values = 2 * (2 * (1 + 3 + 9) + (3 + 9 + 27));

}  // namespace

core::MemoryNeed bh_memory_need(const BhConfig& c, int threads) {
  const auto& e = c.geometry.extents;
  const double nr = e[0], nt = e[1], np = e[2], shells = double(c.geometry.radii.size() - 1);
  const double n = nr * nt * np;
  const bool tensor = c.geometry.angular_filter == spectral::AngularFilter::tensor;
  const double per_point = state_values + fixed_values + (tensor ? spin_values : 0);
  // The separable gradient's matrices: radial, the phi DFT and two inverses (N_phi^2 each), two theta operators
  // (one N_theta^2 block per phi mode); the scalar filter adds a projection and its DFTs.
  const double gradient_matrices = nr * nr + 3 * np * np + 2 * np * nt * nt;
  const double filter_matrices = tensor ? nr * nr : nr * nr + 2 * np * np + np * nt * nt;
  const double s2_tables = 2 * nt * nt * nt;
  const double spin_tables = tensor ? (2 * spectral::max_spin_rank + 1) * (2 * nt - 1) * nt * nt + 9 * nt * np : 0;
  const bool cpu = c.backend == core::Backend::cpu;
  const double caches = (cpu ? threads : 0) + 1;  // CpuOperators' per thread, GhSystem's (the gauge gradient)
  const double per_shell = per_point * n + s2_tables + spin_tables + caches * (gradient_matrices + filter_matrices);
  core::MemoryNeed need;
  need.host_bytes = core::resident_base_bytes +
                    bytes_per_value * (shells * per_shell + transient_values * n + spin_tables);
  if (!cpu)
    need.device_bytes =
        bytes_per_value * shells * (per_point * n + spin_tables + gradient_matrices + filter_matrices);
  return need;
}

std::string bh_memory_setting(const BhConfig& c) {
  const auto& e = c.geometry.extents;
  const std::size_t shells = c.geometry.radii.size() - 1;
  return fmt::format("grid.extents = \"{},{},{}\" ({} shell{} from grid.radii)", e[0], e[1], e[2], shells,
                     shells == 1 ? "" : "s");
}

}  // namespace loom::gr
