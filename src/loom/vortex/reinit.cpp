#include "loom/vortex/reinit.hpp"

#include <algorithm>
#include <cmath>

#include "loom/core/array.hpp"
#include "loom/core/error.hpp"
#include "loom/vortex/device_reinit.hpp"

namespace loom::vortex {

ReinitResult particles_from_vorticity(const Lattice& lattice, const std::vector<Vec3d>& omega,
                                      const ReinitOptions& options) {
  const double sigma = options.overlap * lattice.h, volume = lattice.h * lattice.h * lattice.h;
  std::vector<char> keep;
  if (!lattice.periodic) {
    double largest = 0;
    for (const Vec3d& w : omega) largest = std::max(largest, fmm::norm2(w));
    const double floor2 = options.threshold * options.threshold * largest;
    keep.resize(omega.size());
    for (std::size_t i = 0; i < omega.size(); ++i) keep[i] = fmm::norm2(omega[i]) > floor2;
  }
  std::vector<Vec3d> alpha(omega.size());
  for (std::size_t i = 0; i < omega.size(); ++i) alpha[i] = volume * omega[i];  // the first guess omega dV
  ReinitResult out;
  out.cg = solve_rbf(lattice, sigma, keep, omega, alpha, options.tolerance, options.max_iterations, options.cutoff);
  for (Index m = 0; m < lattice.size(); ++m) {
    const auto i = static_cast<std::size_t>(m);
    if (!keep.empty() && !keep[i]) continue;
    out.particles.x.push_back(lattice.node(m));
    out.particles.alpha.push_back(alpha[i]);
    out.particles.sigma.push_back(sigma);
  }
  return out;
}

ReinitResult periodic_particles_from_vorticity(core::Backend b, const Lattice& lattice, const std::vector<Vec3d>& omega,
                                               const ReinitOptions& options) {
  LOOM_REQUIRE(lattice.periodic && omega.size() == std::size_t(lattice.size()),
               "vortex::periodic_particles_from_vorticity: omega on every node of a periodic lattice");
  const double sigma = options.overlap * lattice.h, volume = lattice.h * lattice.h * lattice.h;
  core::Array<Vec3d> w(omega.size()), a(omega.size());
  Vec3d *wh = w.write(core::Where::host), *ah = a.write(core::Where::host);
  for (std::size_t i = 0; i < omega.size(); ++i) wh[i] = omega[i], ah[i] = volume * omega[i];  // the first guess
  const core::Where where = core::where(b);
  ReinitResult out;
  out.cg = solve_rbf_on_backend(b, lattice, sigma, options.cutoff, w.read(where), a.read_write(where),
                                options.tolerance, options.max_iterations);
  const Vec3d* alpha = a.read(core::Where::host);
  out.particles.resize(lattice.size());
  for (Index m = 0; m < lattice.size(); ++m) {
    const auto i = static_cast<std::size_t>(m);
    out.particles.x[i] = lattice.node(m), out.particles.alpha[i] = alpha[i], out.particles.sigma[i] = sigma;
  }
  return out;
}

ReinitResult reinitialise(const Particles& p, const Domain& domain, double h, Index periodic_n,
                          const ReinitOptions& options) {
  double sigma_max = 0;
  for (double s : p.sigma) sigma_max = std::max(sigma_max, s);
  const Lattice lattice = domain.periodic ? periodic_lattice(domain, periodic_n)
                                          : covering_lattice(p, h, options.cutoff * sigma_max + h);
  return particles_from_vorticity(lattice, vorticity_on_lattice(lattice, p, options.cutoff), options);
}

}  // namespace loom::vortex
