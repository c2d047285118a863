// The reinitialisation of the vortex method (notes/fmm-vortex.md): the particles' vorticity evaluated on a lattice
// by the Gaussian sum, new strengths on the lattice's nodes by the RBF interpolation (rbf.hpp), the core radius
// reset to overlap times the spacing. In free space the lattice covers the particles and keeps the nodes where
// |omega| exceeds a fraction of its largest value; in a periodic box it is the box's whole lattice.
#pragma once

#include "loom/core/backend.hpp"
#include "loom/vortex/lattice.hpp"
#include "loom/vortex/rbf.hpp"

namespace loom::vortex {

struct ReinitOptions {
  double overlap = 1;          // sigma / h of the new particles
  double tolerance = 1e-6;     // CG's relative residual
  int max_iterations = 500;
  double threshold = 1e-6;     // free space: nodes with |omega| <= threshold max |omega| get no particle
  double cutoff = default_gaussian_cutoff;
};

struct ReinitResult {
  Particles particles;
  CgResult cg;
};

// New particles on the nodes of `lattice` (see covering_lattice for free space) reproducing `omega` there.
ReinitResult particles_from_vorticity(const Lattice& lattice, const std::vector<Vec3d>& omega,
                                      const ReinitOptions& options);

// The same on the periodic box's whole lattice, the RBF solve on backend b (device_reinit.hpp): a start of 256^3
// particles solves in a second on the GPU, in minutes on the host.
ReinitResult periodic_particles_from_vorticity(core::Backend b, const Lattice& lattice, const std::vector<Vec3d>& omega,
                                               const ReinitOptions& options);

// The same for the vorticity of the particles `p` (free space: on a lattice of spacing h covering them).
ReinitResult reinitialise(const Particles& p, const Domain& domain, double h, Index periodic_n,
                          const ReinitOptions& options);

}  // namespace loom::vortex
