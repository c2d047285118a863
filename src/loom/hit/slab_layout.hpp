// A rank's part of `loom hit`'s arrays under the slab decomposition along z: the grid planes z in [z0, z0 + nz)
// and the modes with FFT index jz in [z0, z0 + nz) (FFTW's MPI transforms without a transposed output keep the
// modes distributed as the points are; their block sizes decide nz, uneven when the ranks do not divide n). On one
// rank the layout is the whole grid in SpectralGrid's layout. Components are stored one after another, `mode_stride`
// and `point_stride` apart (FFTW's MPI plans want more room than the slab itself); a grid row holds `pitch` doubles,
// n on one rank, 2 (n/2 + 1) under FFTW's MPI transforms (their real arrays are padded as in-place ones are).
#pragma once

#include "loom/hit/model.hpp"

namespace loom::hit {

struct SlabLayout {
  SpectralGrid grid;  // the global grid
  Index z0 = 0, nz = 0;
  Index pitch = 0;
  Index mode_stride = 0, point_stride = 0;

  // The whole grid on one rank: no padding, components packed.
  static SlabLayout whole(SpectralGrid g) { return {g, 0, g.n, g.n, g.modes(), g.points()}; }

  bool distributed() const { return nz != grid.n; }
  LOOM_HOST_DEVICE Index modes() const { return grid.half() * grid.n * nz; }   // the rank's modes
  LOOM_HOST_DEVICE Index points() const { return pitch * grid.n * nz; }       // stored values, padding included
  LOOM_HOST_DEVICE Index first_mode() const { return z0 * grid.half() * grid.n; }  // global index of local mode 0
  LOOM_HOST_DEVICE Wavevector wavevector(Index m) const { return grid.wavevector(first_mode() + m); }
  // Whether stored value i is a grid point (not padding) of its row; no division on one rank (unpadded rows), where
  // the GPU's kernel B runs at its bandwidth ceiling.
  LOOM_HOST_DEVICE bool is_point(Index i) const { return pitch == grid.n || i % pitch < grid.n; }
  // The global grid index of stored value i (a point).
  LOOM_HOST_DEVICE Index global_point(Index i) const {
    const Index row = i / pitch;
    return i % pitch + grid.n * (row + z0 * grid.n);
  }
};

}  // namespace loom::hit
