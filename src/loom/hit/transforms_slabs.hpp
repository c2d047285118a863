// The slab-decomposed 3D real transform by MPI_Alltoall between 2D and 1D transforms, the same algorithm on both
// backends (FFTW on the CPU, cuFFT on the GPU): forward, per rank a batched 2D real-to-complex transform of its
// z planes, a pack kernel into one exchange buffer per component (slab_exchange.hpp), MPI_Alltoall, an unpack
// kernel into the transposed modes [jz][jy - y0][kx], and a batched 1D transform along jz; the inverse the same
// steps reversed. The modes stay transposed (slab_layout.hpp), as FFTW_MPI_TRANSPOSED_OUT leaves them, which saves
// the transpose back. On the GPU the exchange buffers are device memory staged through pinned host buffers (also
// where the MPI is CUDA-aware: see transforms_slabs.cpp); nothing else crosses the bus.
#pragma once

#include <memory>

#include "loom/hit/slab_exchange.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {

// The local transforms the algorithm runs on one rank, one component at a time.
class PlaneLineFfts {
 public:
  virtual ~PlaneLineFfts() = default;
  // 2D real-to-complex over the rank's planes (n x n values, x fastest) into their spectra ([zl][jy][kx]).
  virtual void planes_forward(double* points, Complex* spectra) = 0;
  // The inverse; overwrites `spectra`.
  virtual void planes_inverse(Complex* spectra, double* points) = 0;
  // 1D complex transforms along jz of the transposed modes [jz][yl][kx], in place (sign -1 forward, +1 not).
  virtual void lines(Complex* modes, bool forward) = 0;
};

std::unique_ptr<PlaneLineFfts> make_fftw_plane_line_ffts(const SlabExchange& e, FftPlanning planning);
std::unique_ptr<PlaneLineFfts> make_cufft_plane_line_ffts(const SlabExchange& e);

// The transforms of the grid over the ranks of `comm` on `backend`, each rank its slab. Not collective to make;
// every transform is (MPI_Alltoall).
std::unique_ptr<Transforms> make_slab_transforms(core::Backend backend, SpectralGrid grid, FftPlanning planning,
                                                 const comm::Communicator& comm);

// The rank's layout under these transforms (points unpadded, components 64 bytes apart at least).
SlabLayout slab_transforms_layout(SpectralGrid grid, int ranks, int rank);

}  // namespace loom::hit
