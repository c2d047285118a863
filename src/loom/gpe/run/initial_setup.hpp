// Everything a GPE run decides before its run directory exists (bad input must leave nothing behind): the lattice,
// the initial state psi(0) (or both time levels of a checkpoint), the reference state of E(t), the time step.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "loom/core/array.hpp"
#include "loom/gpe/model/ground_state.hpp"
#include "loom/gpe/model/lattice_domain.hpp"
#include "loom/gpe/model/stationary_vortex.hpp"
#include "loom/gpe/run/config.hpp"

namespace loom::gpe {

struct InitialSetup {
  LeapfrogKernel kernel = LeapfrogKernel::plain;  // auto resolved for the lattice
  Physics physics;                                // the checkpoint's on a restart
  int kappa = 0;
  std::string starter;  // how psi(-dt) is made, for the summary
  std::optional<StationaryVortex> vortex;
  double mu_reference = 0;  // psi_exact(t) = reference e^{-i mu_reference t}
  bool reference_is_exact = false;
  LatticeDomain domain;
  core::Array<Complex> reference, previous, current;
  double t0 = 0, dt = 0, dt_bound = 0;
  std::int64_t step0 = 0;
  RelaxationResult relaxation;
  double ring_inner = 0, ring_outer = 0, ring_half_height = 0;  // the splitting detector's annulus (kappa != 0)
  double work = 0;                                              // operations per time unit, counted by work_rule
  dec::EqualWorkRule work_rule = dec::EqualWorkRule::paper;
  std::string previous_input;                                   // a checkpoint's effective input
};

// Throws UsageError for bad input (a checkpoint that does not match the parameters, a stationary state that does
// not converge, a time step above the stability bound).
InitialSetup prepare_initial(const GpeConfig& config);

}  // namespace loom::gpe
