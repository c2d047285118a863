#include "loom/vortex/statistics.hpp"

#include <cmath>

#include "loom/vortex/lattice.hpp"

namespace loom::vortex {

TurbulenceStatistics::TurbulenceStatistics(Index n, double nu, double period, core::Backend backend)
    : h_(period / double(n)), solver_(backend, hit::SpectralGrid{n}, hit::SolverOptions{nu}) {
  const Lattice grid = periodic_lattice(Domain{true, 0, period}, n);
  grid_.resize(static_cast<std::size_t>(grid.size()));
  for (Index m = 0; m < grid.size(); ++m) grid_[static_cast<std::size_t>(m)] = grid.node(m);
}

bool TurbulenceStatistics::on_grid(const Particles& p) const {
  if (p.x.size() != grid_.size()) return false;
  const double tolerance = 1e-9 * h_;
  for (std::size_t i = 0; i < grid_.size(); ++i) {
    const Vec3d d = p.x[i] - grid_[i];
    if (std::fabs(d.x) > tolerance || std::fabs(d.y) > tolerance || std::fabs(d.z) > tolerance) return false;
  }
  return true;
}

hit::Statistics TurbulenceStatistics::measure(RateEvaluator& rates, const Particles& p, double t) {
  return measure_velocity(on_grid(p) ? rates.velocity(p) : rates.velocity_at(p, grid_), t);
}

hit::Statistics TurbulenceStatistics::measure_velocity(const std::vector<Vec3d>& u, double t) {
  LOOM_REQUIRE(u.size() == grid_.size(), "vortex::TurbulenceStatistics::measure_velocity: one velocity per node");
  const auto N = grid_.size();
  core::Array<double> field(3 * N);
  double* f = field.write(core::Where::host);
  for (std::size_t i = 0; i < N; ++i) f[i] = u[i].x, f[N + i] = u[i].y, f[2 * N + i] = u[i].z;
  solver_.set_velocity(field, t);
  return hit::measure(solver_);
}

}  // namespace loom::vortex
