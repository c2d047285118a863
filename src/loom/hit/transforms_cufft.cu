// cuFFT's batched real transforms (D2Z and Z2D) on the default stream, where loom's kernels run, so a step queues
// transforms and kernels without a host round trip. Each plan's work area comes from loom's device pool.
// With fft.callbacks = on the solver's pointwise work runs inside the transforms (stage_modes.hpp): three more plans
// carry cuFFT's LTO callbacks (callbacks_cufft.cu), whose arguments live in device memory written by a one-thread
// kernel queued before each transform (stream order, no host wait).
#include <cufftXt.h>

#include <map>

#include "loom/core/cuda_check.cuh"
#include "loom/hit/cufft_plan.hpp"
#include "loom/hit/transforms.hpp"
#include "loom_hit_callbacks_fatbin.h"  // loom_hit_callbacks_fatbin: callbacks_cufft.cu as LTO-IR (CMakeLists.txt)

namespace loom::hit {
namespace {

template <class T>
__global__ void put_argument(T* where, T value) {
  *where = value;
}

template <class T>
void queue_argument(T* where, const T& value) {
  put_argument<<<1, 1>>>(where, value);
  LOOM_CUDA_CHECK_LAUNCH();
}

class CufftTransforms final : public Transforms {
 public:
  explicit CufftTransforms(SpectralGrid grid) : Transforms(SlabLayout::whole(grid)), grid_(grid) {}
  ~CufftTransforms() override {
    for (auto* plans : {&inverse_, &forward_})
      for (auto& [count, plan] : *plans) destroy_cufft_plan(plan);
    for (auto* plan : {&load_plan_, &kept_plan_, &update_plan_})
      if (plan->handle != 0) destroy_cufft_plan(*plan);
    for (void* p : {static_cast<void*>(load_info_), static_cast<void*>(update_info_)})
      if (p != nullptr) core::device_pool().deallocate(p);
  }
  void inverse(Complex* modes, double* points, int count) override {
    LOOM_CUFFT_CHECK(cufftExecZ2D(plan(count, false), reinterpret_cast<cufftDoubleComplex*>(modes), points));
  }
  void forward(double* points, Complex* modes, int count) override {
    LOOM_CUFFT_CHECK(cufftExecD2Z(plan(count, true), points, reinterpret_cast<cufftDoubleComplex*>(modes)));
  }

  bool fuses() const override { return true; }
  // `work` is the transform's input as cuFFT sees it (its scratch; the load callback reads load.input instead).
  void inverse_loaded(const ModeLoad& load, Complex* work, double* points) override {
    make_callback_plans();
    queue_argument(load_info_, load);
    LOOM_CUFFT_CHECK(cufftExecZ2D(load_plan_.handle, reinterpret_cast<cufftDoubleComplex*>(work), points));
  }
  // N_x and N_y first (kept raw in work), then N_z, whose store updates the whole mode.
  void forward_stored(double* points, Complex* work, const ModeUpdate& update) override {
    make_callback_plans();
    ModeUpdate u = update;
    u.n_xy = work;
    queue_argument(update_info_, u);
    const Index P = layout().point_stride, M = layout().mode_stride;
    LOOM_CUFFT_CHECK(cufftExecD2Z(kept_plan_.handle, points, reinterpret_cast<cufftDoubleComplex*>(work)));
    LOOM_CUFFT_CHECK(
        cufftExecD2Z(update_plan_.handle, points + 2 * P, reinterpret_cast<cufftDoubleComplex*>(work + 2 * M)));
  }

 private:
  CufftPlan make(int count, bool forward, const CufftCallback* callback = nullptr) {
    long long dims[3] = {grid_.n, grid_.n, grid_.n};  // z, y, x: x fastest
    // Packed components: the default layout (null embeds) puts batch b at b n^3 reals and b modes() modes.
    return make_cufft_plan(3, dims, nullptr, 1, 0, nullptr, 1, 0, forward ? CUFFT_D2Z : CUFFT_Z2D, count, callback);
  }
  cufftHandle plan(int count, bool forward) {
    auto& plans = forward ? forward_ : inverse_;
    if (auto it = plans.find(count); it != plans.end()) return it->second.handle;
    plans[count] = make(count, forward);
    return plans[count].handle;
  }
  // On first use: cuFFT links the callbacks into its kernels while planning (seconds, once).
  void make_callback_plans() {
    if (load_plan_.handle != 0) return;
    load_info_ = static_cast<ModeLoad*>(core::device_pool().allocate(sizeof(ModeLoad)));
    update_info_ = static_cast<ModeUpdate*>(core::device_pool().allocate(sizeof(ModeUpdate)));
    const auto* fatbin = static_cast<const void*>(loom_hit_callbacks_fatbin);
    const std::size_t bytes = sizeof(loom_hit_callbacks_fatbin);
    const CufftCallback load{"loom_hit_load_fields", fatbin, bytes, CUFFT_CB_LD_COMPLEX_DOUBLE, load_info_};
    const CufftCallback kept{"loom_hit_store_kept", fatbin, bytes, CUFFT_CB_ST_COMPLEX_DOUBLE, update_info_};
    const CufftCallback update{"loom_hit_store_update", fatbin, bytes, CUFFT_CB_ST_COMPLEX_DOUBLE, update_info_};
    load_plan_ = make(6, false, &load);
    kept_plan_ = make(2, true, &kept);
    update_plan_ = make(1, true, &update);
  }

  SpectralGrid grid_;
  std::map<int, CufftPlan> inverse_, forward_;
  CufftPlan load_plan_, kept_plan_, update_plan_;
  ModeLoad* load_info_ = nullptr;
  ModeUpdate* update_info_ = nullptr;
};

}  // namespace

std::unique_ptr<Transforms> make_cufft_transforms(SpectralGrid grid) { return std::make_unique<CufftTransforms>(grid); }

}  // namespace loom::hit
