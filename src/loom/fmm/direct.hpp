// Direct summation, the reference every FMM result is checked against (O(N) per target, OpenMP over targets),
// and the accuracy metric of the paper's line of work: the relative L2 error
// eps = sqrt(sum |f - f_direct|^2 / sum |f_direct|^2) over a sample of targets.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "loom/core/host_device.hpp"
#include "loom/fmm/real.hpp"

namespace loom::fmm {

// Laplace potential and gradient at the bodies `targets` (indices into positions), excluding the body itself.
void direct_laplace(std::span<const Vec3d> positions, std::span<const double> charges, std::span<const Index> targets,
                    std::vector<double>& potential, std::vector<Vec3d>& gradient);

// Regularised Biot-Savart velocity and stretching (pair_kernels.hpp, with the 1/(4 pi)) at `targets`.
void direct_biot_savart(std::span<const Vec3d> positions, std::span<const Vec3d> alpha, std::span<const double> sigma,
                        std::span<const Index> targets, std::vector<Vec3d>& velocity, std::vector<Vec3d>& stretching);

// The Gaussian RBF sum at `targets`.
void direct_gaussian(std::span<const Vec3d> positions, std::span<const Vec3d> alpha, std::span<const double> sigma,
                     std::span<const Index> targets, std::vector<Vec3d>& w);

// `count` distinct indices in [0, n), spread evenly (all of them when count >= n).
std::vector<Index> sample_targets(Index n, Index count);

double relative_l2_error(std::span<const double> approx, std::span<const double> exact);
double relative_l2_error(std::span<const Vec3d> approx, std::span<const Vec3d> exact);

}  // namespace loom::fmm
