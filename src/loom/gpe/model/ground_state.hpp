// Ground states on the lattice itself by imaginary-time relaxation (normalised gradient flow): repeat
// psi <- psi - dtau (M psi - mu psi), renormalise, with dtau below the explicit stability limit 1/max M_ii,
// until the relative residual |M psi - mu psi| / |psi| is below a tolerance. Any lambda and g (repulsive or
// weakly attractive); the result is the discrete ground state, stationary under the leapfrog up to its phase.
#pragma once

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/gpe/model/hamiltonian.hpp"

namespace loom::gpe {

struct RelaxationResult {
  double mu = 0;
  double residual = 0;
  long iterations = 0;
  bool converged = false;
};

// psi: the initial guess (any side valid); overwritten with the normalised ground state.
RelaxationResult relax_to_ground_state(core::Backend backend, const Hamiltonian& h, core::Array<Complex>& psi,
                                       double tolerance, long max_iterations);

}  // namespace loom::gpe
