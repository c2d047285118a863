// A periodic particle field as between two reinitialisations, for the tests of the reinitialisation's forms:
// Taylor-Green's vorticity on the lattice (strengths omega h^3, sigma = h) moved off it by a smooth map, the cores
// spread by up to 25%.
#pragma once

#include <cmath>
#include <numbers>

#include "loom/fmm/fmm.hpp"
#include "loom/vortex/initial.hpp"
#include "loom/vortex/lattice.hpp"

namespace loom::vortex::test {

inline const Domain box{true, 0, 2 * std::numbers::pi};

inline Particles moved_taylor_green(Index n) {
  const Lattice l = periodic_lattice(box, n);
  Particles p;
  for (Index m = 0; m < l.size(); ++m) {
    const Vec3d x = l.node(m);
    p.x.push_back(x + 0.3 * l.h * Vec3d{std::sin(x.y + 1), std::sin(2 * x.z), std::sin(x.x - 2)});
    p.alpha.push_back((l.h * l.h * l.h) * taylor_green_vorticity(1, x));
    p.sigma.push_back(l.h * (1 + 0.25 * std::pow(std::sin(x.x + x.y + x.z), 2)));
  }
  wrap_positions(box, p.x);
  return p;
}

inline fmm::Options periodic_fmm(core::Backend b) {
  fmm::Options o;
  o.backend = b;
  o.order = 6;
  o.image_levels = 1;
  o.periodic = true;
  o.period = box.period;
  o.box_lower = {0, 0, 0};
  return o;
}

}  // namespace loom::vortex::test
