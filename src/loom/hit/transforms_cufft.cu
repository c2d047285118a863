// cuFFT's batched real transforms (D2Z and Z2D) on the default stream, where loom's kernels run, so a step queues
// transforms and kernels without a host round trip. Each plan's work area comes from loom's device pool.
#include <map>

#include "loom/hit/cufft_plan.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {
namespace {

class CufftTransforms final : public Transforms {
 public:
  explicit CufftTransforms(SpectralGrid grid) : Transforms(SlabLayout::whole(grid)), grid_(grid) {}
  ~CufftTransforms() override {
    for (auto* plans : {&inverse_, &forward_})
      for (auto& [count, plan] : *plans) destroy_cufft_plan(plan);
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
    long long dims[3] = {grid_.n, grid_.n, grid_.n};  // z, y, x: x fastest
    // Packed components: the default layout (null embeds) puts batch b at b n^3 reals and b modes() modes.
    plans[count] = make_cufft_plan(3, dims, nullptr, 1, 0, nullptr, 1, 0, forward ? CUFFT_D2Z : CUFFT_Z2D, count);
    return plans[count].handle;
  }

  SpectralGrid grid_;
  std::map<int, CufftPlan> inverse_, forward_;
};

}  // namespace

std::unique_ptr<Transforms> make_cufft_transforms(SpectralGrid grid) { return std::make_unique<CufftTransforms>(grid); }

}  // namespace loom::hit
