// FFTW's plans for the slab transforms of transforms_slabs.hpp: a batched 2D real transform over the rank's planes
// and a batched 1D complex transform along jz (stride one row block, the batch adjacent in memory), threaded as the
// one-rank transforms are. Planned once on scratch arrays and run on each component (components are 64 bytes
// apart, so every component has the alignment of the plan's arrays).
#include <fftw3.h>

#include <algorithm>

#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/hit/transforms_slabs.hpp"

namespace loom::hit {
namespace {

fftw_complex* as_fftw(Complex* p) { return reinterpret_cast<fftw_complex*>(p); }

class FftwPlaneLineFfts final : public PlaneLineFfts {
 public:
  FftwPlaneLineFfts(const SlabExchange& e, FftPlanning planning) {
    init_fftw_threads();
    const unsigned flags = planning == FftPlanning::measure ? FFTW_MEASURE : FFTW_ESTIMATE;
    const int n = int(e.n), h = int(e.half()), planes = int(e.planes), lines = int(e.rows * e.half());
    const int dims[2] = {n, n};  // y, x: x fastest
    double* real = fftw_alloc_real(std::size_t(e.planes * e.n * e.n));
    fftw_complex* spectra = fftw_alloc_complex(std::size_t(std::max(e.plane_values(), e.mode_values())));
    LOOM_REQUIRE(real != nullptr && spectra != nullptr, "fftw: out of memory while planning");
    fftw_plan_with_nthreads(core::cpu_threads());
    forward_ = fftw_plan_many_dft_r2c(2, dims, planes, real, nullptr, 1, n * n, spectra, nullptr, 1, n * h, flags);
    inverse_ = fftw_plan_many_dft_c2r(2, dims, planes, spectra, nullptr, 1, n * h, real, nullptr, 1, n * n,
                                      flags | FFTW_DESTROY_INPUT);
    for (int sign : {FFTW_FORWARD, FFTW_BACKWARD})
      (sign == FFTW_FORWARD ? lines_forward_ : lines_inverse_) =
          fftw_plan_many_dft(1, &n, lines, spectra, nullptr, lines, 1, spectra, nullptr, lines, 1, sign, flags);
    fftw_free(real);
    fftw_free(spectra);
    LOOM_REQUIRE(forward_ && inverse_ && lines_forward_ && lines_inverse_, "fftw: no plan for the slab transforms");
  }
  ~FftwPlaneLineFfts() override {
    for (fftw_plan p : {forward_, inverse_, lines_forward_, lines_inverse_})
      if (p != nullptr) fftw_destroy_plan(p);
  }
  FftwPlaneLineFfts(const FftwPlaneLineFfts&) = delete;
  FftwPlaneLineFfts& operator=(const FftwPlaneLineFfts&) = delete;

  void planes_forward(double* points, Complex* spectra) override {
    fftw_execute_dft_r2c(forward_, points, as_fftw(spectra));
  }
  void planes_inverse(Complex* spectra, double* points) override {
    fftw_execute_dft_c2r(inverse_, as_fftw(spectra), points);
  }
  void lines(Complex* modes, bool forward) override {
    fftw_execute_dft(forward ? lines_forward_ : lines_inverse_, as_fftw(modes), as_fftw(modes));
  }

 private:
  fftw_plan forward_ = nullptr, inverse_ = nullptr, lines_forward_ = nullptr, lines_inverse_ = nullptr;
};

}  // namespace

std::unique_ptr<PlaneLineFfts> make_fftw_plane_line_ffts(const SlabExchange& e, FftPlanning planning) {
  LOOM_REQUIRE(e.planes * e.n * e.n < (Index(1) << 31), "fftw: slabs past 2^31 points need the guru64 interface");
  return std::make_unique<FftwPlaneLineFfts>(e, planning);
}

}  // namespace loom::hit
