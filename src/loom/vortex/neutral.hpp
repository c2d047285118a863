// The strengths the periodic Biot-Savart sums see (issue 21). A periodic velocity field has no mean vorticity
// (the integral of curl u over the box is a sum of surface terms that cancel), so a spectral code has no k = 0
// mode of omega; the particles' sum alpha, zero at the start, drifts under the classical stretching (whose sum
// over the particles is not conserved). The FMM's periodic sums (the 3^3 near images plus image levels in growing
// cubes, tinfoil: fmm.hpp) are Ewald's only for a neutral box: a net Q = sum alpha adds the field of a uniform
// vorticity Q / V filling the image cube, the rigid rotation u = Q x (x - c) / (3 V) about the box centre c, which
// is not periodic in the target: a particle that crosses a face has its velocity jump by Q x L e / (3 V), and a
// tree that keeps a crossed particle at its image beside its leaf (the re-fit) changes the sums. The velocity and
// stretching are therefore evaluated from alpha_i - Q / N: a neutral box whose sums do not depend on which image
// represents a particle. This differs from the velocity of the k != 0 part of the particles' vorticity (Ewald with
// a uniform background) only by the velocity of (Q / N)(sum_j zeta_j - N / V), zero for particles on the lattice.
#pragma once

#include <span>
#include <vector>

#include "loom/core/backend.hpp"
#include "loom/core/host_device.hpp"
#include "loom/fmm/real.hpp"

namespace loom::vortex {

// The mean strength (1 / N) sum_i alpha_i.
fmm::Vec3d mean_strength(std::span<const fmm::Vec3d> alpha);

// out_i = alpha_i - mean, for i < alpha.size() (out is resized; it may not alias alpha).
void subtract_mean(std::span<const fmm::Vec3d> alpha, fmm::Vec3d mean, std::vector<fmm::Vec3d>& out);

// The same where the particles live (alpha and out: n values each on backend b's side; the device stepper's).
void subtract_mean_on(core::Backend b, Index n, const fmm::Vec3d* alpha, fmm::Vec3d* out);

}  // namespace loom::vortex
