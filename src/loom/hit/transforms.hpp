// The three-dimensional real transforms of `loom hit`, batched over field components stored one after another:
// FFTW (with its threads) on the CPU, cuFFT on the GPU; no FFT of our own. Forward transforms are unnormalised
// (the sum over the n^3 points); the solver folds 1/n^3 into the kernel that follows.
#pragma once

#include <memory>

#include "loom/core/backend.hpp"
#include "loom/hit/model.hpp"

namespace loom::hit {

// How much effort FFTW spends choosing its plans (cuFFT has no choice): estimate plans at once, measure times
// candidate plans first (seconds at 256^3, for benchmarks and long runs).
enum class FftPlanning { estimate, measure };

class Transforms {
 public:
  virtual ~Transforms() = default;
  // complex-to-real of `count` components, each grid.modes() modes into grid.points() values. Overwrites `modes`
  // (FFTW and cuFFT both use the input as work space).
  virtual void inverse(Complex* modes, double* points, int count) = 0;
  // real-to-complex of `count` components; `points` is left as it was.
  virtual void forward(double* points, Complex* modes, int count) = 0;
};

// The backend's transforms for grid `grid`; pointers handed to them live on core::where(backend).
std::unique_ptr<Transforms> make_transforms(core::Backend backend, SpectralGrid grid, FftPlanning planning);

// The CPU and GPU implementations (the GPU one throws in a build without CUDA).
std::unique_ptr<Transforms> make_fftw_transforms(SpectralGrid grid, FftPlanning planning);
std::unique_ptr<Transforms> make_cufft_transforms(SpectralGrid grid);

}  // namespace loom::hit
