#include "loom/vortex/statistics.hpp"

#include "loom/vortex/lattice.hpp"

namespace loom::vortex {

TurbulenceStatistics::TurbulenceStatistics(Index n, double nu, double period, core::Backend backend)
    : solver_(backend, hit::SpectralGrid{n}, hit::SolverOptions{nu}) {
  const Lattice grid = periodic_lattice(Domain{true, 0, period}, n);
  grid_.resize(static_cast<std::size_t>(grid.size()));
  for (Index m = 0; m < grid.size(); ++m) grid_[static_cast<std::size_t>(m)] = grid.node(m);
}

hit::Statistics TurbulenceStatistics::measure(RateEvaluator& rates, const Particles& p, double t) {
  const std::vector<Vec3d> u = rates.velocity_at(p, grid_);
  const auto N = grid_.size();
  core::Array<double> field(3 * N);
  double* f = field.write(core::Where::host);
  for (std::size_t i = 0; i < N; ++i) f[i] = u[i].x, f[N + i] = u[i].y, f[2 * N + i] = u[i].z;
  solver_.set_velocity(field, t);
  return hit::measure(solver_);
}

}  // namespace loom::vortex
