// The turbulence statistics of the particles as loom hit measures them (energy, dissipation, skewness, E(k), the
// scales): the particles' Biot-Savart velocity evaluated by the FMM at loom hit's n^3 grid points (zero-strength
// bodies beside the particles, so no interpolation error), handed to a loom hit solver of the same grid and
// viscosity and measured by hit::measure. The same columns, so that one plot overlays both methods. The solver
// runs on `backend` (the FFTs and the derivatives' moments of the measurement on the GPU for cuda).
#pragma once

#include "loom/hit/observables.hpp"
#include "loom/hit/solver.hpp"
#include "loom/vortex/rates.hpp"

namespace loom::vortex {

class TurbulenceStatistics {
 public:
  TurbulenceStatistics(Index n, double nu, double period, core::Backend backend = core::Backend::cpu);
  hit::Statistics measure(RateEvaluator& rates, const Particles& p, double t);

 private:
  std::vector<Vec3d> grid_;
  hit::Solver solver_;
};

}  // namespace loom::vortex
