// What `loom hit` measures at each output step: the energy spectrum E(k) over shells, the energy, enstrophy and
// dissipation, the turbulence scales derived from them (Pope, "Turbulent Flows", 2000, sections 6.1-6.5), the
// velocity-derivative skewness and flatness, and the largest divergence (which must stay at rounding).
#pragma once

#include <vector>

#include "loom/core/complex.hpp"
#include "loom/hit/model.hpp"
#include "loom/hit/solver.hpp"

namespace loom::hit {

struct Statistics {
  double t = 0;
  double energy = 0;       // 0.5 <|u|^2> = sum_k E(k)
  double enstrophy = 0;    // 0.5 <|omega|^2> = sum_k k^2 E(k)
  double dissipation = 0;  // epsilon = 2 nu * enstrophy
  double u_rms = 0;        // u' = sqrt(2 E / 3)
  double taylor_microscale = 0;  // lambda = sqrt(15 nu u'^2 / epsilon)
  double re_lambda = 0;          // u' lambda / nu
  double kolmogorov_scale = 0;   // eta = (nu^3 / epsilon)^(1/4)
  double kmax_eta = 0;           // the largest resolved wavenumber times eta
  double integral_scale = 0;     // L = pi / (2 u'^2) sum_k E(k) / k
  double eddy_turnover = 0;      // L / u'
  double skewness = 0;     // <(du_i/dx_i)^3> / <(du_i/dx_i)^2>^(3/2), averaged over the i with gradients
  double flatness = 0;     // <(du_i/dx_i)^4> / <(du_i/dx_i)^2>^2, likewise
  double divergence_max = 0;     // max |div u| on the grid
  std::vector<double> spectrum;  // E(s) for shells s = 0, 1, ...: |k| in [s - 1/2, s + 1/2)
};

// The sums over the modes (on the host: the modes are copied there at output steps, never inside a step): over
// the whole grid, or over a rank's slab of the modes (components layout.mode_stride apart).
struct SpectralSums {
  double energy = 0, enstrophy = 0, energy_over_k = 0;
  std::vector<double> spectrum;
};
SpectralSums spectral_sums(const SlabLayout& layout, const Complex* u_hat_host);
inline SpectralSums spectral_sums(SpectralGrid grid, const Complex* u_hat_host) {
  return spectral_sums(SlabLayout::whole(grid), u_hat_host);
}

// Everything above for the solver's current field, of all ranks (collective on several). Uses the solver's work
// space (so it invalidates velocity()).
Statistics measure(Solver& solver);

// The column names of series.csv, and one row in their order.
std::vector<std::string> series_columns();
std::vector<double> series_row(const Statistics& s, Index step, double dt, double wall_seconds);

}  // namespace loom::hit
