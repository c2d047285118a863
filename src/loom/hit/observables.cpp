#include "loom/hit/observables.hpp"

#include <cmath>
#include <string>

#include "loom/core/parallel_for.hpp"

namespace loom::hit {

SpectralSums spectral_sums(SpectralGrid g, const Complex* u) {
  const Index M = g.modes();
  SpectralSums s;
  s.spectrum.assign(std::size_t(g.n), 0.0);  // |k| < sqrt(3) n / 2 < n - 1/2
  for (Index m = 0; m < M; ++m) {
    const Wavevector k = g.wavevector(m);
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

// du_i/dx_i for i = x, y, z on the grid (spectral derivatives), their moments, and max |div u|.
DerivativeMoments derivative_moments(Solver& solver) {
  const auto backend = solver.backend();
  const auto where = core::where(backend);
  const SpectralGrid g = solver.grid();
  const Index M = g.modes(), N = g.points();
  const Complex* u = solver.modes().read(where);
  Complex* s = solver.spectral_work().write(where);
  core::parallel_for(backend, M, [=] LOOM_HOST_DEVICE(Index m) {
    const Wavevector k = g.wavevector(m);
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
    const double m2 = core::parallel_sum(backend, N, [=] LOOM_HOST_DEVICE(Index i) { return dc[i] * dc[i]; }) / N;
    const double m3 =
        core::parallel_sum(backend, N, [=] LOOM_HOST_DEVICE(Index i) { return dc[i] * dc[i] * dc[i]; }) / N;
    const double m4 = core::parallel_sum(backend, N, [=] LOOM_HOST_DEVICE(Index i) {
                        const double q = dc[i] * dc[i];
                        return q * q;
                      }) / N;
    if (m2 > 0) {
      out.skewness += m3 / std::pow(m2, 1.5);
      out.flatness += m4 / (m2 * m2);
      ++counted;
    }
  }
  if (counted > 0) out.skewness /= counted, out.flatness /= counted;
  out.divergence_max = core::parallel_max(
      backend, N, [=] LOOM_HOST_DEVICE(Index i) { return std::fabs(d[i] + d[N + i] + d[2 * N + i]); });
  return out;
}

}  // namespace

Statistics measure(Solver& solver) {
  const SpectralGrid g = solver.grid();
  const double nu = solver.options().nu;
  const SpectralSums sums = spectral_sums(g, solver.modes().read(core::Where::host));
  Statistics s;
  s.t = solver.time();
  s.energy = sums.energy;
  s.enstrophy = sums.enstrophy;
  s.spectrum = sums.spectrum;
  s.dissipation = 2 * nu * s.enstrophy;
  s.u_rms = std::sqrt(2 * s.energy / 3);
  if (s.dissipation > 0) {
    s.taylor_microscale = std::sqrt(15 * nu * s.u_rms * s.u_rms / s.dissipation);
    s.kolmogorov_scale = std::pow(nu * nu * nu / s.dissipation, 0.25);
  }
  s.re_lambda = s.u_rms * s.taylor_microscale / nu;
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
