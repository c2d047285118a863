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

// Only the modes inside the sphere |k| < n/3 (the 2/3 rule's sphere rather than its cube): the particles reproduce a
// mode k through the RBF solve with strengths 1/S(k) times its vorticity, S the Gaussian's lattice symbol
// prod_d sum_m exp(-m^2 h^2 / 2 sigma^2) cos(m k_d h) / sum_m exp(-m^2 h^2 / 2 sigma^2). Inside the sphere S >= 0.11
// (sigma = h); at the cube's corners (|k_d| near n/3 in all three directions) S ~ 5e-3, and the ~200-fold strengths
// of alternating sign cancel only while the particles sit on the lattice: once they move apart unevenly the lost
// cancellation feeds the lowest wavenumbers (at 10^3 particles, nu = 0, E(k = 1) rose five-fold in 0.01 time units).
void keep_resolved_modes(hit::Solver& solver) {
  const hit::SpectralGrid g = solver.grid();
  const Index stride = solver.layout().mode_stride;
  const double limit2 = double(g.n) * double(g.n) / 9;
  hit::Complex* u = solver.modes_for_update();
  for (Index m = 0; m < g.modes(); ++m)
    if (g.wavevector(m).norm2() >= limit2)
      for (int c = 0; c < 3; ++c) u[c * stride + m] = hit::Complex{};
}

// loom hit's modes of grid `from` on the finer grid `to` (the same Fourier coefficients, 1/n^3 being folded into
// them; the new modes zero): the spectral interpolation of the field onto the finer grid's points.
core::Array<hit::Complex> padded_modes(const core::Array<hit::Complex>& modes, hit::SpectralGrid from,
                                       hit::SpectralGrid to) {
  const hit::Complex* u = modes.read(core::Where::host);
  core::Array<hit::Complex> out(3 * std::size_t(to.modes()), hit::Complex{});
  hit::Complex* v = out.write(core::Where::host);
  const auto wrapped = [&](Index k) { return k < 0 ? k + to.n : k; };
  for (Index m = 0; m < from.modes(); ++m) {
    const hit::Wavevector k = from.wavevector(m);
    if (2 * std::abs(Index(k.y)) == from.n || 2 * std::abs(Index(k.z)) == from.n || 2 * Index(k.x) == from.n)
      continue;  // the Nyquist planes (empty under loom hit's truncations) have no one mode on the finer grid
    const Index to_m = Index(k.x) + to.half() * (wrapped(Index(k.y)) + to.n * wrapped(Index(k.z)));
    for (Index c = 0; c < 3; ++c) v[c * to.modes() + to_m] = u[c * from.modes() + m];
  }
  return out;
}

// loom hit's field on its grid of particles.n (the modes the particles resolve: the same seeded noise as loom
// hit's run on that grid), interpolated spectrally onto the particle lattice, and its vorticity by the spectral curl,
// per lattice node.
std::vector<Vec3d> hit_vorticity(const VortexConfig& c) {
  const hit::SpectralGrid field_grid{c.grid_n}, grid{c.lattice_n};
  core::Array<hit::Complex> modes;
  if (c.initial == InitialType::file) {
    hit::Solver reader(core::Backend::cpu, field_grid, hit::SolverOptions{c.nu});
    reader.set_velocity(hit::read_velocity_file(c.field.file, field_grid));
    modes = reader.modes().clone();
  } else {
    modes = hit::random_solenoidal(field_grid, hit::Dealiasing::two_thirds, c.field.spectrum, c.field.k_peak,
                                   c.field.energy, c.field.seed);
  }
  hit::Solver solver(core::Backend::cpu, grid, hit::SolverOptions{c.nu});
  solver.set_modes(grid.n == field_grid.n ? std::move(modes) : padded_modes(modes, field_grid, grid));
  keep_resolved_modes(solver);
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
  // the GPU's solve where the run's FMM is there (the host's is the reference the tests use)
  ReinitResult r = c.backend == core::Backend::cuda
                       ? periodic_particles_from_vorticity(c.backend, lattice, omega, c.reinit)
                       : particles_from_vorticity(lattice, omega, c.reinit);
  InitialState s;
  s.state.particles = std::move(r.particles);
  s.state.periodic = true;
  s.state.lattice_n = c.lattice_n;
  s.state.grid_n = c.grid_n;
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
    c.grid_n = n;
    c.lattice_n = c.refine * n;
  }
  if (c.initial == InitialType::checkpoint) {
    InitialState s;
    s.state = read_checkpoint(c.checkpoint);
    c.periodic = c.fmm.periodic = s.state.periodic;
    if (s.state.periodic) c.lattice_n = s.state.lattice_n, c.grid_n = s.state.grid_n;
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
