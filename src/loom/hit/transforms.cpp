#include "loom/hit/transforms.hpp"

namespace loom::hit {

std::unique_ptr<Transforms> make_transforms(core::Backend backend, SpectralGrid grid, FftPlanning planning) {
  return backend == core::Backend::cuda ? make_cufft_transforms(grid) : make_fftw_transforms(grid, planning);
}

}  // namespace loom::hit
