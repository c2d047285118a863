// The three-dimensional real transforms of `loom hit`, batched over field components stored one after another:
// FFTW (with its threads) on the CPU, cuFFT on the GPU; no FFT of our own. Forward transforms are unnormalised
// (the sum over the n^3 points); the solver folds 1/n^3 into the kernel that follows.
#pragma once

#include <memory>

#include "loom/comm/communicator.hpp"
#include "loom/core/backend.hpp"
#include "loom/hit/kept_lines.hpp"
#include "loom/hit/slab_layout.hpp"
#include "loom/hit/stage_modes.hpp"

namespace loom::hit {

// How much effort FFTW spends choosing its plans (cuFFT has no choice): estimate plans at once, measure times
// candidate plans first (seconds at 256^3, for benchmarks and long runs).
enum class FftPlanning { estimate, measure };

// What the transposes of the MPI_Alltoall slab transforms cost this rank so far (zeros for the others): seconds in
// MPI_Alltoall and its staging through host memory (after the device work before it), the bytes sent to other
// ranks, and the bytes copied between device and host for the staging.
struct ExchangeCounts {
  double seconds = 0, sent_bytes = 0, staged_bytes = 0;
  Index exchanges = 0;
};

class Transforms {
 public:
  explicit Transforms(SlabLayout layout) : layout_(layout) {}
  virtual ~Transforms() = default;
  Transforms(const Transforms&) = delete;
  Transforms& operator=(const Transforms&) = delete;
  // The rank's part of the arrays the transforms take (slab_layout.hpp); the whole grid on one rank.
  const SlabLayout& layout() const { return layout_; }
  // complex-to-real of `count` components, each layout().modes() modes into layout().points() values, components
  // layout().mode_stride and point_stride apart. Overwrites `modes` (FFTW and cuFFT use the input as work space).
  virtual void inverse(Complex* modes, double* points, int count) = 0;
  // real-to-complex of `count` components; `points` is left as it was on one rank (FFTW's MPI transforms may use
  // it as work space).
  virtual void forward(double* points, Complex* modes, int count) = 0;
  virtual ExchangeCounts exchange_counts() const { return {}; }

  // Whether inverse_from_kept() runs (fft.pruned's columns form on cuFFT, both forms on FFTW): the inverse from an
  // input the transforms leave as it is, so that its zeros are written once and the solver writes only the kept
  // modes each evaluation, where inverse()'s input must be written whole (complex-to-real overwrites it).
  virtual bool reads_kept_input() const { return false; }
  // inverse() of `count` components of `kept`, which holds zeros outside the box of kept_lines.hpp and is left
  // unchanged; `work` (count components of modes) is the transforms' scratch.
  virtual void inverse_from_kept(const Complex* kept, Complex* work, double* points, int count);

  // Whether the transforms take the pointwise work of stage_modes.hpp into their own loads and stores (cuFFT's
  // callbacks): then inverse_loaded() is inverse() of the 6 components load_mode(load, c, m) and forward_stored()
  // is forward() of 3 components followed by update_mode() on each mode, with `work` (6 components of modes)
  // as the transforms' scratch. Transforms without callbacks throw; the solver runs the passes itself.
  virtual bool fuses() const { return false; }
  virtual void inverse_loaded(const ModeLoad& load, Complex* work, double* points);
  virtual void forward_stored(double* points, Complex* work, const ModeUpdate& update);

 private:
  SlabLayout layout_;
};

// `plain` (host transforms) with the callbacks of fft.callbacks = on run as passes of their own (callbacks_host.cpp).
std::unique_ptr<Transforms> with_host_callbacks(std::unique_ptr<Transforms> plain);

// The backend's transforms for grid `grid`; pointers handed to them live on core::where(backend).
std::unique_ptr<Transforms> make_transforms(core::Backend backend, SpectralGrid grid, FftPlanning planning);

// The CPU and GPU implementations (the GPU one throws in a build without CUDA).
std::unique_ptr<Transforms> make_fftw_transforms(SpectralGrid grid, FftPlanning planning);
std::unique_ptr<Transforms> make_cufft_transforms(SpectralGrid grid);

// fft.pruned = on (kept_lines.hpp): transforms of the whole grid, equal to the plain ones on the fields the solver
// gives them and takes from them: inverse() wants zeros outside the box of the modes `dealiasing` keeps, forward()
// computes the box's modes only (the others hold partial results).
std::unique_ptr<Transforms> make_pruned_transforms(core::Backend backend, SpectralGrid grid, Dealiasing dealiasing,
                                                   FftPlanning planning, PrunedForm form);
std::unique_ptr<Transforms> make_fftw_pruned_transforms(SpectralGrid grid, Dealiasing dealiasing, FftPlanning planning,
                                                        PrunedForm form);
std::unique_ptr<Transforms> make_cufft_pruned_transforms(SpectralGrid grid, Dealiasing dealiasing, PrunedForm form);

// FFTW's threads, initialised once per process (both FFTW transforms use them).
void init_fftw_threads();

// FFTW's MPI transforms of the grid distributed over the ranks of `comm` in slabs along z (the layout FFTW
// chooses); throws Error in a build without fftw3-mpi or MPI. Collective: every rank makes and runs the same plans.
bool fftw_mpi_built();
std::unique_ptr<Transforms> make_fftw_mpi_transforms(SpectralGrid grid, FftPlanning planning,
                                                     const comm::Communicator& comm);

}  // namespace loom::hit
