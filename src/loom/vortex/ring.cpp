#include "loom/vortex/ring.hpp"

#include <fmt/format.h>

#include <cmath>

#include "loom/core/error.hpp"

namespace loom::vortex {
namespace {

constexpr double core_extent = 3.5;  // cross-section offsets kept, in sampled cores: e^{-12.25} = 5e-6 of the peak

struct Offset {
  double rho, z, weight;  // meridional offset from the centre line, the sampled vorticity times h^2
};

// The sampled core's grid points in the meridional plane and their share of the circulation, summing to Gamma.
std::vector<Offset> cross_section(double circulation, double a_s, double h) {
  const int m = static_cast<int>(std::ceil(core_extent * a_s / h));
  std::vector<Offset> points;
  double total = 0;
  for (int i = -m; i <= m; ++i)
    for (int j = -m; j <= m; ++j) {
      const double s2 = (i * h) * (i * h) + (j * h) * (j * h);
      if (s2 > core_extent * core_extent * a_s * a_s) continue;
      const double w = std::exp(-s2 / (a_s * a_s));
      points.push_back({i * h, j * h, w});
      total += w;
    }
  for (Offset& p : points) p.weight *= circulation / total;
  return points;
}

}  // namespace

double sampled_core_squared(const RingShape& ring, double spacing, double overlap) {
  const double sigma = overlap * spacing;
  const double a_s2 = ring.core * ring.core - 2 * sigma * sigma;
  if (!(a_s2 > 0))
    throw UsageError(fmt::format("ring.spacing = {}: expected a spacing below ring.core / (sqrt(2) particles.overlap) "
                                 "= {:.6g}, so that the blobs (sigma = overlap spacing) fit inside the core",
                                 spacing, ring.core / (std::sqrt(2.0) * overlap)));
  if (core_extent * std::sqrt(a_s2) >= ring.radius)
    throw UsageError(fmt::format("ring.core = {}: expected a core below ring.radius / {} = {:.6g}", ring.core,
                                 core_extent, ring.radius / core_extent));
  return a_s2;
}

Particles vortex_ring(const RingShape& ring, double spacing, double overlap) {
  const double h = spacing, sigma = overlap * h;
  const double a_s2 = sampled_core_squared(ring, spacing, overlap);
  const std::vector<Offset> section = cross_section(ring.circulation, std::sqrt(a_s2), h);
  const int stations = std::max(8, static_cast<int>(std::lround(2 * M_PI * ring.radius / h)));
  const double dphi = 2 * M_PI / stations;
  Particles p;
  p.resize(Index(stations) * Index(section.size()));
  std::size_t k = 0;
  for (int s = 0; s < stations; ++s) {
    const double phi = s * dphi, c = std::cos(phi), sn = std::sin(phi);
    for (const Offset& o : section) {
      const double rho = ring.radius + o.rho;
      // alpha = omega dV e_phi, dV = h^2 rho dphi: the circulation Gamma along a tube of length rho dphi
      const double strength = o.weight * rho * dphi;
      p.x[k] = {rho * c, rho * sn, o.z};
      p.alpha[k] = {-strength * sn, strength * c, 0};
      p.sigma[k] = sigma;
      ++k;
    }
  }
  return p;
}

double ring_particle_count(const RingShape& ring, double spacing, double overlap) {
  const double a_s = std::sqrt(sampled_core_squared(ring, spacing, overlap));
  const double per_side = std::ceil(core_extent * a_s / spacing);  // cross_section's m
  const double stations = std::max(8.0, std::round(2 * M_PI * ring.radius / spacing));
  return (2 * per_side + 1) * (2 * per_side + 1) * stations;
}

double saffman_ring_speed(const RingShape& ring) {
  constexpr double euler_gamma = 0.57721566490153286061;
  const double beta = (1 + std::log(2.0) - euler_gamma) / 2;
  return ring.circulation / (4 * M_PI * ring.radius) * (std::log(8 * ring.radius / ring.core) - beta);
}

}  // namespace loom::vortex
