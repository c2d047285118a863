// Small GPE problems for tests: a stationary state of eq. (14) sampled on a coarse lattice of any grid.
#pragma once

#include <memory>

#include "loom/gpe/initial_state.hpp"
#include "loom/gpe/integrator.hpp"
#include "loom/gpe/lattice_domain.hpp"
#include "loom/gpe/observables.hpp"
#include "loom/gpe/stationary_vortex.hpp"

namespace loom::gpe::test {

struct Problem {
  VortexProblem physics;
  std::unique_ptr<StationaryVortex> vortex;
  LatticeDomain domain;
  core::Array<Complex> psi0;  // normalised on the lattice
};

// The stationary state (lambda, g, kappa) on `grid` with mean dual edge `edge`, over the cuboid of eq. (15)
// with threshold 1e-5 (or a smaller box when `box_threshold` is larger).
inline Problem make_problem(dec::GridType grid, double lambda, double g, int kappa, double edge,
                            core::Backend backend = core::Backend::cpu, double box_threshold = 1e-5) {
  Problem p;
  p.physics.lambda = lambda;
  p.physics.g = g;
  p.physics.kappa = kappa;
  p.vortex = std::make_unique<StationaryVortex>(StationaryVortex::solve(p.physics));
  const dec::Vec3 half{p.vortex->rho_extent(box_threshold), p.vortex->rho_extent(box_threshold),
                       p.vortex->z_extent(box_threshold)};
  p.domain = make_lattice_domain(grid, scale_for_dual_edge(grid, edge), half);
  const dec::Vec3 box = 0.5 * p.domain.extent();
  const VortexTable table(*p.vortex, 1.05 * std::hypot(box.x, box.y) + 4 * edge, 1.05 * box.z + 4 * edge, 1024, 1024);
  p.psi0 = sample_vortex(p.domain, table);
  normalise(backend, p.domain.hamiltonian(core::where(backend), lambda, g), p.psi0);
  return p;
}

// psi(-dt) = psi(0) e^{i mu dt}: the exact start of a stationary state.
inline core::Array<Complex> rotated(const core::Array<Complex>& psi, double angle) {
  core::Array<Complex> out = psi.clone();
  Complex* p = out.read_write(core::Where::host);
  const Complex phase = core::polar(1.0, angle);
  for (std::size_t i = 0; i < out.size(); ++i) p[i] = phase * p[i];
  return out;
}

}  // namespace loom::gpe::test
