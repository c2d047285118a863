// Ewald summation by its textbook formulas, sharing no code with the FMM: erfc in real space over 27 images,
// structure factors over a sphere of wave vectors (half of them, the other half being complex conjugates).
#include "loom/fmm/ewald.hpp"

#include <cmath>
#include <complex>
#include <numbers>

#include "loom/core/error.hpp"

namespace loom::fmm {

void ewald_laplace(std::span<const Vec3d> positions, std::span<const double> charges, double period,
                   std::span<const Index> targets, std::vector<double>& potential, std::vector<Vec3d>& gradient,
                   const EwaldOptions& options) {
  LOOM_REQUIRE(positions.size() == charges.size(), "ewald_laplace: one charge per body");
  LOOM_REQUIRE(period > 0 && options.kmax >= 1, "ewald_laplace: period and kmax must be positive");
  using std::numbers::pi;
  const double L = period, V = L * L * L, a = options.alpha_times_period / L;
  const int kmax = options.kmax;
  const auto n = static_cast<Index>(positions.size());
  const auto nt = static_cast<Index>(targets.size());
  potential.assign(targets.size(), 0.0);
  gradient.assign(targets.size(), Vec3d{});

  // Wave vectors m with |m| <= kmax in the half space (m_x > 0, or m_x = 0 and m_y > 0, or m_x = m_y = 0 and
  // m_z > 0), their weights (4 pi / V) e^{-k^2/4a^2} / k^2, doubled for the conjugate half, and S(k).
  struct Wave {
    Vec3d k;
    double weight;
    std::complex<double> s;
  };
  std::vector<Wave> waves;
  for (int mx = 0; mx <= kmax; ++mx)
    for (int my = -kmax; my <= kmax; ++my)
      for (int mz = -kmax; mz <= kmax; ++mz) {
        if (mx * mx + my * my + mz * mz > kmax * kmax) continue;
        if (mx == 0 && (my < 0 || (my == 0 && mz <= 0))) continue;
        const Vec3d k = (2 * pi / L) * Vec3d{double(mx), double(my), double(mz)};
        const double k2 = norm2(k);
        waves.push_back({k, 2 * (4 * pi / V) * std::exp(-k2 / (4 * a * a)) / k2, {}});
      }
  const auto nw = static_cast<Index>(waves.size());
#pragma omp parallel for schedule(dynamic, 16)
  for (Index w = 0; w < nw; ++w) {
    std::complex<double> s{};
    for (Index j = 0; j < n; ++j)
      s += charges[static_cast<std::size_t>(j)] *
           std::polar(1.0, dot(waves[static_cast<std::size_t>(w)].k, positions[static_cast<std::size_t>(j)]));
    waves[static_cast<std::size_t>(w)].s = s;
  }

  const double self = 2 * a / std::sqrt(pi);
#pragma omp parallel for schedule(dynamic, 4)
  for (Index t = 0; t < nt; ++t) {
    const auto i = static_cast<std::size_t>(targets[static_cast<std::size_t>(t)]);
    const Vec3d xi = positions[i];
    double phi = -self * charges[i];
    Vec3d grad{};
    for (int ix = -1; ix <= 1; ++ix)
      for (int iy = -1; iy <= 1; ++iy)
        for (int iz = -1; iz <= 1; ++iz)
          for (std::size_t j = 0; j < positions.size(); ++j) {
            if (j == i && ix == 0 && iy == 0 && iz == 0) continue;
            const Vec3d r = xi - positions[j] + L * Vec3d{double(ix), double(iy), double(iz)};
            const double d = std::sqrt(norm2(r));
            const double e = std::erfc(a * d) / d;
            phi += charges[j] * e;
            const double de = -(e + self * std::exp(-a * a * d * d)) / d;  // d/dr [erfc(a r)/r]
            grad += (charges[j] * de / d) * r;
          }
    for (const Wave& w : waves) {
      const std::complex<double> z = w.s * std::polar(1.0, -dot(w.k, xi));  // S(k) e^{-ik.x_i}
      phi += w.weight * z.real();
      grad += (w.weight * z.imag()) * w.k;
    }
    potential[static_cast<std::size_t>(t)] = phi;
    gradient[static_cast<std::size_t>(t)] = grad;
  }
}

}  // namespace loom::fmm
