#include "loom/gpe/splitting.hpp"

#include <algorithm>
#include <cmath>

namespace loom::gpe {

std::pair<int, int> layers_within(const Hamiltonian& h, double half_height) {
  const double height = h.stencil.size.z;
  const int first = std::max(0, static_cast<int>(std::floor((-half_height - h.origin.z) / height)));
  const int last = std::min(h.lattice.nz - 1, static_cast<int>(std::floor((half_height - h.origin.z) / height)));
  return {first, last};
}

AzimuthalModes azimuthal_modes(const Hamiltonian& h, const Complex* psi, const Complex* reference, double inner,
                               double outer, double half_height, int max_mode, int bins) {
  std::vector<double> sum(static_cast<std::size_t>(bins), 0.0);
  double reference_total = 0;
  std::vector<long> count(static_cast<std::size_t>(bins), 0);
  AzimuthalModes out;
  // Only the structure layers that reach into |z| <= half_height.
  const auto [z_first, z_last] = layers_within(h, half_height);
  const Index per_layer = Index(h.lattice.cells) * h.lattice.nx * h.lattice.ny;
  for (Index i = Index(z_first) * per_layer; i < Index(z_last + 1) * per_layer; ++i) {
    const dec::Vec3 r = h.position(i);
    const double rho = std::hypot(r.x, r.y);
    if (std::abs(r.z) > half_height || rho < inner || rho > outer) continue;
    const double phi = std::atan2(r.y, r.x) + M_PI;
    const int b = std::min(bins - 1, static_cast<int>(phi / (2 * M_PI) * bins));
    sum[static_cast<std::size_t>(b)] += core::norm2(psi[i]) - core::norm2(reference[i]);
    reference_total += core::norm2(reference[i]);
    ++count[static_cast<std::size_t>(b)];
    ++out.samples;
  }
  // Bin averages of the density change (empty bins count as no change, so they add no structure).
  std::vector<double> change(static_cast<std::size_t>(bins), 0.0);
  for (int b = 0; b < bins; ++b)
    if (count[static_cast<std::size_t>(b)])
      change[static_cast<std::size_t>(b)] = sum[static_cast<std::size_t>(b)] / double(count[static_cast<std::size_t>(b)]);
  const double mean = out.samples ? reference_total / double(out.samples) : 0;
  if (out.samples == 0 || mean <= 0) return out;
  double best = -1;
  for (int m = 1; m <= max_mode; ++m) {
    double re = 0, im = 0;
    for (int b = 0; b < bins; ++b) {
      const double phi = 2 * M_PI * (b + 0.5) / bins;
      re += change[static_cast<std::size_t>(b)] * std::cos(m * phi);
      im += change[static_cast<std::size_t>(b)] * std::sin(m * phi);
    }
    const double a = 2 * std::hypot(re, im) / bins / mean;
    out.amplitudes.push_back(a);
    if (a > best) {
      best = a;
      out.dominant = m;
      out.relative_amplitude = a;
    }
  }
  return out;
}

}  // namespace loom::gpe
