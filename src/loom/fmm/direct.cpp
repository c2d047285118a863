// Direct sums over every source, per target: the reference the FMM is checked against, so written from the
// formulas of direct.hpp on its own (plain double loops, components written out, erf and exp from the standard
// library) and sharing nothing with the FMM's pair kernels (pair_kernels.hpp), whose sign or factor errors it
// must be able to show.
#include "loom/fmm/direct.hpp"

#include <cmath>

#include "loom/core/error.hpp"

namespace loom::fmm {

namespace {

// The Gaussian cutoff's two factors at rho = |r| / sigma, relative to sigma^-3 and sigma^-5:
//   a = g(rho) / rho^3,                 g(rho) = erf(rho / sqrt2) - sqrt(2/pi) rho e^{-rho^2/2}
//   b = (3 g(rho) - rho g'(rho)) / rho^5, g'(rho) = sqrt(2/pi) rho^2 e^{-rho^2/2}
// Below rho = 1 from the Taylor series of g' integrated term by term (the closed forms cancel there):
//   a = sqrt(2/pi) sum_k (-1/2)^k rho^2k / (k! (2k+3)),  b = sqrt(2/pi) sum_k (-1/2)^k rho^2k / (k! (2k+5)).
struct Cutoff {
  double a, b;
};

Cutoff gaussian_cutoff_reference(double rho) {
  const double c = std::sqrt(2 / std::acos(-1)), x = rho * rho;
  if (rho < 1) {
    double a = 0, b = 0, term = c;  // c (-x/2)^k / k!
    for (int k = 0; k < 30; ++k) {
      a += term / (2 * k + 3);
      b += term / (2 * k + 5);
      term *= -x / (2 * (k + 1));
    }
    return {a, b};
  }
  const double e = std::exp(-x / 2), g = std::erf(rho / std::sqrt(2)) - c * rho * e;
  return {g / (x * rho), (3 * g - c * x * rho * e) / (x * x * rho)};
}

}  // namespace

// phi_i = sum_j q_j / |r|,  grad_i = -sum_j q_j r / |r|^3,  r = x_i - x_j.
void direct_laplace(std::span<const Vec3d> positions, std::span<const double> charges, std::span<const Index> targets,
                    std::vector<double>& potential, std::vector<Vec3d>& gradient) {
  LOOM_REQUIRE(positions.size() == charges.size(), "direct_laplace: one charge per body");
  const auto nt = static_cast<Index>(targets.size());
  const std::size_t n = positions.size();
  potential.assign(targets.size(), 0.0);
  gradient.assign(targets.size(), Vec3d{});
#pragma omp parallel for schedule(dynamic, 16)
  for (Index t = 0; t < nt; ++t) {
    const auto i = static_cast<std::size_t>(targets[static_cast<std::size_t>(t)]);
    double phi = 0, gx = 0, gy = 0, gz = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = positions[i].x - positions[j].x, dy = positions[i].y - positions[j].y,
                   dz = positions[i].z - positions[j].z;
      const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
      if (d == 0) continue;
      phi += charges[j] / d;
      const double f = charges[j] / (d * d * d);
      gx -= f * dx;
      gy -= f * dy;
      gz -= f * dz;
    }
    potential[static_cast<std::size_t>(t)] = phi;
    gradient[static_cast<std::size_t>(t)] = {gx, gy, gz};
  }
}

