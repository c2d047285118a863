// fft.pruned = on with FFTW (the CPU, one rank): the 3D real transforms as three passes of batched 1D transforms
// (FFTW's guru64 interface: several batch dimensions, so each pass takes exactly the box's lines of
// kept_lines.hpp). Inverse: along z for the box's (kx, ky) columns, along y for kx < kx_count, then
// complex-to-real along x for every line; forward in the reverse order. The complex passes run in place on the
// modes; plans are made once per component count on scratch arrays (FFTW_MEASURE writes its arrays) and run on
// any array of the same alignment.
#include <fftw3.h>

#include <array>
#include <map>

#include "loom/core/backend.hpp"
#include "loom/core/error.hpp"
#include "loom/hit/kept_lines.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {
namespace {

using Dim = fftw_iodim64;

struct PrunedPlans {
  std::array<fftw_plan, 2> z{};  // the low and the high block of jy (the high one null when empty)
  fftw_plan y = nullptr, x = nullptr;
};

class FftwPrunedTransforms final : public Transforms {
 public:
  FftwPrunedTransforms(SpectralGrid grid, Dealiasing d, FftPlanning planning)
      : Transforms(SlabLayout::whole(grid)),
        lines_(kept_lines(grid, d)),
        flags_(planning == FftPlanning::measure ? FFTW_MEASURE : FFTW_ESTIMATE) {
    init_fftw_threads();
  }
  ~FftwPrunedTransforms() override {
    for (auto* plans : {&inverse_, &forward_})
      for (auto& [count, p] : *plans)
        for (fftw_plan q : {p.z[0], p.z[1], p.y, p.x})
          if (q != nullptr) fftw_destroy_plan(q);
  }
  void inverse(Complex* modes, double* points, int count) override {
    const PrunedPlans& p = plans(count, false);
    auto* s = reinterpret_cast<fftw_complex*>(modes);
    run_columns(p, s);
    fftw_execute_dft(p.y, s, s);
    fftw_execute_dft_c2r(p.x, s, points);
  }
  void forward(double* points, Complex* modes, int count) override {
    const PrunedPlans& p = plans(count, true);
    auto* s = reinterpret_cast<fftw_complex*>(modes);
    fftw_execute_dft_r2c(p.x, points, s);
    fftw_execute_dft(p.y, s, s);
    run_columns(p, s);
  }

 private:
  Index block_offset(int b) const { return b == 0 ? 0 : lines_.high_start() * lines_.grid.half(); }
  void run_columns(const PrunedPlans& p, fftw_complex* s) const {
    for (int b = 0; b < 2; ++b)
      if (p.z[std::size_t(b)] != nullptr) fftw_execute_dft(p.z[std::size_t(b)], s + block_offset(b), s + block_offset(b));
  }
  const PrunedPlans& plans(int count, bool forward) {
    auto& plans = forward ? forward_ : inverse_;
    if (auto it = plans.find(count); it != plans.end()) return it->second;
    const SpectralGrid g = lines_.grid;
    const Index n = g.n, h = g.half(), M = g.modes(), P = g.points();
    double* real = fftw_alloc_real(std::size_t(P * count));
    fftw_complex* s = fftw_alloc_complex(std::size_t(M * count));
    LOOM_REQUIRE(real != nullptr && s != nullptr, "fftw: out of memory while planning");
    fftw_plan_with_nthreads(core::cpu_threads());
    const int sign = forward ? FFTW_FORWARD : FFTW_BACKWARD;
    PrunedPlans p;
    const Index rows[2] = {lines_.low_rows(), lines_.high_rows()};
    for (int b = 0; b < 2; ++b) {
      if (rows[b] == 0) continue;
      const Dim along{n, n * h, n * h}, batch[3] = {{count, M, M}, {rows[b], h, h}, {lines_.kx_count, 1, 1}};
      fftw_complex* at = s + block_offset(b);
      p.z[std::size_t(b)] = fftw_plan_guru64_dft(1, &along, 3, batch, at, at, sign, flags_);
    }
    const Dim along_y{n, h, h}, planes[3] = {{count, M, M}, {n, n * h, n * h}, {lines_.kx_count, 1, 1}};
    p.y = fftw_plan_guru64_dft(1, &along_y, 3, planes, s, s, sign, flags_);
    // Component c's line l starts at c M + l h in the modes and c P + l n on the grid.
    const Dim along_x{n, 1, 1}, to_grid[2] = {{count, M, P}, {n * n, h, n}}, to_modes[2] = {{count, P, M}, {n * n, n, h}};
    p.x = forward ? fftw_plan_guru64_dft_r2c(1, &along_x, 2, to_modes, real, s, flags_)
                  : fftw_plan_guru64_dft_c2r(1, &along_x, 2, to_grid, s, real, flags_ | FFTW_DESTROY_INPUT);
    fftw_free(real);
    fftw_free(s);
    LOOM_REQUIRE(p.y != nullptr && p.x != nullptr && p.z[0] != nullptr, "fftw: no plan for a pruned pass");
    return plans[count] = p;
  }

  KeptLines lines_;
  unsigned flags_;
  std::map<int, PrunedPlans> inverse_, forward_;
};

}  // namespace

std::unique_ptr<Transforms> make_fftw_pruned_transforms(SpectralGrid grid, Dealiasing dealiasing, FftPlanning planning) {
  return std::make_unique<FftwPrunedTransforms>(grid, dealiasing, planning);
}

}  // namespace loom::hit
