// The constraint-damping parameters of SpEC's single-hole runs (issue 19): gamma0 = 0.001 + 3 exp(-r^2/128),
// gamma1 = -1 (which makes the psi mode's speed 0, so psi needs no boundary data), gamma2 = 0.001 + exp(-r^2/128).
#pragma once

#include <cmath>

#include "loom/core/host_device.hpp"

namespace loom::gr {

inline constexpr double damping_gamma1 = -1.0;

LOOM_HOST_DEVICE inline double damping_gamma0(double r) { return 0.001 + 3 * std::exp(-r * r / 128); }
LOOM_HOST_DEVICE inline double damping_gamma2(double r) { return 0.001 + std::exp(-r * r / 128); }

}  // namespace loom::gr
