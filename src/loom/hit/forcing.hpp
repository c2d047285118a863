// Low-wavenumber forcing for statistically stationary runs: after every step the modes with 0 < |k| <= k_f are
// rescaled so that their energy stays at its initial value (the energy-fixing forcing of Sullivan, Mahalingam and
// Kerr, Phys. Fluids 6, 1994; issue 20 asks for |k| <= 2). A common factor keeps the modes divergence-free.
#pragma once

#include "loom/hit/solver.hpp"

namespace loom::hit {

// sum over 0 < |k| <= k_f of 0.5 |u_hat|^2, both halves of the spectrum.
double low_shell_energy(Solver& solver, double k_f);

class ShellEnergyForcing {
 public:
  ShellEnergyForcing(Solver& solver, double k_f) : k_f_(k_f), target_(low_shell_energy(solver, k_f)) {}
  // Rescales the low shells to the target; returns the energy added (negative if removed).
  double apply(Solver& solver) const;
  double target() const { return target_; }

 private:
  double k_f_, target_;
};

}  // namespace loom::hit
