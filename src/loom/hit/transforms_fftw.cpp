// FFTW's batched real transforms (fftw_plan_many_dft_r2c/c2r), threaded through FFTW's OpenMP interface with as
// many threads as the CPU backend. Plans are made once per component count and executed on any array of the
// same alignment (the new-array interface); loom's host arrays are 64-byte aligned, and so is each component.
#include <fftw3.h>

#include <map>
#include <mutex>

#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {
namespace {

static_assert(sizeof(Complex) == sizeof(fftw_complex), "Complex and fftw_complex share their layout");

class FftwTransforms final : public Transforms {
 public:
  FftwTransforms(SpectralGrid grid, FftPlanning planning)
      : Transforms(SlabLayout::whole(grid)), grid_(grid), flags_(planning == FftPlanning::measure ? FFTW_MEASURE : FFTW_ESTIMATE) {
    init_fftw_threads();
  }
  ~FftwTransforms() override {
    for (auto& [count, plan] : inverse_) fftw_destroy_plan(plan);
    for (auto& [count, plan] : forward_) fftw_destroy_plan(plan);
  }
  void inverse(Complex* modes, double* points, int count) override {
    fftw_execute_dft_c2r(plan(count, false), reinterpret_cast<fftw_complex*>(modes), points);
  }
  void forward(double* points, Complex* modes, int count) override {
    fftw_execute_dft_r2c(plan(count, true), points, reinterpret_cast<fftw_complex*>(modes));
  }

 private:
  // Planned on scratch arrays: FFTW_MEASURE overwrites its arrays while it tries plans.
  fftw_plan plan(int count, bool forward) {
    auto& plans = forward ? forward_ : inverse_;
    if (auto it = plans.find(count); it != plans.end()) return it->second;
    const int n = int(grid_.n), dims[3] = {n, n, n};  // z, y, x: x fastest
    const int points = int(grid_.points()), modes = int(grid_.modes());
    double* real = fftw_alloc_real(std::size_t(points) * std::size_t(count));
    fftw_complex* spectral = fftw_alloc_complex(std::size_t(modes) * std::size_t(count));
    LOOM_REQUIRE(real != nullptr && spectral != nullptr, "fftw: out of memory while planning");
    fftw_plan_with_nthreads(core::cpu_threads());
    fftw_plan p = forward ? fftw_plan_many_dft_r2c(3, dims, count, real, nullptr, 1, points, spectral, nullptr, 1,
                                                   modes, flags_)
                          : fftw_plan_many_dft_c2r(3, dims, count, spectral, nullptr, 1, modes, real, nullptr, 1,
                                                   points, flags_ | FFTW_DESTROY_INPUT);
    fftw_free(real);
    fftw_free(spectral);
    LOOM_REQUIRE(p != nullptr, "fftw: no plan for this transform");
    plans[count] = p;
    return p;
  }

  SpectralGrid grid_;
  unsigned flags_;
  std::map<int, fftw_plan> inverse_, forward_;
};

}  // namespace

void init_fftw_threads() {
  static std::once_flag once;
  std::call_once(once, [] { LOOM_REQUIRE(fftw_init_threads() != 0, "fftw_init_threads failed"); });
}

std::unique_ptr<Transforms> make_fftw_transforms(SpectralGrid grid, FftPlanning planning) {
  LOOM_REQUIRE(grid.points() < (Index(1) << 31), "fftw: grids past 2^31 points need the guru64 interface");
  return std::make_unique<FftwTransforms>(grid, planning);
}

}  // namespace loom::hit
