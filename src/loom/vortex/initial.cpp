#include "loom/vortex/initial.hpp"

#include <fmt/format.h>

#include <cmath>

#include "loom/core/error.hpp"
#include "loom/hit/initial.hpp"
#include "loom/hit/snapshot.hpp"

namespace loom::vortex {

Vec3d taylor_green_vorticity(double amplitude, Vec3d x) {
  const double sx = std::sin(x.x), cx = std::cos(x.x), sy = std::sin(x.y), cy = std::cos(x.y);
  const double sz = std::sin(x.z), cz = std::cos(x.z);
  return {-amplitude * cx * sy * sz, -amplitude * sx * cy * sz, 2 * amplitude * sx * sy * cz};
}

namespace {

// loom hit's field on its n^3 grid, and its vorticity by the spectral curl, per lattice node.
std::vector<Vec3d> hit_vorticity(const VortexConfig& c) {
  const hit::SpectralGrid grid{c.lattice_n};
  hit::Solver solver(core::Backend::cpu, grid, hit::SolverOptions{c.nu});
  if (c.initial == InitialType::file)
    solver.set_velocity(hit::read_velocity_file(c.field.file, grid));
  else
    solver.set_modes(hit::random_solenoidal(grid, hit::Dealiasing::two_thirds, c.field.spectrum, c.field.k_peak,
                                            c.field.energy, c.field.seed));
  const double* r = hit::velocity_and_vorticity(solver);
  const Index N = grid.points();
  std::vector<Vec3d> omega(static_cast<std::size_t>(N));
  for (Index i = 0; i < N; ++i) omega[static_cast<std::size_t>(i)] = {r[3 * N + i], r[4 * N + i], r[5 * N + i]};
  return omega;
}

InitialState from_lattice(const VortexConfig& c) {
  const Domain box{true, 0, box_period};
  const Lattice lattice = periodic_lattice(box, c.lattice_n);
  std::vector<Vec3d> omega;
  if (c.initial == InitialType::taylor_green) {
    omega.resize(static_cast<std::size_t>(lattice.size()));
    for (Index m = 0; m < lattice.size(); ++m)
      omega[static_cast<std::size_t>(m)] = taylor_green_vorticity(c.field.amplitude, lattice.node(m));
  } else {
    omega = hit_vorticity(c);
  }
  ReinitResult r = particles_from_vorticity(lattice, omega, c.reinit);
  InitialState s;
  s.state.particles = std::move(r.particles);
  s.state.periodic = true;
  s.state.lattice_n = c.lattice_n;
  s.cg = r.cg;
  return s;
}

}  // namespace

InitialState initial_state(VortexConfig& c) {
  if (c.initial == InitialType::file) {
    const Index n = hit::velocity_file_grid(c.field.file, "initial.file");
    if (n > hit::max_grid_n)
      throw UsageError(fmt::format("initial.file = \"{}\": a grid of {}^3, expected at most {}^3", c.field.file, n,
                                   hit::max_grid_n));
    c.lattice_n = n;
  }
  if (c.initial == InitialType::checkpoint) {
    InitialState s;
    s.state = read_checkpoint(c.checkpoint);
    c.periodic = c.fmm.periodic = s.state.periodic;
    if (s.state.periodic) c.lattice_n = s.state.lattice_n;
    if (s.state.time >= c.t_end)
      throw UsageError(fmt::format("time.t_end = {}: expected a time after the checkpoint's t = {}", c.t_end,
                                   s.state.time));
    return s;
  }
  if (c.initial == InitialType::ring) {
    InitialState s;
    s.state.particles = vortex_ring(c.ring, c.ring_spacing, c.overlap);
    return s;
  }
  return from_lattice(c);
}

}  // namespace loom::vortex
