// Small GPE problems for tests: a stationary state of eq. (14) sampled on a coarse lattice of any grid.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <vector>

#include "loom/gpe/integrator.hpp"
#include "loom/gpe/model/initial_state.hpp"
#include "loom/gpe/model/lattice_domain.hpp"
#include "loom/gpe/model/stationary_vortex.hpp"
#include "loom/gpe/observables.hpp"

namespace loom::gpe::test {

struct Problem {
  VortexProblem stationary;  // what the stationary state solves
  std::unique_ptr<StationaryVortex> vortex;
  LatticeDomain domain;
  core::Array<Complex> psi0;  // normalised on the lattice
};

// The stationary state (lambda, g, kappa) on `grid` with mean dual edge `edge`, over the cuboid of eq. (15)
// with threshold 1e-5 (or a smaller box when `box_threshold` is larger).
inline Problem make_problem(dec::GridType grid, double lambda, double g, int kappa, double edge,
                            core::Backend backend = core::Backend::cpu, double box_threshold = 1e-5) {
  Problem p;
  p.stationary.physics = {lambda, g};
  p.stationary.kappa = kappa;
  p.vortex = std::make_unique<StationaryVortex>(StationaryVortex::solve(p.stationary));
  const dec::Vec3 half{p.vortex->rho_extent(box_threshold), p.vortex->rho_extent(box_threshold),
                       p.vortex->z_extent(box_threshold)};
  p.domain = make_lattice_domain(grid, scale_for_dual_edge(grid, edge), half);
  const dec::Vec3 box = 0.5 * p.domain.extent();
  const VortexTable table(*p.vortex, 1.05 * std::hypot(box.x, box.y) + 4 * edge, 1.05 * box.z + 4 * edge, 1024, 1024);
  p.psi0 = sample_vortex(p.domain, table);
  normalise(backend, p.domain.hamiltonian(core::where(backend), {lambda, g}), p.psi0);
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

// Pseudo-random psi(n) and psi(n-1) on a domain (never zeros) and psi(n+1) after one plain CPU step from them: the
// reference of the kernels' host emulations.
struct OneStepReference {
  std::vector<Complex> now, before, after;
};
inline OneStepReference one_step_reference(const LatticeDomain& domain, double lambda, double g, double dt) {
  const Index n = domain.dof();
  OneStepReference r;
  r.now.resize(static_cast<std::size_t>(n));
  r.before.resize(r.now.size());
  for (Index i = 0; i < n; ++i) {
    r.now[std::size_t(i)] = {std::sin(0.3 * double(i)) + 0.2, std::cos(0.7 * double(i))};
    r.before[std::size_t(i)] = {std::cos(0.11 * double(i)), 0.5 * std::sin(0.05 * double(i))};
  }
  LeapfrogIntegrator cpu(core::Backend::cpu, domain, {lambda, g});
  cpu.set_kernel(LeapfrogKernel::plain);
  cpu.set_state(core::Array<Complex>::from(std::span<const Complex>(r.before)),
                core::Array<Complex>::from(std::span<const Complex>(r.now)), 0, dt, 0);
  cpu.step(1);
  const auto after = cpu.current().host();
  r.after.assign(after.begin(), after.end());
  return r;
}

// max_i |other_i - want_i| / (1 + |want_i|) where want is psi(n+1) inside the updated layers and psi(n-1) elsewhere
// (untouched); 1 for a NaN.
inline double one_step_error(const OneStepReference& r, const std::vector<Complex>& other, int layers_total,
                             LayerRange layers) {
  const Index n = Index(r.now.size()), per_layer = n / layers_total;
  double worst = 0;
  for (Index i = 0; i < n; ++i) {
    const Index layer = i / per_layer;
    const bool updated = layer >= layers.first && layer < layers.first + layers.count;
    const Complex want = updated ? r.after[std::size_t(i)] : r.before[std::size_t(i)];
    const double d = core::abs(other[std::size_t(i)] - want) / (1 + core::abs(want));
    worst = std::isnan(d) ? 1 : std::max(worst, d);
  }
  return worst;
}

}  // namespace loom::gpe::test
