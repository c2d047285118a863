// The vortex method's particles (the FMM-vortex paper): position x, strength alpha (vorticity times volume) and
// core radius sigma of the Gaussian blob zeta_sigma, so that the vorticity is omega(x) = sum_j alpha_j
// zeta_sigma_j(x - x_j) (notes/fmm-vortex.md).
#pragma once

#include <vector>

#include "loom/fmm/real.hpp"

namespace loom::vortex {

using fmm::Vec3d;

struct Particles {
  std::vector<Vec3d> x, alpha;
  std::vector<double> sigma;
  Index size() const { return static_cast<Index>(x.size()); }
  void resize(Index n) {
    x.resize(static_cast<std::size_t>(n));
    alpha.resize(x.size());
    sigma.resize(x.size());
  }
};

// Where the particles live: free space, or the periodic cube [lower, lower + period)^3.
struct Domain {
  bool periodic = false;
  double lower = 0, period = 0;
};

// Puts every position back into the periodic cube (nothing in free space).
void wrap_positions(const Domain& domain, std::vector<Vec3d>& x);

}  // namespace loom::vortex
