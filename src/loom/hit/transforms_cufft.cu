// cuFFT's batched real transforms (D2Z and Z2D) on the default stream, where loom's kernels run, so a step queues
// transforms and kernels without a host round trip. Each plan's work area comes from loom's device pool.
#include <cufft.h>

#include <map>
#include <string>

#include "loom/core/device_pool.hpp"
#include "loom/core/error.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {
namespace {

void check(cufftResult result, const char* call, int line) {
  if (result != CUFFT_SUCCESS)
    throw Error(std::string("cuFFT call ") + call + " failed with code " + std::to_string(int(result)) + " at " +
                __FILE__ + ":" + std::to_string(line));
}
#define LOOM_CUFFT_CHECK(call) check((call), #call, __LINE__)

struct Plan {
  cufftHandle handle = 0;
  void* work = nullptr;
};

class CufftTransforms final : public Transforms {
 public:
  explicit CufftTransforms(SpectralGrid grid) : Transforms(SlabLayout::whole(grid)), grid_(grid) {}
  ~CufftTransforms() override {
    for (auto* plans : {&inverse_, &forward_})
      for (auto& [count, plan] : *plans) {
        cufftDestroy(plan.handle);
        if (plan.work != nullptr) core::device_pool().deallocate(plan.work);
      }
  }
  void inverse(Complex* modes, double* points, int count) override {
    LOOM_CUFFT_CHECK(cufftExecZ2D(plan(count, false), reinterpret_cast<cufftDoubleComplex*>(modes), points));
  }
  void forward(double* points, Complex* modes, int count) override {
    LOOM_CUFFT_CHECK(cufftExecD2Z(plan(count, true), points, reinterpret_cast<cufftDoubleComplex*>(modes)));
  }

 private:
  cufftHandle plan(int count, bool forward) {
    auto& plans = forward ? forward_ : inverse_;
    if (auto it = plans.find(count); it != plans.end()) return it->second.handle;
    Plan p;
    LOOM_CUFFT_CHECK(cufftCreate(&p.handle));
    LOOM_CUFFT_CHECK(cufftSetAutoAllocation(p.handle, 0));
    long long dims[3] = {grid_.n, grid_.n, grid_.n};  // z, y, x: x fastest
    std::size_t work_bytes = 0;
    // Packed components: the default layout (null embeds) puts batch b at b n^3 reals and b modes() modes.
    LOOM_CUFFT_CHECK(cufftMakePlanMany64(p.handle, 3, dims, nullptr, 1, 0, nullptr, 1, 0,
                                         forward ? CUFFT_D2Z : CUFFT_Z2D, count, &work_bytes));
    if (work_bytes > 0) {
      p.work = core::device_pool().allocate(work_bytes);
      LOOM_CUFFT_CHECK(cufftSetWorkArea(p.handle, p.work));
    }
    plans[count] = p;
    return p.handle;
  }

  SpectralGrid grid_;
  std::map<int, Plan> inverse_, forward_;
};

}  // namespace

std::unique_ptr<Transforms> make_cufft_transforms(SpectralGrid grid) { return std::make_unique<CufftTransforms>(grid); }

}  // namespace loom::hit
