// fft.pruned = on with FFTW (the CPU, one rank): the 3D real transforms as passes of batched transforms (FFTW's
// guru64 interface: several batch dimensions, so the z pass takes exactly the box's columns of kept_lines.hpp).
// Inverse: along z for the box's (kx, ky) columns; then the planes form: along y for kx < kx_count and
// complex-to-real along x for every line; the columns form: complex-to-real over (y, x) for every z plane. The
// forward in the reverse order. The complex passes run in place on the modes; plans are made once per component count on scratch arrays (FFTW_MEASURE writes its arrays) and run on
// any array of the same alignment. inverse_from_kept(): the z pass out of place from the kept input into the work
// array (a plan of its own: FFTW's new-array execution keeps a plan's placement), whose modes outside the box's z
// columns are zeroed first, then the other passes in place on the work array.
#include <fftw3.h>

#include <algorithm>
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
  std::array<fftw_plan, 2> z_from_kept{};  // the inverse's z pass out of place (inverse_from_kept)
  fftw_plan y = nullptr;          // the planes form only
  fftw_plan x = nullptr;          // the real pass: along x (planes), over (y, x) (columns)
};

class FftwPrunedTransforms final : public Transforms {
 public:
  FftwPrunedTransforms(SpectralGrid grid, Dealiasing d, FftPlanning planning, PrunedForm form)
      : Transforms(SlabLayout::whole(grid)),
        lines_(kept_lines(grid, d)),
        form_(form),
        flags_(planning == FftPlanning::measure ? FFTW_MEASURE : FFTW_ESTIMATE) {
    init_fftw_threads();
  }
  ~FftwPrunedTransforms() override {
    for (auto* plans : {&inverse_, &forward_})
      for (auto& [count, p] : *plans)
        for (fftw_plan q : {p.z[0], p.z[1], p.z_from_kept[0], p.z_from_kept[1], p.y, p.x})
          if (q != nullptr) fftw_destroy_plan(q);
  }
  void inverse(Complex* modes, double* points, int count) override {
    const PrunedPlans& p = plans(count, false);
    auto* s = reinterpret_cast<fftw_complex*>(modes);
    run_columns(p.z, s, s);
    finish_inverse(p, s, points);
  }
  bool reads_kept_input() const override { return true; }
  void inverse_from_kept(const Complex* kept, Complex* work, double* points, int count) override {
    const PrunedPlans& p = plans(count, false);
    zero_outside_columns(work, count);
    auto* s = reinterpret_cast<fftw_complex*>(work);
    run_columns(p.z_from_kept, reinterpret_cast<fftw_complex*>(const_cast<Complex*>(kept)), s);
    finish_inverse(p, s, points);
  }
  void forward(double* points, Complex* modes, int count) override {
    const PrunedPlans& p = plans(count, true);
    auto* s = reinterpret_cast<fftw_complex*>(modes);
    fftw_execute_dft_r2c(p.x, points, s);
    if (p.y != nullptr) fftw_execute_dft(p.y, s, s);
    run_columns(p.z, s, s);
  }

