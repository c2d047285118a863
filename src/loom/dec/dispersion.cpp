// Bloch matrices and the direction sweep of the dispersion analysis.
#include "loom/dec/dispersion.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "loom/core/error.hpp"
#include "loom/dec/equal_work.hpp"

namespace loom::dec {

HermitianMatrix bloch_matrix(const ReplicableStructure& structure, Vec3 k) {
  const int m = structure.cell_count();
  HermitianMatrix a(m);
  for (int i = 0; i < m; ++i) {
    const PrimalCell& cell = structure.cells[static_cast<std::size_t>(i)];
    for (const auto& f : cell.faces) {
      const PrimalCell& other = structure.cells[static_cast<std::size_t>(f.neighbour)];
      const Vec3 there = other.circumcenter +
                         hadamard(Vec3{double(f.offset[0]), double(f.offset[1]), double(f.offset[2])}, structure.size);
      const double phase = dot(k, there - cell.circumcenter);
      const double w = f.weight() / std::sqrt(cell.volume * other.volume);
      a(i, f.neighbour) += w * std::complex<double>(std::cos(phase), std::sin(phase));
      a(i, i) -= f.weight() / cell.volume;
    }
  }
  return a;
}

double plane_wave_rayleigh_quotient(const ReplicableStructure& structure, const HermitianMatrix& m) {
  // q_i = |B_i|^1/2 (the plane wave itself in the gauge of bloch_matrix), R = q^H M q / q^H q.
  const int n = m.n;
  std::complex<double> num = 0;
  double den = 0;
  for (int i = 0; i < n; ++i) {
    const double qi = std::sqrt(structure.cells[static_cast<std::size_t>(i)].volume);
    den += qi * qi;
    for (int j = 0; j < n; ++j) num += qi * m(i, j) * std::sqrt(structure.cells[static_cast<std::size_t>(j)].volume);
  }
  return num.real() / den;
}

double acoustic_eigenvalue(const ReplicableStructure& structure, Vec3 k) {
  HermitianMatrix m = bloch_matrix(structure, k);
  const double guess = plane_wave_rayleigh_quotient(structure, m);
  const std::vector<double> ev = hermitian_eigenvalues(std::move(m));
  return *std::min_element(ev.begin(), ev.end(),
                           [&](double a, double b) { return std::abs(a - guess) < std::abs(b - guess); });
}

std::vector<Vec3> sphere_directions(int count) {
  LOOM_REQUIRE(count >= 1, "sphere_directions: count < 1");
  std::vector<Vec3> out;
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < count; ++i) {
    const double z = 1.0 - (2.0 * i + 1.0) / count;
    const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
    out.push_back({r * std::cos(golden * i), r * std::sin(golden * i), z});
  }
  return out;
}

DispersionReport measure_dispersion(const ReplicableStructure& structure, double k_edge, int directions,
                                    const std::function<bool()>& stop) {
  DispersionReport r;
  r.k_edge = k_edge;
  r.mean_dual_edge = dual_edge_statistics(structure).mean;
  r.k = k_edge / r.mean_dual_edge;
  const std::vector<Vec3> dirs = sphere_directions(directions);
  r.samples.resize(dirs.size());
  // Blocks of directions, so that a stop request is seen within a block's time (a fraction of a second).
  constexpr int block = 256;
  for (int first = 0; first < directions; first += block) {
    if (stop && stop()) {
      r.samples.clear();
      return r;
    }
    const int last = std::min(directions, first + block);
#pragma omp parallel for schedule(dynamic)
    for (int d = first; d < last; ++d) {
      const Vec3 k = r.k * dirs[static_cast<std::size_t>(d)];
      const double lambda = acoustic_eigenvalue(structure, k);
      r.samples[static_cast<std::size_t>(d)] = {dirs[static_cast<std::size_t>(d)], lambda, lambda / -(r.k * r.k)};
    }
  }
  r.ratio_min = r.ratio_max = r.samples.front().ratio;
  for (const auto& s : r.samples) {
    r.ratio_min = std::min(r.ratio_min, s.ratio);
    r.ratio_max = std::max(r.ratio_max, s.ratio);
    r.ratio_mean += s.ratio / directions;
  }
  return r;
}

}  // namespace loom::dec
