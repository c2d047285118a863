// The lattice of the vortex method's reinitialisation (notes/fmm-vortex.md): nodes origin + h (i, j, k), x fastest
// (index i + n_x (j + n_y k), the layout of loom hit's grid), periodic over the whole box or a patch of free space
// covering the particles; and the Gaussian sums on it, omega(x) = sum_j alpha_j zeta_sigma_j(x - x_j),
// zeta_sigma(r) = (2 pi sigma^2)^{-3/2} e^{-|r|^2 / (2 sigma^2)}, which factorises into three 1D Gaussians, each
// cut at cutoff sigma (a cube around each source; e^{-cutoff^2 / 2} = 3.7e-6 at the default 5).
#pragma once

#include <array>
#include <vector>

#include "loom/vortex/particles.hpp"

namespace loom::vortex {

inline constexpr double default_gaussian_cutoff = 5;

struct Lattice {
  Vec3d origin;
  double h = 1;
  std::array<Index, 3> n{};
  bool periodic = false;
  Index size() const { return n[0] * n[1] * n[2]; }
  Vec3d node(Index m) const {
    const Index i = m % n[0], j = (m / n[0]) % n[1], k = m / (n[0] * n[1]);
    return {origin.x + h * double(i), origin.y + h * double(j), origin.z + h * double(k)};
  }
};

// The periodic box's lattice of n^3 nodes lower + (period / n) (i, j, k).
Lattice periodic_lattice(const Domain& domain, Index n);
// A free-space lattice of spacing h, its nodes at integer multiples of h, covering the particles with `margin`.
Lattice covering_lattice(const Particles& p, double h, double margin);

// omega at every node from the particles (each within cutoff sigma_j per direction; nearest images if periodic).
std::vector<Vec3d> vorticity_on_lattice(const Lattice& lattice, const Particles& p,
                                        double cutoff = default_gaussian_cutoff);

// out_i = sum_j in_j zeta_sigma(node_i - node_j) over the nodes, one sigma: three passes of 1D sums.
void gaussian_lattice_sum(const Lattice& lattice, double sigma, double cutoff, const std::vector<Vec3d>& in,
                          std::vector<Vec3d>& out);

}  // namespace loom::vortex
