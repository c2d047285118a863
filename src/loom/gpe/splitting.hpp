// Detects how a multiply quantised vortex splits (DEC-GPE paper, Fig. 6: cubic 4-fold, BCC 3-fold, as the
// Bogoliubov analysis predicts): the change of density |psi|^2 - |psi_ref|^2 near z = 0 in an annulus around the
// vortex core, binned in the azimuth, and its Fourier amplitudes |A_m|, m = 1..max_mode, relative to the mean
// reference density; the dominant m is the splitting symmetry. Subtracting the reference sampled at the same
// vertices removes the lattice's own angular structure (a BCC annulus alone shows m = 4, 8).
#pragma once

#include <utility>
#include <vector>

#include "loom/gpe/model/hamiltonian.hpp"

namespace loom::gpe {

struct AzimuthalModes {
  int dominant = 0;              // argmax_m |A_m| (0 when no vertex lies in the annulus)
  double relative_amplitude = 0;  // |A_dominant| / mean reference density
  std::vector<double> amplitudes;  // |A_m| / mean reference density for m = 1..max_mode
  long samples = 0;
};

// The structure layers [first, last] (z indices) that reach into |z| <= half_height.
std::pair<int, int> layers_within(const Hamiltonian& h, double half_height);

// h: host-side views; psi, reference: host pointers. Annulus: inner <= rho <= outer, |z| <= half_height.
AzimuthalModes azimuthal_modes(const Hamiltonian& h, const Complex* psi, const Complex* reference, double inner,
                               double outer, double half_height, int max_mode = 12, int bins = 96);

}  // namespace loom::gpe
