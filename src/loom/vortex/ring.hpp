// A vortex ring with a Gaussian core (the initial condition): circulation Gamma, radius R and core a of
// omega = Gamma / (pi a^2) exp(-s^2 / a^2), s the distance from the core's centre line, in the plane z = 0 with
// its axis along z (it moves towards +z for Gamma > 0), and Saffman's speed of such a ring when thin.
#pragma once

#include "loom/vortex/particles.hpp"

namespace loom::vortex {

struct RingShape {
  double circulation = 1, radius = 1, core = 0.1;
};

// Particles on a torus-conforming grid: a square grid of spacing h in the meridional plane (offsets up to 3.5
// cores from the centre line) times 2 pi R / h stations around the ring, volume h^2 rho dphi each, sigma = overlap
// h. The blobs widen a sampled Gaussian core a_s to sqrt(a_s^2 + 2 sigma^2), so the samples take a_s^2 = a^2 -
// 2 sigma^2 and the particle field has core a (sigma < a / sqrt 2; UsageError naming ring.spacing otherwise). The
// strengths are scaled so that each cross-section carries exactly Gamma.
Particles vortex_ring(const RingShape& ring, double spacing, double overlap);
// a_s^2 = a^2 - 2 sigma^2 of a ring vortex_ring can make; UsageError naming ring.spacing or ring.core otherwise.
double sampled_core_squared(const RingShape& ring, double spacing, double overlap);
// How many particles vortex_ring makes, counted before any exists (the memory estimate's): the square of grid
// points around the cross-section's disc of core_extent a_s times the stations; an upper bound (the disc is
// inside the square). The ring's checks come first (sampled_core_squared).
double ring_particle_count(const RingShape& ring, double spacing, double overlap);

// Saffman's thin-ring speed U = Gamma / (4 pi R) (ln(8 R / a) - beta) (Saffman, "Vortex Dynamics", 1992, sec.
// 11.3: U = Gamma/(4 pi R) [ln 8R - 1/2 + lim_r ((4 pi^2/Gamma^2) int_0^r s v^2 ds - ln r)]), which for the
// Gaussian core's v = Gamma/(2 pi s) (1 - e^{-s^2/a^2}) gives beta = (1 + ln 2 - gamma_Euler) / 2 = 0.5580.
double saffman_ring_speed(const RingShape& ring);

}  // namespace loom::vortex
