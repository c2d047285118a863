// cuFFT's plans for the slab transforms of transforms_slabs.hpp, on the default stream with loom's kernels: a
// batched 2D D2Z/Z2D over the rank's planes and a batched 1D Z2Z along jz (stride one row block, the batch
// adjacent in memory, so neighbouring transforms read neighbouring values).
#include "loom/hit/cufft_plan.hpp"
#include "loom/hit/transforms_slabs.hpp"

namespace loom::hit {
namespace {

cufftDoubleComplex* as_cufft(Complex* p) { return reinterpret_cast<cufftDoubleComplex*>(p); }

class CufftPlaneLineFfts final : public PlaneLineFfts {
 public:
  explicit CufftPlaneLineFfts(const SlabExchange& e) {
    const long long n = e.n, h = e.half(), lines = e.rows * e.half();
    long long plane[2] = {n, n}, spectrum[2] = {n, h}, line[1] = {n};
    forward_ = make_cufft_plan(2, plane, plane, 1, n * n, spectrum, 1, n * h, CUFFT_D2Z, e.planes);
    inverse_ = make_cufft_plan(2, plane, spectrum, 1, n * h, plane, 1, n * n, CUFFT_Z2D, e.planes);
    lines_ = make_cufft_plan(1, line, line, lines, 1, line, lines, 1, CUFFT_Z2Z, lines);
  }
  ~CufftPlaneLineFfts() override {
    for (CufftPlan* p : {&forward_, &inverse_, &lines_}) destroy_cufft_plan(*p);
  }
  CufftPlaneLineFfts(const CufftPlaneLineFfts&) = delete;
  CufftPlaneLineFfts& operator=(const CufftPlaneLineFfts&) = delete;

  void planes_forward(double* points, Complex* spectra) override {
    LOOM_CUFFT_CHECK(cufftExecD2Z(forward_.handle, points, as_cufft(spectra)));
  }
  void planes_inverse(Complex* spectra, double* points) override {
    LOOM_CUFFT_CHECK(cufftExecZ2D(inverse_.handle, as_cufft(spectra), points));
  }
  void lines(Complex* modes, bool forward) override {
    LOOM_CUFFT_CHECK(
        cufftExecZ2Z(lines_.handle, as_cufft(modes), as_cufft(modes), forward ? CUFFT_FORWARD : CUFFT_INVERSE));
  }

 private:
  CufftPlan forward_, inverse_, lines_;
};

}  // namespace

std::unique_ptr<PlaneLineFfts> make_cufft_plane_line_ffts(const SlabExchange& e) {
  return std::make_unique<CufftPlaneLineFfts>(e);
}

}  // namespace loom::hit
