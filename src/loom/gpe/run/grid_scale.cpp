#include "loom/gpe/run/grid_scale.hpp"

#include <algorithm>
#include <cmath>

#include "loom/dec/equal_work.hpp"
#include "loom/dec/replicable_structure.hpp"

namespace loom::gpe {

double work_per_time_unit(dec::EqualWorkRule rule, dec::GridType grid, double s, dec::Vec3 half, double lambda,
                          double peak_nonlinear) {
  const auto& unit = dec::replicable_structure(grid);
  auto count = [&](double h, double edge) { return std::max(1.0, std::ceil(2 * h / (s * edge) - 1e-9)); };
  const double nx = count(half.x, unit.size.x), ny = count(half.y, unit.size.y), nz = count(half.z, unit.size.z);
  const double X = 0.5 * nx * s * unit.size.x, Y = 0.5 * ny * s * unit.size.y, Z = 0.5 * nz * s * unit.size.z;
  const double max_potential = 0.5 * (X * X + Y * Y + lambda * lambda * Z * Z) + peak_nonlinear;
  return nx * ny * nz * dec::structure_work_per_time_unit(rule, unit, s, max_potential);
}

double equal_work_scale(dec::EqualWorkRule rule, dec::GridType grid, double target, dec::Vec3 half, double lambda,
                        double peak_nonlinear) {
  double lo = 1e-4, hi = 1e3;  // work falls as the scale grows
  for (int it = 0; it < 200; ++it) {
    const double mid = std::sqrt(lo * hi);
    (work_per_time_unit(rule, grid, mid, half, lambda, peak_nonlinear) > target ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace loom::gpe
