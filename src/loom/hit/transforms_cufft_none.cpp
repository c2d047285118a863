// The cuFFT transforms in a build without CUDA: the CUDA backend is refused before a solver is made, so reaching
// this is a direct call from a test or benchmark.
#include "loom/core/error.hpp"
#include "loom/hit/transforms.hpp"
#include "loom/hit/transforms_slabs.hpp"

namespace loom::hit {

std::unique_ptr<Transforms> make_cufft_transforms(SpectralGrid) { throw Error("hit: this loom was built without CUDA"); }

std::unique_ptr<Transforms> make_cufft_pruned_transforms(SpectralGrid, Dealiasing, PrunedForm) {
  throw Error("hit: this loom was built without CUDA");
}

std::unique_ptr<PlaneLineFfts> make_cufft_plane_line_ffts(const SlabExchange&) {
  throw Error("hit: this loom was built without CUDA");
}

}  // namespace loom::hit
