// Direct sums in double precision over every source, per target.
#include "loom/fmm/direct.hpp"

#include <cmath>

#include "loom/core/error.hpp"
#include "loom/fmm/pair_kernels.hpp"

namespace loom::fmm {

void direct_laplace(std::span<const Vec3d> positions, std::span<const double> charges, std::span<const Index> targets,
                    std::vector<double>& potential, std::vector<Vec3d>& gradient) {
  LOOM_REQUIRE(positions.size() == charges.size(), "direct_laplace: one charge per body");
  const auto nt = static_cast<Index>(targets.size());
  const auto n = static_cast<Index>(positions.size());
  potential.assign(targets.size(), 0.0);
  gradient.assign(targets.size(), Vec3d{});
#pragma omp parallel for schedule(dynamic, 16)
  for (Index t = 0; t < nt; ++t) {
    const Index i = targets[static_cast<std::size_t>(t)];
    const Vec3d xi = positions[static_cast<std::size_t>(i)];
    double phi = 0;
    Vec3d g{};
    for (Index j = 0; j < n; ++j)
      if (j != i)
        laplace_pair(xi - positions[static_cast<std::size_t>(j)], charges[static_cast<std::size_t>(j)], phi, g);
    potential[static_cast<std::size_t>(t)] = phi;
    gradient[static_cast<std::size_t>(t)] = g;
  }
}

void direct_biot_savart(std::span<const Vec3d> positions, std::span<const Vec3d> alpha, std::span<const double> sigma,
                        std::span<const Index> targets, std::vector<Vec3d>& velocity, std::vector<Vec3d>& stretching) {
  LOOM_REQUIRE(positions.size() == alpha.size() && positions.size() == sigma.size(),
               "direct_biot_savart: one strength and core radius per body");
  const auto nt = static_cast<Index>(targets.size());
  const auto n = static_cast<Index>(positions.size());
  velocity.assign(targets.size(), Vec3d{});
  stretching.assign(targets.size(), Vec3d{});
  constexpr double inv_4pi = 0.079577471545947667884;
#pragma omp parallel for schedule(dynamic, 16)
  for (Index t = 0; t < nt; ++t) {
    const auto i = static_cast<std::size_t>(targets[static_cast<std::size_t>(t)]);
    Vec3d u{}, s{};
    for (Index j = 0; j < n; ++j) {
      const auto k = static_cast<std::size_t>(j);
      if (k != i) biot_savart_pair(positions[i] - positions[k], alpha[k], sigma[k], alpha[i], u, s);
    }
    velocity[static_cast<std::size_t>(t)] = inv_4pi * u;
    stretching[static_cast<std::size_t>(t)] = inv_4pi * s;
  }
}

void direct_gaussian(std::span<const Vec3d> positions, std::span<const Vec3d> alpha, std::span<const double> sigma,
                     std::span<const Index> targets, std::vector<Vec3d>& w) {
  const auto nt = static_cast<Index>(targets.size());
  const auto n = static_cast<Index>(positions.size());
  w.assign(targets.size(), Vec3d{});
#pragma omp parallel for schedule(dynamic, 16)
  for (Index t = 0; t < nt; ++t) {
    const auto i = static_cast<std::size_t>(targets[static_cast<std::size_t>(t)]);
    Vec3d sum{};
    for (Index j = 0; j < n; ++j) {
      const auto k = static_cast<std::size_t>(j);
      gaussian_pair(positions[i] - positions[k], alpha[k], sigma[k], sum);
    }
    w[static_cast<std::size_t>(t)] = sum;
  }
}

std::vector<Index> sample_targets(Index n, Index count) {
  std::vector<Index> out;
  if (count >= n) {
    for (Index i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  for (Index k = 0; k < count; ++k) out.push_back(k * n / count);
  return out;
}

double relative_l2_error(std::span<const double> approx, std::span<const double> exact) {
  LOOM_REQUIRE(approx.size() == exact.size(), "relative_l2_error: sizes differ");
  double num = 0, den = 0;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    num += (approx[i] - exact[i]) * (approx[i] - exact[i]);
    den += exact[i] * exact[i];
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

double relative_l2_error(std::span<const Vec3d> approx, std::span<const Vec3d> exact) {
  LOOM_REQUIRE(approx.size() == exact.size(), "relative_l2_error: sizes differ");
  double num = 0, den = 0;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    num += norm2(approx[i] - exact[i]);
    den += norm2(exact[i]);
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

}  // namespace loom::fmm
