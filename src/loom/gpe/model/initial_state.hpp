// Initial wave functions on the lattice: the stationary vortex f(rho, z) e^{i kappa phi} sampled at the dual
// vertices (section 5: psi_i = psi(r_i, n dt)), an optional seeded random perturbation, and normalisation.
#pragma once

#include <cstdint>

#include "loom/core/array.hpp"
#include "loom/gpe/model/lattice_domain.hpp"
#include "loom/gpe/model/stationary_vortex.hpp"

namespace loom::gpe {

// psi_i = f(rho_i, z_i) e^{i kappa phi_i} at every dual vertex (host side, all cores).
core::Array<Complex> sample_vortex(const LatticeDomain& domain, const VortexTable& table);

// psi_i *= 1 + amplitude (xi_i + i eta_i), xi, eta uniform in [-1, 1] from a counter-based generator seeded by
// (seed, i): the same perturbation whatever the backend, thread count or rank decomposition.
void perturb(core::Array<Complex>& psi, double amplitude, std::uint64_t seed);

// Scales psi to discrete norm sum |B_i| |psi_i|^2 = 1; returns the factor applied.
double normalise(core::Backend backend, const Hamiltonian& h, core::Array<Complex>& psi);

}  // namespace loom::gpe
