// The lines the pruned transforms of `loom hit` (fft.pruned = on) transform: every kept mode of a dealiasing mask
// lies in the box 0 <= kx < kx_count, |ky| < ky_count, |kz| < ky_count (each mask keeps a mode only if it keeps
// its projection on each axis), and the modes outside it are zero in the inverse transforms' input and unread
// after the forward ones. So the inverse, split into 1D passes (z, then y, then complex-to-real along x), may skip
// the z-lines outside the box's (kx, ky) columns and the y-lines of kx >= kx_count; the forward, in the reverse
// order, computes only the box's outputs. One description for the FFTW and the cuFFT forms.
#pragma once

#include "loom/hit/model.hpp"

namespace loom::hit {

struct KeptLines {
  SpectralGrid grid;
  Index kx_count = 0;  // kx in [0, kx_count) hold kept modes
  Index ky_count = 0;  // ky (and kz) in (-ky_count, ky_count): FFT index jy in [0, ky_count), [n - ky_count + 1, n)

  // The two blocks of FFT index jy holding kept modes: [0, low_rows()) and [high_start(), n).
  Index low_rows() const { return ky_count; }
  Index high_start() const { return grid.n - ky_count + 1; }
  Index high_rows() const { return ky_count - 1; }
};

// The box of the modes `d` keeps on grid g: the count of k >= 0 the mask keeps on each axis (the masks treat the
// three axes alike).
inline KeptLines kept_lines(SpectralGrid g, Dealiasing d) {
  Index k = 0;
  while (k < g.n / 2 && retained(d, g.n, {double(k), 0, 0})) ++k;
  return {g, k, k};
}

// How the passes are grouped into transforms (fft.pruned_form): planes, z and y together as a 2D transform of
// each plane kx < kx_count, then x; columns, z along the box's columns, then y and x together as a 2D real
// transform of every z plane (all kx: the y lines of kx >= kx_count are not skipped).
enum class PrunedForm { planes, columns };

// The 1D lines of length n one transform of one component takes in each pass (z, y, then x). FFTW's batches
// (several strides) take exactly the box's z columns; cuFFT's (one stride) take whole rows of kx: the planes form's
// z pass every line of the planes kx < kx_count, the columns form's every kx of the box's ky rows.
struct PassLines {
  double z = 0, y = 0, x = 0;
};

inline PassLines full_pass_lines(SpectralGrid g) {
  const double rows = double(g.n) * double(g.half());
  return {rows, rows, double(g.n) * double(g.n)};
}

inline PassLines pruned_pass_lines(const KeptLines& k, PrunedForm form, bool one_stride) {
  const double n = double(k.grid.n), h = double(k.grid.half()), kx = double(k.kx_count), ky = double(2 * k.ky_count - 1);
  const double y = form == PrunedForm::planes ? kx * n : h * n;
  if (!one_stride) return {kx * ky, y, n * n};
  return {form == PrunedForm::planes ? kx * n : h * ky, y, n * n};
}

// The fraction of the stored modes of each component that inverse_from_kept() zeroes in its work array before the z
// pass writes the rest: the modes outside the z pass's columns, the skipped rows of jy on cuFFT (every kx of the kept
// rows is transformed), every mode outside the box's columns on FFTW.
inline double zeroed_fraction(const KeptLines& k, bool one_stride) {
  const double n = double(k.grid.n), h = double(k.grid.half()), rows = double(2 * k.ky_count - 1);
  return one_stride ? 1 - rows / n : 1 - double(k.kx_count) * rows / (h * n);
}

}  // namespace loom::hit
