// The energy and dissipation of the particles' own vorticity field in the periodic box, from its Fourier series
// rather than from a grid: an independent check of the statistics' grid measurement (statistics.hpp). The field
// omega(x) = sum_j alpha_j zeta_sigma_j(x - x_j) (periodised) has the coefficients (box side L, k = 2 pi m / L)
//   c(k) = V^-1 sum_j alpha_j e^{-i k.x_j} e^{-|k|^2 sigma_j^2 / 2},                                        (1)
// its velocity the Biot-Savart u = i k x c / |k|^2 of the solenoidal part c_perp = c - k (k.c) / |k|^2, so that
//   E = 1/2 <|u|^2> = 1/2 sum_k |c_perp|^2 / |k|^2,   epsilon = nu <|curl u|^2> = nu sum_k |c_perp|^2.        (2)
// The series is cut where the Gaussian factor of the smallest core falls below `tolerance`. O(particles modes):
// for the small fields of tests.
#pragma once

#include "loom/vortex/particles.hpp"

namespace loom::vortex {

struct FieldSums {
  double energy = 0;
  double enstrophy = 0;      // 1/2 <|curl u|^2> (loom hit's), of the solenoidal part
  double enstrophy_all = 0;  // 1/2 <|omega|^2> of the whole particle field (its divergence included)
  double dissipation = 0;    // 2 nu enstrophy
};

FieldSums particle_field_sums(const Particles& p, double period, double nu, double tolerance = 1e-10);

}  // namespace loom::vortex
