// loom vortex's initial particles: the Gaussian-core ring in free space, or in loom hit's periodic box the
// vorticity of Taylor-Green (its curl written out), of loom hit's seeded random field or of a loom hit field
// snapshot (the spectral curl of its velocity) on the particle lattice, turned into strengths by the RBF
// interpolation (reinit.hpp); or a checkpoint.
#pragma once

#include "loom/vortex/checkpoint.hpp"
#include "loom/vortex/config.hpp"
#include "loom/vortex/reinit.hpp"

namespace loom::vortex {

struct InitialState {
  Checkpoint state;  // the particles, their time and step, AB2's previous rates
  CgResult cg;       // the RBF solve of a lattice start
};

// Throws UsageError for input that only the initial field can refuse (a file's grid, a ring's core). Resolves
// config.periodic (and the FMM's box) from a checkpoint, and particles.n from a file's grid.
InitialState initial_state(VortexConfig& config);

// The vorticity of u = A (sin x cos y cos z, -cos x sin y cos z, 0): A (-cos x sin y sin z, -sin x cos y sin z,
// 2 sin x sin y cos z).
Vec3d taylor_green_vorticity(double amplitude, Vec3d x);

}  // namespace loom::vortex
