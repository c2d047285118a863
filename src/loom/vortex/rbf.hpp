// The radial-basis-function interpolation of the reinitialisation (the paper's ref. [1]): strengths alpha on the
// lattice nodes of a set S such that the particle field reproduces the vorticity there,
//   sum_{j in S} alpha_j zeta_sigma(x_i - x_j) = omega(x_i),  i in S,
// solved by conjugate gradients (the matrix is symmetric positive definite: the Gaussian is a positive definite
// function), the matrix-vector product the Gaussian lattice sum of lattice.hpp.
#pragma once

#include <vector>

#include "loom/vortex/lattice.hpp"

namespace loom::vortex {

struct CgResult {
  int iterations = 0;
  double residual = 0;  // |omega - A alpha| / |omega| over S at the end
  bool converged = false;
};

// `keep`: 1 for the nodes of S (all of them when empty). alpha: the first guess in, the solution out (zero
// outside S). Stops at residual <= tolerance or after max_iterations.
CgResult solve_rbf(const Lattice& lattice, double sigma, const std::vector<char>& keep,
                   const std::vector<Vec3d>& omega, std::vector<Vec3d>& alpha, double tolerance, int max_iterations,
                   double cutoff = default_gaussian_cutoff);

}  // namespace loom::vortex
