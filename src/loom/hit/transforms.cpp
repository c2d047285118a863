#include "loom/hit/transforms.hpp"

#include "loom/core/error.hpp"

namespace loom::hit {

std::unique_ptr<Transforms> make_transforms(core::Backend backend, SpectralGrid grid, FftPlanning planning) {
  return backend == core::Backend::cuda ? make_cufft_transforms(grid) : make_fftw_transforms(grid, planning);
}

std::unique_ptr<Transforms> make_pruned_transforms(core::Backend backend, SpectralGrid grid, Dealiasing dealiasing,
                                                   FftPlanning planning, PrunedForm form) {
  return backend == core::Backend::cuda ? make_cufft_pruned_transforms(grid, dealiasing, form)
                                        : make_fftw_pruned_transforms(grid, dealiasing, planning, form);
}

void Transforms::inverse_from_kept(const Complex*, Complex*, double*, int) {
  throw Error("hit::Transforms::inverse_from_kept: these transforms overwrite their input");
}

void Transforms::inverse_loaded(const ModeLoad&, Complex*, double*) {
  throw Error("hit::Transforms::inverse_loaded: these transforms have no load callbacks");
}

void Transforms::forward_stored(double*, Complex*, const ModeUpdate&) {
  throw Error("hit::Transforms::forward_stored: these transforms have no store callbacks");
}

}  // namespace loom::hit
