// A rank's part of `loom hit`'s arrays under the slab decomposition along z: the grid planes z in [z0, z0 + nz)
// and the modes with FFT index jz in [z0, z0 + nz) (FFTW's MPI transforms without a transposed output keep the
// modes distributed as the points are; their block sizes decide nz, uneven when the ranks do not divide n). On one
// rank the layout is the whole grid in SpectralGrid's layout. Components are stored one after another, `mode_stride`
// and `point_stride` apart (FFTW's MPI plans want more room than the slab itself); a grid row holds `pitch` doubles,
// n on one rank, 2 (n/2 + 1) under FFTW's MPI transforms (their real arrays are padded as in-place ones are).
// The transposes by MPI_Alltoall (transforms_slabs.hpp) leave the modes transposed, as FFTW_MPI_TRANSPOSED_OUT
// does, which saves the transpose back: the rank holds the modes with jy in [y0, y0 + ny) for every jz, stored
// jz slowest ([jz][jy - y0][kx]) so that the transforms along jz are one batch; ny = 0 when not transposed.
#pragma once

#include "loom/hit/model.hpp"

namespace loom::hit {

struct SlabLayout {
  SpectralGrid grid;  // the global grid
  Index z0 = 0, nz = 0;
  Index pitch = 0;
  Index mode_stride = 0, point_stride = 0;
  Index y0 = 0, ny = 0;

  // The whole grid on one rank: no padding, components packed.
  static SlabLayout whole(SpectralGrid g) { return {g, 0, g.n, g.n, g.modes(), g.points()}; }

  bool distributed() const { return nz != grid.n; }
  LOOM_HOST_DEVICE bool transposed() const { return ny > 0; }
  LOOM_HOST_DEVICE Index modes() const { return grid.half() * grid.n * (transposed() ? ny : nz); }  // the rank's
  LOOM_HOST_DEVICE Index points() const { return pitch * grid.n * nz; }       // stored values, padding included
  // The global index (SpectralGrid's layout) of local mode m.
  LOOM_HOST_DEVICE Index global_mode(Index m) const {
    const Index h = grid.half();
    if (!transposed()) return z0 * h * grid.n + m;
    const Index kx = m % h, rest = m / h;
    return kx + h * (y0 + rest % ny + grid.n * (rest / ny));
  }
  LOOM_HOST_DEVICE Wavevector wavevector(Index m) const { return grid.wavevector(global_mode(m)); }
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