// u_i = (1/4pi) sum_j g/|r|^3 (alpha_j x r) and its derivative along alpha_i, the stretching
// s_i = (alpha_i . grad) u = (1/4pi) sum_j [g/|r|^3 (alpha_j x alpha_i) + F (alpha_i . r) (r x alpha_j)],
// F = -(1/|r|) d/d|r| (g/|r|^3) = (3g - rho g')/|r|^5.
void direct_biot_savart(std::span<const Vec3d> positions, std::span<const Vec3d> alpha, std::span<const double> sigma,
                        std::span<const Index> targets, std::vector<Vec3d>& velocity, std::vector<Vec3d>& stretching) {
  LOOM_REQUIRE(positions.size() == alpha.size() && positions.size() == sigma.size(),
               "direct_biot_savart: one strength and core radius per body");
  const auto nt = static_cast<Index>(targets.size());
  const std::size_t n = positions.size();
  velocity.assign(targets.size(), Vec3d{});
  stretching.assign(targets.size(), Vec3d{});
  const double four_pi = 4 * std::acos(-1);
#pragma omp parallel for schedule(dynamic, 16)
  for (Index t = 0; t < nt; ++t) {
    const auto i = static_cast<std::size_t>(targets[static_cast<std::size_t>(t)]);
    const double ax = alpha[i].x, ay = alpha[i].y, az = alpha[i].z;
    double u[3] = {0, 0, 0}, s[3] = {0, 0, 0};
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double rx = positions[i].x - positions[j].x, ry = positions[i].y - positions[j].y,
                   rz = positions[i].z - positions[j].z;
      const double d = std::sqrt(rx * rx + ry * ry + rz * rz);
      if (d == 0) continue;
      const double inv_sigma = 1 / sigma[j];
      const Cutoff c = gaussian_cutoff_reference(d * inv_sigma);
      const double k = c.a * inv_sigma * inv_sigma * inv_sigma;                          // g / |r|^3
      const double f = c.b * inv_sigma * inv_sigma * inv_sigma * inv_sigma * inv_sigma;  // F
      const double bx = alpha[j].x, by = alpha[j].y, bz = alpha[j].z;                    // alpha_j
      u[0] += k * (by * rz - bz * ry);
      u[1] += k * (bz * rx - bx * rz);
      u[2] += k * (bx * ry - by * rx);
      const double along = f * (ax * rx + ay * ry + az * rz);  // F (alpha_i . r)
      s[0] += k * (by * az - bz * ay) + along * (ry * bz - rz * by);
      s[1] += k * (bz * ax - bx * az) + along * (rz * bx - rx * bz);
      s[2] += k * (bx * ay - by * ax) + along * (rx * by - ry * bx);
    }
    velocity[static_cast<std::size_t>(t)] = {double(u[0] / four_pi), double(u[1] / four_pi), double(u[2] / four_pi)};
    stretching[static_cast<std::size_t>(t)] = {double(s[0] / four_pi), double(s[1] / four_pi), double(s[2] / four_pi)};
  }
}

// w_i = sum_j alpha_j (2 pi sigma_j^2)^{-3/2} e^{-|r|^2 / (2 sigma_j^2)}, the body itself included.
void direct_gaussian(std::span<const Vec3d> positions, std::span<const Vec3d> alpha, std::span<const double> sigma,
                     std::span<const Index> targets, std::vector<Vec3d>& w) {
  const auto nt = static_cast<Index>(targets.size());
  const std::size_t n = positions.size();
  w.assign(targets.size(), Vec3d{});
  const double two_pi = 2 * std::acos(-1.0);
#pragma omp parallel for schedule(dynamic, 16)
  for (Index t = 0; t < nt; ++t) {
    const auto i = static_cast<std::size_t>(targets[static_cast<std::size_t>(t)]);
    double wx = 0, wy = 0, wz = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const double dx = positions[i].x - positions[j].x, dy = positions[i].y - positions[j].y,
                   dz = positions[i].z - positions[j].z;
      const double s2 = sigma[j] * sigma[j];
      const double zeta = std::exp(-(dx * dx + dy * dy + dz * dz) / (2 * s2)) / std::pow(two_pi * s2, 1.5);
      wx += zeta * alpha[j].x;
      wy += zeta * alpha[j].y;
      wz += zeta * alpha[j].z;
    }
    w[static_cast<std::size_t>(t)] = {wx, wy, wz};
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
