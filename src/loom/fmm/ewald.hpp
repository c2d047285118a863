// The Ewald sum for the periodic Laplace problem, the reference of the periodic FMM (the paper's periodic
// section): a neutral set of charges in a cubic box of side L, every image included, tinfoil (conducting)
// boundary. phi_i = sum_j sum_n' q_j erfc(a r)/r + (4 pi/V) sum_{k != 0} e^{-k^2/(4a^2)}/k^2 Re[S(k) e^{-ik.x_i}]
//                 - 2a/sqrt(pi) q_i,     S(k) = sum_j q_j e^{ik.x_j},  r = |x_i - x_j + nL|  (n' skips j = i, n = 0)
// and its gradient. Real-space images n in {-1, 0, 1}^3 and wave vectors |m| <= kmax (k = 2 pi m / L); with
// a L = 6 and kmax = 12 (the defaults) both truncations are below 1e-15 relative.
#pragma once

#include <span>
#include <vector>

#include "loom/core/host_device.hpp"
#include "loom/fmm/real.hpp"

namespace loom::fmm {

struct EwaldOptions {
  double alpha_times_period = 6.0;  // splitting parameter a, in units of 1/L
  int kmax = 12;                    // largest |m| of the wave vectors 2 pi m / L
};

// positions must lie in one box of side `period` (any origin); the charges should sum to zero.
void ewald_laplace(std::span<const Vec3d> positions, std::span<const double> charges, double period,
                   std::span<const Index> targets, std::vector<double>& potential, std::vector<Vec3d>& gradient,
                   const EwaldOptions& options = {});

}  // namespace loom::fmm
