// fft.pruned = on with cuFFT (one GPU): the lines of kept_lines.hpp as cuFFT can batch them (one stride per
// batch): the z and y passes as one 2D complex transform (strided, in place) of each plane kx < kx_count, one
// execution per component, and the complex-to-real (real-to-complex) pass along x as one batch of every line of
// every component. The plans share one work area from loom's device pool, grown to the largest plan's need.
#include <cufft.h>

#include <map>
#include <vector>

#include "loom/hit/cufft_plan.hpp"
#include "loom/hit/kept_lines.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {
namespace {

class CufftPrunedTransforms final : public Transforms {
 public:
  CufftPrunedTransforms(SpectralGrid grid, Dealiasing d)
      : Transforms(SlabLayout::whole(grid)), lines_(kept_lines(grid, d)) {
    const long long n = grid.n, h = grid.half(), dims[2] = {n, n}, embed[2] = {n, n};
    // Element (jz, jy) of plane kx at kx + (jz n + jy) h: stride h, planes 1 apart.
    planes_ = plan(2, dims, embed, h, 1, embed, h, 1, CUFFT_Z2Z, lines_.kx_count);
  }
  ~CufftPrunedTransforms() override {
    for (cufftHandle p : handles_) cufftDestroy(p);
    if (work_ != nullptr) core::device_pool().deallocate(work_);
  }
  void inverse(Complex* modes, double* points, int count) override {
    auto* s = reinterpret_cast<cufftDoubleComplex*>(modes);
    for (int c = 0; c < count; ++c)
      LOOM_CUFFT_CHECK(cufftExecZ2Z(planes_, s + c * layout().mode_stride, s + c * layout().mode_stride, CUFFT_INVERSE));
    LOOM_CUFFT_CHECK(cufftExecZ2D(rows(count, false), s, points));
  }
  void forward(double* points, Complex* modes, int count) override {
    auto* s = reinterpret_cast<cufftDoubleComplex*>(modes);
    LOOM_CUFFT_CHECK(cufftExecD2Z(rows(count, true), points, s));
    for (int c = 0; c < count; ++c)
      LOOM_CUFFT_CHECK(cufftExecZ2Z(planes_, s + c * layout().mode_stride, s + c * layout().mode_stride, CUFFT_FORWARD));
  }

 private:
  // The x pass of `count` components: line l of component c at (c n^2 + l) (n/2 + 1) modes and (c n^2 + l) n points.
  cufftHandle rows(int count, bool forward) {
    auto& plans = forward ? forward_ : inverse_;
    if (auto it = plans.find(count); it != plans.end()) return it->second;
    const long long n = lines_.grid.n, h = lines_.grid.half(), dims[1] = {n}, modes[1] = {h}, points[1] = {n};
    const long long lines = count * n * n;
    return plans[count] = forward ? plan(1, dims, points, 1, n, modes, 1, h, CUFFT_D2Z, lines)
                                  : plan(1, dims, modes, 1, h, points, 1, n, CUFFT_Z2D, lines);
  }
  cufftHandle plan(int rank, const long long* dims, const long long* inembed, long long istride, long long idist,
                   const long long* onembed, long long ostride, long long odist, cufftType type, long long batch) {
    cufftHandle p = 0;
    LOOM_CUFFT_CHECK(cufftCreate(&p));
    handles_.push_back(p);
    LOOM_CUFFT_CHECK(cufftSetAutoAllocation(p, 0));
    std::size_t need = 0;
    LOOM_CUFFT_CHECK(cufftMakePlanMany64(p, rank, const_cast<long long*>(dims), const_cast<long long*>(inembed),
                                         istride, idist, const_cast<long long*>(onembed), ostride, odist, type, batch,
                                         &need));
    if (need > work_bytes_) {  // a larger area for every plan (they run one after another on one stream)
      if (work_ != nullptr) core::device_pool().deallocate(work_);
      work_ = core::device_pool().allocate(need);
      work_bytes_ = need;
      for (cufftHandle q : handles_) LOOM_CUFFT_CHECK(cufftSetWorkArea(q, work_));
    } else if (work_ != nullptr) {
      LOOM_CUFFT_CHECK(cufftSetWorkArea(p, work_));
    }
    return p;
  }

  KeptLines lines_;
  std::vector<cufftHandle> handles_;
  void* work_ = nullptr;
  std::size_t work_bytes_ = 0;
  cufftHandle planes_ = 0;
  std::map<int, cufftHandle> inverse_, forward_;
};

}  // namespace

std::unique_ptr<Transforms> make_cufft_pruned_transforms(SpectralGrid grid, Dealiasing dealiasing) {
  return std::make_unique<CufftPrunedTransforms>(grid, dealiasing);
}

}  // namespace loom::hit
