#include "loom/hit/observables.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "loom/core/parallel_for.hpp"

namespace loom::hit {

SpectralSums spectral_sums(const SlabLayout& L, const Complex* u) {
  const SpectralGrid g = L.grid;
  const Index M = L.mode_stride;
  SpectralSums s;
  s.spectrum.assign(std::size_t(g.n), 0.0);  // |k| < sqrt(3) n / 2 < n - 1/2
  for (Index m = 0; m < L.modes(); ++m) {
    const Wavevector k = L.wavevector(m);
    const double e = g.hermitian_weight(m) * 0.5 * (norm2(u[m]) + norm2(u[M + m]) + norm2(u[2 * M + m]));
    if (e == 0) continue;
    const double k2 = k.norm2(), kk = std::sqrt(k2);
    s.spectrum[std::size_t(std::floor(kk + 0.5))] += e;
    s.energy += e;
    s.enstrophy += k2 * e;
    if (k2 > 0) s.energy_over_k += e / kk;
  }
  return s;
}

namespace {

struct DerivativeMoments {
  double skewness = 0, flatness = 0, divergence_max = 0;
};

// The sums over ranks of the spectral sums, added in rank order (the same bits on every rank).
void sum_over_ranks(const Solver& solver, SpectralSums& s) {
  if (!solver.distributed()) return;
  std::vector<double> all = s.spectrum;
  all.insert(all.end(), {s.energy, s.enstrophy, s.energy_over_k});
  solver.communicator()->sum_in_rank_order(all);
  s.energy = all[all.size() - 3], s.enstrophy = all[all.size() - 2], s.energy_over_k = all.back();
  std::copy(all.begin(), all.begin() + std::ptrdiff_t(s.spectrum.size()), s.spectrum.begin());
}

// du_i/dx_i for i = x, y, z on the grid (spectral derivatives), their moments, and max |div u|, over all ranks.
DerivativeMoments derivative_moments(Solver& solver) {
  const auto backend = solver.backend();
  const auto where = core::where(backend);
  const SlabLayout L = solver.layout();
  const Index M = L.mode_stride, N = L.point_stride, stored = L.points();
  const double points = double(L.grid.points());
  const Complex* u = solver.modes().read(where);
  Complex* s = solver.spectral_work().write(where);
  core::parallel_for(backend, L.modes(), [=] LOOM_HOST_DEVICE(Index m) {
    const Wavevector k = L.wavevector(m);
    s[m] = core::times_i(k.x * u[m]);
    s[M + m] = core::times_i(k.y * u[M + m]);
    s[2 * M + m] = core::times_i(k.z * u[2 * M + m]);
  });
  double* d = solver.physical_work().write(where);
  solver.transforms().inverse(s, d, 3);
  DerivativeMoments out;
  int counted = 0;  // components with gradients (Taylor-Green's w has none)
  for (Index c = 0; c < 3; ++c) {
    const double* dc = d + c * N;
    double moment[5] = {};  // <d^p> for p = 2, 3, 4 (a row's padding counts 0)
    for (int p = 2; p <= 4; ++p)
      moment[p] = solver.sum_over_ranks(core::parallel_sum(backend, stored, [=] LOOM_HOST_DEVICE(Index i) {
                    const double v = L.is_point(i) ? dc[i] : 0.0;
                    const double q = v * v;
                    return p == 2 ? q : p == 3 ? q * v : q * q;
                  })) / points;
    const double m2 = moment[2], m3 = moment[3], m4 = moment[4];
    if (m2 > 0) {
      out.skewness += m3 / std::pow(m2, 1.5);
      out.flatness += m4 / (m2 * m2);
      ++counted;
    }
  }
  if (counted > 0) out.skewness /= counted, out.flatness /= counted;
  out.divergence_max = solver.max_over_ranks(core::parallel_max(backend, stored, [=] LOOM_HOST_DEVICE(Index i) {
    return L.is_point(i) ? std::fabs(d[i] + d[N + i] + d[2 * N + i]) : 0.0;
  }));
  return out;
}

}  // namespace

Statistics measure(Solver& solver) {
  const SpectralGrid g = solver.grid();
  const double nu = solver.options().nu;
  SpectralSums sums = spectral_sums(solver.layout(), solver.modes().read(core::Where::host));
  sum_over_ranks(solver, sums);
  Statistics s;
  s.t = solver.time();
  s.energy = sums.energy;
  s.enstrophy = sums.enstrophy;
  s.spectrum = sums.spectrum;
  s.dissipation = 2 * nu * s.enstrophy;
  s.u_rms = std::sqrt(2 * s.energy / 3);
  // lambda = sqrt(15 nu u'^2 / epsilon) = sqrt(15 u'^2 / (2 Omega)) (epsilon = 2 nu Omega): finite for nu = 0 too,
  // where Re_lambda = u' lambda / nu is +infinity (summary.json writes it as null, JSON having no infinity).
  if (s.enstrophy > 0) s.taylor_microscale = std::sqrt(15 * s.u_rms * s.u_rms / (2 * s.enstrophy));
  if (s.dissipation > 0) s.kolmogorov_scale = std::pow(nu * nu * nu / s.dissipation, 0.25);
  const double u_lambda = s.u_rms * s.taylor_microscale;
  s.re_lambda = nu > 0 ? u_lambda / nu : (u_lambda > 0 ? HUGE_VAL : 0.0);
  s.kmax_eta = resolved_wavenumber(solver.options().dealiasing, g.n) * s.kolmogorov_scale;
  if (s.u_rms > 0) {
    s.integral_scale = M_PI / (2 * s.u_rms * s.u_rms) * sums.energy_over_k;
    s.eddy_turnover = s.integral_scale / s.u_rms;
  }
  const DerivativeMoments d = derivative_moments(solver);
  s.skewness = d.skewness;
  s.flatness = d.flatness;
  s.divergence_max = d.divergence_max;
  return s;
}

std::vector<std::string> series_columns() {
  return {"t",        "step",      "dt",        "energy",        "enstrophy",       "dissipation",
          "u_rms",    "taylor_microscale",      "re_lambda",     "kolmogorov_scale", "kmax_eta",
          "integral_scale", "eddy_turnover", "skewness", "flatness", "divergence_max", "wall_s"};
}

std::vector<double> series_row(const Statistics& s, Index step, double dt, double wall_seconds) {
  return {s.t,           double(step),        dt,          s.energy,         s.enstrophy,
          s.dissipation, s.u_rms,             s.taylor_microscale,           s.re_lambda,
          s.kolmogorov_scale, s.kmax_eta,     s.integral_scale, s.eddy_turnover, s.skewness,
          s.flatness,    s.divergence_max,    wall_seconds};
}

}  // namespace loom::hit
