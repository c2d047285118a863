// The constraint-damping parameters (LSKOR eqs. 35-37): gamma0 = 0.001 + 3 exp(-r^2/128) and
// gamma2 = 0.001 + exp(-r^2/128) as in SpEC's single-hole runs (issue 19), but gamma1 = 0 where SpEC takes -1.
// With gamma1 = -1 the psi mode and C_iab have speed 0: C_iab stays where it is made, at the excision surface,
// held only by gamma2, and grew there at e^(0.13 t) from any seed; gamma1 = 0 moves C_iab along -N^k, into the
// hole through the all-outgoing excision surface, and the growth stopped (docs/gr.md, "The late instability").
// `loom bh` takes the amplitudes and gamma1 as damping.* keys.
#pragma once

#include <cmath>

#include "loom/core/host_device.hpp"

namespace loom::gr {

struct Damping {
  double gamma0 = 3, gamma1 = 0, gamma2 = 1;  // the Gaussians' amplitudes, and gamma1
  double floor = 0.001, width2 = 128;         // the value far out, and the Gaussians' r^2 scale
};

LOOM_HOST_DEVICE inline double damping_gamma0(const Damping& d, double r) {
  return d.floor + d.gamma0 * std::exp(-r * r / d.width2);
}
LOOM_HOST_DEVICE inline double damping_gamma2(const Damping& d, double r) {
  return d.floor + d.gamma2 * std::exp(-r * r / d.width2);
}

}  // namespace loom::gr
