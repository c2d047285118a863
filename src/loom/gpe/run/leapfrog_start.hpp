// How a GPE run starts its leapfrog from the prepared initial state: a checkpoint's two levels, the exact phase of
// a stationary state, or one RK4 step backwards. Shared by GpeRun and the Python module's Simulation, so both
// start the same way.
#pragma once

#include "loom/gpe/integrator.hpp"
#include "loom/gpe/parallel/slab_domain.hpp"
#include "loom/gpe/run/config.hpp"
#include "loom/gpe/run/initial_setup.hpp"

namespace loom::gpe {

// Sets psi(-dt) and psi(0) (or a checkpoint's psi(n-1), psi(n)) on `integrator`, moving the states out of `s`, and
// records the starter's description in s.starter.
void start_leapfrog(const GpeConfig& config, InitialSetup& s, const SlabDomain& slab, LeapfrogIntegrator& integrator);

}  // namespace loom::gpe