 private:
  Index block_offset(int b) const { return b == 0 ? 0 : lines_.high_start() * lines_.grid.half(); }
  void run_columns(const std::array<fftw_plan, 2>& z, fftw_complex* in, fftw_complex* out) const {
    for (int b = 0; b < 2; ++b)
      if (z[std::size_t(b)] != nullptr) fftw_execute_dft(z[std::size_t(b)], in + block_offset(b), out + block_offset(b));
  }
  // The passes after the z pass, in place on s.
  static void finish_inverse(const PrunedPlans& p, fftw_complex* s, double* points) {
    if (p.y != nullptr) fftw_execute_dft(p.y, s, s);
    fftw_execute_dft_c2r(p.x, s, points);
  }
  // What the z pass does not write and the later passes read: every mode outside the box's z columns (kx <
  // kx_count in the kept rows of jy), in every z plane of `count` components.
  void zero_outside_columns(Complex* work, int count) const {
    const Index n = lines_.grid.n, h = lines_.grid.half(), rows = Index(count) * n * n, kx = lines_.kx_count;
#pragma omp parallel for schedule(static)
    for (Index r = 0; r < rows; ++r) {
      const Index jy = r % n;
      const bool kept_row = jy < lines_.low_rows() || jy >= lines_.high_start();
      std::fill(work + r * h + (kept_row ? kx : 0), work + (r + 1) * h, Complex{});
    }
  }
  const PrunedPlans& plans(int count, bool forward) {
    auto& plans = forward ? forward_ : inverse_;
    if (auto it = plans.find(count); it != plans.end()) return it->second;
    const SpectralGrid g = lines_.grid;
    const Index n = g.n, h = g.half(), M = g.modes(), P = g.points();
    double* real = fftw_alloc_real(std::size_t(P * count));
    fftw_complex* s = fftw_alloc_complex(std::size_t(M * count));
    fftw_complex* kept = forward ? nullptr : fftw_alloc_complex(std::size_t(M * count));
    LOOM_REQUIRE(real != nullptr && s != nullptr && (forward || kept != nullptr), "fftw: out of memory while planning");
    fftw_plan_with_nthreads(core::cpu_threads());
    const int sign = forward ? FFTW_FORWARD : FFTW_BACKWARD;
    PrunedPlans p;
    const Index rows[2] = {lines_.low_rows(), lines_.high_rows()};
    for (int b = 0; b < 2; ++b) {
      if (rows[b] == 0) continue;
      const Dim along{n, n * h, n * h}, batch[3] = {{count, M, M}, {rows[b], h, h}, {lines_.kx_count, 1, 1}};
      fftw_complex* at = s + block_offset(b);
      p.z[std::size_t(b)] = fftw_plan_guru64_dft(1, &along, 3, batch, at, at, sign, flags_);
      if (!forward) {
        p.z_from_kept[std::size_t(b)] = fftw_plan_guru64_dft(1, &along, 3, batch, kept + block_offset(b), at, sign, flags_);
        LOOM_REQUIRE(p.z_from_kept[std::size_t(b)] != nullptr, "fftw: no plan for a pruned pass");
      }
    }
    if (form_ == PrunedForm::planes) {
      const Dim along_y{n, h, h}, planes[3] = {{count, M, M}, {n, n * h, n * h}, {lines_.kx_count, 1, 1}};
      p.y = fftw_plan_guru64_dft(1, &along_y, 3, planes, s, s, sign, flags_);
      LOOM_REQUIRE(p.y != nullptr, "fftw: no plan for a pruned pass");
    }
    p.x = real_pass(count, forward, real, s);
    fftw_free(real);
    fftw_free(s);
    fftw_free(kept);
    LOOM_REQUIRE(p.x != nullptr && p.z[0] != nullptr, "fftw: no plan for a pruned pass");
    return plans[count] = p;
  }

  // Every line along x (planes) or every z plane (columns) of every component: line l of component c at c M + l h
  // in the modes and c P + l n on the grid, plane j at c M + j n h and c P + j n^2.
  fftw_plan real_pass(int count, bool forward, double* real, fftw_complex* s) const {
    const Index n = lines_.grid.n, h = lines_.grid.half(), M = lines_.grid.modes(), P = lines_.grid.points();
    const bool planes = form_ == PrunedForm::planes;
    const int rank = planes ? 1 : 2;
    const Dim x_to_grid[2] = {{n, h, n}, {n, 1, 1}}, x_to_modes[2] = {{n, n, h}, {n, 1, 1}};
    const Dim* to_grid = planes ? &x_to_grid[1] : x_to_grid;
    const Dim* to_modes = planes ? &x_to_modes[1] : x_to_modes;
    const Index rows = planes ? n * n : n, row_modes = planes ? h : n * h, row_points = planes ? n : n * n;
    const Dim grid_batch[2] = {{count, M, P}, {rows, row_modes, row_points}};
    const Dim mode_batch[2] = {{count, P, M}, {rows, row_points, row_modes}};
    return forward ? fftw_plan_guru64_dft_r2c(rank, to_modes, 2, mode_batch, real, s, flags_)
                   : fftw_plan_guru64_dft_c2r(rank, to_grid, 2, grid_batch, s, real, flags_ | FFTW_DESTROY_INPUT);
  }

  KeptLines lines_;
  PrunedForm form_;
  unsigned flags_;
  std::map<int, PrunedPlans> inverse_, forward_;
};

}  // namespace

std::unique_ptr<Transforms> make_fftw_pruned_transforms(SpectralGrid grid, Dealiasing dealiasing, FftPlanning planning,
                                                        PrunedForm form) {
  return std::make_unique<FftwPrunedTransforms>(grid, dealiasing, planning, form);
}

}  // namespace loom::hit
