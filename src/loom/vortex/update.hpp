// The explicit particle update of the vortex method, written once for the host integrator (integrator.cpp) and
// the device stepper (device_stepper.cu): a stage adds dt w_s times its rates to x and alpha; core spreading
// sigma^2 += 2 nu c dt for the stage's time c dt (the viscous diffusion of notes/fmm-vortex.md); the periodic
// wrap back into [lower, lower + L). AB2's weights: x(n+1) = x(n) + dt (3/2 f(n) - 1/2 f(n-1)).
#pragma once

#include <cmath>

#include "loom/core/host_device.hpp"
#include "loom/fmm/real.hpp"

namespace loom::vortex {

constexpr double ab2_current = 1.5, ab2_previous = -0.5;

LOOM_HOST_DEVICE inline void add_rates(fmm::Vec3d& x, fmm::Vec3d& alpha, double w_dt, fmm::Vec3d velocity,
                                       fmm::Vec3d stretching) {
  x += w_dt * velocity;
  alpha += w_dt * stretching;
}

// spread = 2 nu c dt.
LOOM_HOST_DEVICE inline double spread_core(double sigma, double spread) { return sqrt(sigma * sigma + spread); }

LOOM_HOST_DEVICE inline double wrap_coordinate(double v, double lower, double period) {
  double u = v - lower;
  u -= period * floor(u / period);
  if (u >= period) u = 0;  // floor's rounding can land exactly on the period
  return lower + u;
}

}  // namespace loom::vortex
