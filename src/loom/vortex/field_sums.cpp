#include "loom/vortex/field_sums.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

namespace loom::vortex {
namespace {

using Complex = std::complex<double>;

// e^{-i k x} e^{-k^2 sigma^2 / 2} for k = kappa m, m = -M..M, of one coordinate of every particle: (1)'s factors.
std::vector<Complex> axis_factors(const Particles& p, int d, double kappa, Index M) {
  const auto width = static_cast<std::size_t>(2 * M + 1);
  std::vector<Complex> f(p.x.size() * width);
  for (std::size_t j = 0; j < p.x.size(); ++j)
    for (Index m = -M; m <= M; ++m) {
      const double k = kappa * double(m);
      f[j * width + std::size_t(m + M)] =
          std::polar(std::exp(-0.5 * k * k * p.sigma[j] * p.sigma[j]), -k * p.x[j][d]);
    }
  return f;
}

}  // namespace

FieldSums particle_field_sums(const Particles& p, double period, double nu, double tolerance) {
  const double kappa = 2 * M_PI / period, volume = period * period * period;
  const double sigma_min = *std::min_element(p.sigma.begin(), p.sigma.end());
  const auto M = Index(std::ceil(std::sqrt(2 * std::log(1 / tolerance)) / (kappa * sigma_min)));
  const auto width = static_cast<std::size_t>(2 * M + 1);
  const std::vector<Complex> fx = axis_factors(p, 0, kappa, M), fy = axis_factors(p, 1, kappa, M),
                             fz = axis_factors(p, 2, kappa, M);
  const Index modes = Index(width * width * width);
  double energy = 0, perp2 = 0, all2 = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : energy, perp2, all2)
  for (Index q = 0; q < modes; ++q) {
    const Index a = q % Index(width), b = (q / Index(width)) % Index(width), e = q / Index(width * width);
    const Vec3d k{kappa * double(a - M), kappa * double(b - M), kappa * double(e - M)};
    const double k2 = fmm::norm2(k);
    if (k2 == 0) continue;  // the mean vorticity drives no velocity
    Complex c[3] = {};
    for (std::size_t j = 0; j < p.x.size(); ++j) {
      const Complex f = fx[j * width + std::size_t(a)] * fy[j * width + std::size_t(b)] * fz[j * width + std::size_t(e)];
      for (int d = 0; d < 3; ++d) c[d] += p.alpha[j][d] * f;
    }
    Complex kc = 0;
    for (int d = 0; d < 3; ++d) c[d] /= volume, kc += k[d] * c[d];
    double perp = 0, whole = 0;
    for (int d = 0; d < 3; ++d) perp += std::norm(c[d] - k[d] * kc / k2), whole += std::norm(c[d]);
    energy += 0.5 * perp / k2;
    perp2 += perp;
    all2 += whole;
  }
  FieldSums s;
  s.energy = energy;
  s.enstrophy = 0.5 * perp2;
  s.enstrophy_all = 0.5 * all2;
  s.dissipation = 2 * nu * s.enstrophy;
  return s;
}

}  // namespace loom::vortex
