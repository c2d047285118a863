// Bloch (plane-wave) analysis of the DEC Laplacian: for psi_i = u_i exp(i k . x_i) the structure's m_s cells
// give an m_s x m_s Hermitian matrix M(k) = V^-1/2 A(k) V^-1/2 (V = diag |B_i|), whose eigenvalues are the
// discrete Laplacian's. The exact Laplacian has -|k|^2; the branch that tends to 0 with k (the "acoustic"
// one) shows the grid's dispersion error and, over directions of k, its anisotropy —
// why BCC and C15 are the most isotropic grids (section 2 of the DEC-GPE paper, its ref. [32]).
#pragma once

#include <functional>
#include <vector>

#include "loom/dec/hermitian_eigen.hpp"
#include "loom/dec/replicable_structure.hpp"
#include "loom/dec/vec3.hpp"

namespace loom::dec {

// A(k)_ij = sum over faces F of B_i with neighbour j of |F|/|E*| exp(i k . (x_j + offset * size - x_i)),
// minus sum_F |F|/|E*| on the diagonal; then scaled by (|B_i| |B_j|)^-1/2.
HermitianMatrix bloch_matrix(const ReplicableStructure& structure, Vec3 k);

// The discrete counterpart of -|k|^2: the eigenvalue of M(k) nearest the Rayleigh quotient of the sampled plane
// wave exp(i k . x_i). (Not simply the largest: a structure holding several primitive cells folds the acoustic
// branch, and beyond the structure's Brillouin zone a folded copy, k - G, is the largest.)
double acoustic_eigenvalue(const ReplicableStructure& structure, Vec3 k);
// q^H M q / q^H q for the plane wave q_i = |B_i|^1/2 (in the gauge of bloch_matrix): -|k|^2 + O(h^2) |k|^4.
double plane_wave_rayleigh_quotient(const ReplicableStructure& structure, const HermitianMatrix& m);

// `count` unit vectors spread evenly over the sphere (a Fibonacci lattice); deterministic.
std::vector<Vec3> sphere_directions(int count);

struct DispersionSample {
  Vec3 direction;     // unit vector of k
  double eigenvalue;  // acoustic eigenvalue at k = |k| direction
  double ratio;       // eigenvalue / (-|k|^2): 1 is exact
};

struct DispersionReport {
  double k_edge = 0;  // |k| times the mean dual edge length (the grid's resolution of the wave)
  double k = 0;       // |k| at the structure's scale
  double mean_dual_edge = 0;
  std::vector<DispersionSample> samples;
  double ratio_min = 0, ratio_max = 0, ratio_mean = 0;
  // The spread of the ratio over directions: 0 for an isotropic grid.
  double anisotropy() const { return ratio_max - ratio_min; }
  bool stopped() const { return samples.empty(); }  // ended by a stop request before every direction was done
};

// Samples `directions` directions at |k| = k_edge / (mean dual edge); OpenMP over directions. `stop`, when given,
// is asked between blocks of directions; once it says true the sweep ends with no samples (stopped()).
DispersionReport measure_dispersion(const ReplicableStructure& structure, double k_edge, int directions,
                                    const std::function<bool()>& stop = {});

}  // namespace loom::dec
