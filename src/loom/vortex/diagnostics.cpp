#include "loom/vortex/diagnostics.hpp"

#include <cmath>

namespace loom::vortex {

Invariants invariants(const Particles& p) {
  Invariants v;
  Vec3d weighted{};
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    const double a = std::sqrt(fmm::norm2(p.alpha[i]));
    v.total_vorticity += p.alpha[i];
    v.impulse += 0.5 * fmm::cross(p.x[i], p.alpha[i]);
    weighted += a * p.x[i];
    v.strength += a;
  }
  if (v.strength > 0) v.centroid = (1 / v.strength) * weighted;
  return v;
}

}  // namespace loom::vortex
