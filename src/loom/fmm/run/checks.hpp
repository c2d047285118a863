// The FMM's results checked against reference sums written apart from it, on a sample of targets: direct
// summation (direct.hpp) or, for periodic Laplace runs, Ewald's sum (ewald.hpp); the measure is the relative
// L2 error. Used by `loom fmm` (run.hpp) and `loom bench fmm`.
#pragma once

#include <span>
#include <vector>

#include "loom/fmm/fmm.hpp"

namespace loom::fmm {

constexpr Index max_ewald_bodies = 20000;  // the Ewald reference costs O(N) per wave vector

// The direct-sum interactions a reference may take by default: 2e9 Laplace pairs, 2e8 of the costlier
// Biot-Savart ones.
Index default_reference_pairs(Kernel kernel);
// Targets to sample of n bodies: `samples`, cut to fit `pairs` direct interactions but no fewer than 10.
std::vector<Index> reference_targets(Index n, Index samples, Index pairs);

struct Reference {
  std::vector<Index> targets;
  std::vector<double> potential;
  std::vector<Vec3d> gradient, velocity, stretching;
};

// Potential and gradient at the targets: Ewald's sum over the periodic box when options.periodic, else the
// direct sum.
Reference laplace_reference(std::span<const Vec3d> positions, std::span<const double> charges,
                            std::vector<Index> targets, const Options& options);
Reference biot_savart_reference(std::span<const Vec3d> positions, std::span<const Vec3d> alpha,
                                std::span<const double> sigma, std::vector<Index> targets);

// Relative L2 errors at the reference's targets (0 with no targets).
struct LaplaceErrors {
  double potential = 0, gradient = 0;
};
struct BiotSavartErrors {
  double velocity = 0, stretching = 0;
};
LaplaceErrors errors(const LaplaceResult& result, const Reference& reference);
BiotSavartErrors errors(const BiotSavartResult& result, const Reference& reference);

}  // namespace loom::fmm
