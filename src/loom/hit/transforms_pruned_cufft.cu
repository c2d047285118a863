// fft.pruned = on with cuFFT (one GPU): the lines of kept_lines.hpp as cuFFT can batch them (one stride per
// batch), in either form. planes: the z and y passes as one 2D complex transform (strided, in place) of each plane
// kx < kx_count, one execution per component, then complex-to-real along x, one batch of every line of every
// component. columns: along z for every kx of the box's ky rows (one execution per block of rows and component,
// in place), then complex-to-real over (y, x), one batch of every z plane of every component. The forward in the
// reverse order. The plans share one work area from loom's device pool, grown to the largest plan's need.
// inverse_from_kept() (columns): the z pass out of place from the solver's kept input into the work array, whose
// rows the z pass skips are zeroed by one strided memset, so that nothing overwrites the kept input's zeros.
#include <cuda_runtime.h>
#include <cufft.h>

#include <map>
#include <vector>

#include "loom/core/cuda_check.cuh"
#include "loom/hit/cufft_plan.hpp"
#include "loom/hit/kept_lines.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {
namespace {

class CufftPrunedTransforms final : public Transforms {
 public:
  CufftPrunedTransforms(SpectralGrid grid, Dealiasing d, PrunedForm form)
      : Transforms(SlabLayout::whole(grid)), lines_(kept_lines(grid, d)), form_(form) {
    const long long n = grid.n, h = grid.half(), dims[2] = {n, n}, embed[2] = {n, n};
    if (form == PrunedForm::planes) {
      // Element (jz, jy) of plane kx at kx + (jz n + jy) h: stride h, planes 1 apart.
      complex_[0] = plan(2, dims, embed, h, 1, embed, h, 1, CUFFT_Z2Z, lines_.kx_count);
      return;
    }
    // Row jy's z column kx at kx + jy h + jz n h: stride n h, the columns of consecutive rows 1 apart.
    const long long rows[2] = {lines_.low_rows(), lines_.high_rows()};
    for (int b = 0; b < 2; ++b)
      if (rows[b] > 0) complex_[b] = plan(1, dims, embed, n * h, 1, embed, n * h, 1, CUFFT_Z2Z, h * rows[b]);
  }
  ~CufftPrunedTransforms() override {
    for (cufftHandle p : handles_) cufftDestroy(p);
    if (work_ != nullptr) core::device_pool().deallocate(work_);
  }
  void inverse(Complex* modes, double* points, int count) override {
    auto* s = reinterpret_cast<cufftDoubleComplex*>(modes);
    run_complex(s, s, count, CUFFT_INVERSE);
    LOOM_CUFFT_CHECK(cufftExecZ2D(real_pass(count, false), s, points));
  }
  void forward(double* points, Complex* modes, int count) override {
    auto* s = reinterpret_cast<cufftDoubleComplex*>(modes);
    LOOM_CUFFT_CHECK(cufftExecD2Z(real_pass(count, true), points, s));
    run_complex(s, s, count, CUFFT_FORWARD);
  }

  bool reads_kept_input() const override { return form_ == PrunedForm::columns; }
  void inverse_from_kept(const Complex* kept, Complex* work, double* points, int count) override {
    LOOM_REQUIRE(reads_kept_input(), "hit: inverse_from_kept needs fft.pruned_form = columns on cuFFT");
    const Index n = lines_.grid.n, h = lines_.grid.half();
    // The rows jy in [low_rows, high_start) of every z plane of every component: one plane apart, all of them.
    const std::size_t row = std::size_t(h) * sizeof(Complex);
    LOOM_CUDA_CHECK(cudaMemset2DAsync(work + lines_.low_rows() * h, std::size_t(n) * row, 0,
                                      std::size_t(lines_.high_start() - lines_.low_rows()) * row,
                                      std::size_t(count * n)));
    auto* s = reinterpret_cast<cufftDoubleComplex*>(work);
    // cuFFT's complex-to-complex plans leave an out-of-place input as it was (test_hit_pruned checks it).
    run_complex(reinterpret_cast<cufftDoubleComplex*>(const_cast<Complex*>(kept)), s, count, CUFFT_INVERSE);
    LOOM_CUFFT_CHECK(cufftExecZ2D(real_pass(count, false), s, points));
  }

 private:
  void run_complex(cufftDoubleComplex* in, cufftDoubleComplex* out, int count, int direction) {
    const Index offset[2] = {0, form_ == PrunedForm::planes ? 0 : lines_.high_start() * lines_.grid.half()};
    for (int c = 0; c < count; ++c)
      for (int b = 0; b < 2; ++b) {
        if (complex_[b] == 0) continue;
        const Index at = c * layout().mode_stride + offset[b];
        LOOM_CUFFT_CHECK(cufftExecZ2Z(complex_[b], in + at, out + at, direction));
      }
  }
  // The real pass of `count` components: along x, line l of component c at (c n^2 + l) (n/2 + 1) modes and
  // (c n^2 + l) n points (planes); over (y, x), plane j at (c n + j) n (n/2 + 1) and (c n + j) n^2 (columns).
  cufftHandle real_pass(int count, bool forward) {
    auto& plans = forward ? forward_ : inverse_;
    if (auto it = plans.find(count); it != plans.end()) return it->second;
    const long long n = lines_.grid.n, h = lines_.grid.half(), dims[2] = {n, n}, modes[2] = {n, h}, points[2] = {n, n};
    const bool planes = form_ == PrunedForm::planes;
    const int rank = planes ? 1 : 2;
    const long long* x_dims = planes ? dims + 1 : dims;
    const long long* x_modes = planes ? modes + 1 : modes;
    const long long* x_points = planes ? points + 1 : points;
    const long long batch = count * (planes ? n * n : n), mode_dist = planes ? h : n * h, point_dist = planes ? n : n * n;
    return plans[count] = forward ? plan(rank, x_dims, x_points, 1, point_dist, x_modes, 1, mode_dist, CUFFT_D2Z, batch)
                                  : plan(rank, x_dims, x_modes, 1, mode_dist, x_points, 1, point_dist, CUFFT_Z2D, batch);
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
  PrunedForm form_;
  cufftHandle complex_[2] = {0, 0};  // planes: the 2D transform; columns: the low and the high block of rows
  std::map<int, cufftHandle> inverse_, forward_;
};

}  // namespace

std::unique_ptr<Transforms> make_cufft_pruned_transforms(SpectralGrid grid, Dealiasing dealiasing, PrunedForm form) {
  return std::make_unique<CufftPrunedTransforms>(grid, dealiasing, form);
}

}  // namespace loom::hit
