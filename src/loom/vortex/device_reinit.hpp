// The periodic reinitialisation where the particles live (issue 21): lattice.hpp's Gaussian sums and rbf.hpp's
// conjugate gradients (the same formulas, all nodes of the box's lattice) written once for both backends with
// core::parallel_for, on arrays of the backend's side: with the CUDA backend the particles are reinitialised on
// the GPU without crossing the bus. The host forms in lattice.cpp and rbf.cpp are the reference the tests use.
#pragma once

#include "loom/core/backend.hpp"
#include "loom/vortex/lattice.hpp"
#include "loom/vortex/rbf.hpp"

namespace loom::vortex {

// The longest run of nodes a Gaussian cut at cutoff sigma may touch per direction (2 reach + 1).
inline constexpr Index max_axis_nodes = 40;

// omega at every node of the periodic lattice `l` from np particles (each within cutoff sigma_j per direction,
// nearest images); the adds of different particles to one node meet in atomics (order: any). Requires
// 2 cutoff sigma_j / h + 1 < max_axis_nodes.
void lattice_vorticity(core::Backend b, const Lattice& l, Index np, const Vec3d* x, const Vec3d* alpha,
                       const double* sigma, double cutoff, Vec3d* omega);

// out_i = sum_j in_j zeta_sigma(node_i - node_j) over the periodic lattice's nodes: three passes of 1D sums
// (gaussian_lattice_sum's order of terms). work: l.size() values.
void lattice_gaussian_sum(core::Backend b, const Lattice& l, double sigma, double cutoff, const Vec3d* in,
                          Vec3d* out, Vec3d* work);

// solve_rbf on every node of the periodic lattice: alpha the first guess in, the solution out.
CgResult solve_rbf_on_backend(core::Backend b, const Lattice& l, double sigma, double cutoff, const Vec3d* omega,
                              Vec3d* alpha, double tolerance, int max_iterations);

}  // namespace loom::vortex
