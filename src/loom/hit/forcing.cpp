#include "loom/hit/forcing.hpp"

#include <cmath>

#include "loom/core/parallel_for.hpp"

namespace loom::hit {

namespace {
LOOM_HOST_DEVICE inline bool forced(Wavevector k, double k_f) {
  const double k2 = k.norm2();
  return k2 > 0 && k2 <= k_f * k_f;
}
}  // namespace

double low_shell_energy(Solver& solver, double k_f) {
  const SlabLayout L = solver.layout();
  const Index M = L.mode_stride;
  const Complex* u = solver.modes().read(core::where(solver.backend()));
  return solver.sum_over_ranks(core::parallel_sum(solver.backend(), L.modes(), [=] LOOM_HOST_DEVICE(Index m) {
    if (!forced(L.wavevector(m), k_f)) return 0.0;
    return L.grid.hermitian_weight(m) * 0.5 * (norm2(u[m]) + norm2(u[M + m]) + norm2(u[2 * M + m]));
  }));
}

double ShellEnergyForcing::apply(Solver& solver) const {
  const double now = low_shell_energy(solver, k_f_);
  if (now <= 0) return 0;
  const double scale = std::sqrt(target_ / now), k_f = k_f_;
  const SlabLayout L = solver.layout();
  const Index M = L.mode_stride;
  Complex* u = solver.modes_for_update();
  core::parallel_for(solver.backend(), L.modes(), [=] LOOM_HOST_DEVICE(Index m) {
    if (!forced(L.wavevector(m), k_f)) return;
    u[m] = scale * u[m], u[M + m] = scale * u[M + m], u[2 * M + m] = scale * u[2 * M + m];
  });
  return target_ - now;
}

}  // namespace loom::hit
