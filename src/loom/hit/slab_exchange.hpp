// The index maps of the transpose between z-slabs and jy-slabs of `loom hit`'s modes (transforms_slabs.hpp),
// written once for the OpenMP loops and the CUDA kernels. Every rank holds blocks of `block` = ceil(n / ranks)
// planes of z (the points, and the planes' 2D spectra [z - z0][jy][kx]) and as many rows of jy (the modes,
// transposed: [jz][jy - y0][kx]); the last ranks may hold fewer. Between them the values travel in one exchange
// buffer per component laid out [peer rank][plane of the z-slab][row of the jy-slab][kx], block^2 (n/2 + 1)
// values per peer (padded where a slab is short), so that MPI_Alltoall sends each peer one contiguous block.
#pragma once

#include "loom/core/host_device.hpp"
#include "loom/hit/model.hpp"

namespace loom::hit {

struct SlabExchange {
  Index n = 0, block = 0, ranks = 1;
  Index rank = 0;      // this rank
  Index planes = 0;    // this rank's z planes (its points and plane spectra)
  Index rows = 0;      // this rank's jy rows (its modes)

  // The slabs of n over `ranks` in blocks of ceil(n / ranks), as FFTW's MPI transforms cut them.
  static Index block_of(Index n, Index ranks) { return (n + ranks - 1) / ranks; }
  static LOOM_HOST_DEVICE Index slab_size(Index n, Index block, Index r) {
    const Index begin = r * block, end = begin + block < n ? begin + block : n;
    return end > begin ? end - begin : 0;
  }
  static SlabExchange of(Index n, Index ranks, Index rank) {
    const Index b = block_of(n, ranks);
    return {n, b, ranks, rank, slab_size(n, b, rank), slab_size(n, b, rank)};
  }

  LOOM_HOST_DEVICE Index half() const { return n / 2 + 1; }
  // Values of one component: in this rank's plane spectra, in its modes, in an exchange buffer.
  LOOM_HOST_DEVICE Index plane_values() const { return planes * n * half(); }
  LOOM_HOST_DEVICE Index mode_values() const { return n * rows * half(); }
  LOOM_HOST_DEVICE Index buffer_values() const { return ranks * peer_values(); }
  LOOM_HOST_DEVICE Index peer_values() const { return block * block * half(); }

  // The buffer slot of (peer, plane zl of the z-slab owner, row yl of the jy-slab owner, kx).
  LOOM_HOST_DEVICE Index slot(Index peer, Index zl, Index yl, Index kx) const {
    return ((peer * block + zl) * block + yl) * half() + kx;
  }
  // Plane-spectrum value i ([zl][jy][kx] of this rank's planes): it goes to / comes from the owner of row jy.
  LOOM_HOST_DEVICE Index plane_slot(Index i) const {
    const Index kx = i % half(), rest = i / half(), jy = rest % n, zl = rest / n;
    return slot(jy / block, zl, jy % block, kx);
  }
  // Mode i ([jz][yl][kx] of this rank's rows): it comes from / goes to the owner of plane jz.
  LOOM_HOST_DEVICE Index mode_slot(Index i) const {
    const Index kx = i % half(), rest = i / half(), yl = rest % rows, jz = rest / rows;
    return slot(jz / block, jz % block, yl, kx);
  }
};

}  // namespace loom::hit
