// The turbulence statistics of the particles as loom hit measures them (energy, dissipation, skewness, E(k), the
// scales): the particles' Biot-Savart velocity evaluated by the FMM at the n^3 points of a grid, handed to a loom
// hit solver of that grid and viscosity and measured by hit::measure. The same columns, so that one plot overlays
// both methods. The solver runs on `backend` (the FFTs and the derivatives' moments on the GPU for cuda).
//
// Which grid: the particle lattice's (loom vortex passes particles.n x particles.refine). The particle field's
// enstrophy lives up to the lattice's wavenumbers; on loom hit's coarser grid the modes between that grid's 2/3 cut
// and the lattice's are cut off or folded onto retained ones, and the dissipation 2 nu Z reads low (issue 21:
// test_vortex_field_sums measures both against the field's Fourier series, field_sums.hpp).
// When the particles sit on the grid's nodes in its order (after a reinitialisation, at the start), the velocity
// at the particles is the velocity on the grid: one FMM call over the particles alone, no extra target bodies.
#pragma once

#include "loom/hit/observables.hpp"
#include "loom/hit/solver.hpp"
#include "loom/vortex/rates.hpp"

namespace loom::vortex {

class TurbulenceStatistics {
 public:
  TurbulenceStatistics(Index n, double nu, double period, core::Backend backend = core::Backend::cpu);
  hit::Statistics measure(RateEvaluator& rates, const Particles& p, double t);
  // The statistics of a velocity given at the grid's nodes (node order: x fastest).
  hit::Statistics measure_velocity(const std::vector<Vec3d>& u, double t);
  // Whether particle m sits at node m for every m (to 1e-9 of the spacing).
  bool on_grid(const Particles& p) const;
  Index n() const { return solver_.grid().n; }

 private:
  std::vector<Vec3d> grid_;
  double h_ = 1;
  hit::Solver solver_;
};

}  // namespace loom::vortex
