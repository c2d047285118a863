// The vortex tests' references, written apart from loom's pair functions (src/loom/fmm/pair_kernels.hpp): the
// regularised Biot-Savart velocity of Gaussian blobs summed directly from the textbook formula, and the Gaussian
// vorticity sum.
#pragma once

#include <cmath>

#include "loom/vortex/particles.hpp"

namespace loom::test {

using vortex::Particles;
using vortex::Vec3d;

// u(x) = (1/4 pi) sum_j q(|r|/sigma_j) / |r|^3 (alpha_j x r), r = x - x_j, q(rho) = erf(rho/sqrt2) - sqrt(2/pi) rho
// e^{-rho^2/2}, the velocity of the vorticity sum_j alpha_j zeta_sigma_j (Winckelmans and Leonard 1993).
inline Vec3d direct_velocity(const Particles& p, Vec3d x) {
  long double u[3] = {0, 0, 0};
  for (std::size_t j = 0; j < p.x.size(); ++j) {
    const long double r[3] = {x.x - p.x[j].x, x.y - p.x[j].y, x.z - p.x[j].z};
    const long double d = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    if (d == 0) continue;
    const long double rho = d / p.sigma[j];
    const long double q = std::erf(rho / std::sqrt(2.0L)) - std::sqrt(2 / M_PIl) * rho * std::exp(-rho * rho / 2);
    const long double f = q / (d * d * d) / (4 * M_PIl);
    const long double a[3] = {p.alpha[j].x, p.alpha[j].y, p.alpha[j].z};
    u[0] += f * (a[1] * r[2] - a[2] * r[1]);
    u[1] += f * (a[2] * r[0] - a[0] * r[2]);
    u[2] += f * (a[0] * r[1] - a[1] * r[0]);
  }
  return {double(u[0]), double(u[1]), double(u[2])};
}

// (d . grad) u at x by the central difference of direct_velocity, step eps along d (unit or not).
inline Vec3d direct_derivative(const Particles& p, Vec3d x, Vec3d d, double eps) {
  const Vec3d plus = direct_velocity(p, {x.x + eps * d.x, x.y + eps * d.y, x.z + eps * d.z});
  const Vec3d minus = direct_velocity(p, {x.x - eps * d.x, x.y - eps * d.y, x.z - eps * d.z});
  return {(plus.x - minus.x) / (2 * eps), (plus.y - minus.y) / (2 * eps), (plus.z - minus.z) / (2 * eps)};
}

// omega(x) = sum_j alpha_j (2 pi sigma_j^2)^{-3/2} e^{-|x - x_j|^2 / (2 sigma_j^2)}, all particles.
inline Vec3d direct_vorticity(const Particles& p, Vec3d x) {
  Vec3d w{};
  for (std::size_t j = 0; j < p.x.size(); ++j) {
    const double dx = x.x - p.x[j].x, dy = x.y - p.x[j].y, dz = x.z - p.x[j].z, s = p.sigma[j];
    const double z = std::exp(-(dx * dx + dy * dy + dz * dz) / (2 * s * s)) / std::pow(2 * M_PI * s * s, 1.5);
    w.x += z * p.alpha[j].x, w.y += z * p.alpha[j].y, w.z += z * p.alpha[j].z;
  }
  return w;
}

}  // namespace loom::test
