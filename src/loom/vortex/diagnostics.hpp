// Invariants and positions of a particle field in free space (Saffman, "Vortex Dynamics", sec. 3.2 and 3.3):
// the total vorticity sum alpha (zero for a closed ring, conserved), the linear impulse I = 1/2 sum x x alpha
// (conserved in free space without forcing), and the vorticity centroid sum |alpha| x / sum |alpha|, whose motion
// gives a ring's speed.
#pragma once

#include "loom/vortex/particles.hpp"

namespace loom::vortex {

struct Invariants {
  Vec3d total_vorticity, impulse, centroid;
  double strength = 0;  // sum |alpha|, the scale the total vorticity is compared with
};

Invariants invariants(const Particles& p);

}  // namespace loom::vortex
