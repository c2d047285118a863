// The physical parameters of the DEC-GPE paper's eq. (1)-(2), passed as one value from the configuration to the
// kernels, and the two formulas every implementation of the operator shares: the trap potential of eq. (2) and the
// Gross-Pitaevskii row of eq. (6). The CPU loops and every CUDA kernel call these, so each is written once.
#pragma once

#include "loom/core/complex.hpp"
#include "loom/core/host_device.hpp"
#include "loom/dec/vec3.hpp"

namespace loom::gpe {

struct Physics {
  double lambda = 1;  // trap anisotropy
  double g = 0;       // interaction strength (either sign)
  friend bool operator==(const Physics&, const Physics&) = default;
};

// V = (rho^2 + lambda^2 z^2) / 2, eq. (2), from rho^2 = x^2 + y^2 and z.
LOOM_HOST_DEVICE inline double trap_potential(double lambda, double rho2, double z) {
  return 0.5 * (rho2 + lambda * lambda * z * z);
}
LOOM_HOST_DEVICE inline double trap_potential(double lambda, dec::Vec3 r) {
  return trap_potential(lambda, r.x * r.x + r.y * r.y, r.z);
}

// (M psi)_i of eq. (6) from the DEC Laplacian at i (eq. 5/8, already divided by |B_i|), the potential at i and
// psi_i: -1/2 (Lap psi)_i + (V_i + g |psi_i|^2) psi_i.
LOOM_HOST_DEVICE inline core::Complex gross_pitaevskii_row(core::Complex laplacian, double potential, double g,
                                                           core::Complex psi) {
  return -0.5 * laplacian + (potential + g * core::norm2(psi)) * psi;
}

}  // namespace loom::gpe
