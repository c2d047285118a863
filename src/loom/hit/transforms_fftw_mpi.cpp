// FFTW's MPI real transforms (fftw3-mpi) of the grid in slabs along z over the ranks of a communicator, threaded
// as the one-rank transforms are. The output is not transposed (no FFTW_MPI_TRANSPOSED_OUT): the modes stay
// distributed over jz as the points are over z, so every per-mode formula sees its global wavevector through
// SlabLayout alone, at the price of FFTW's transposes back. FFTW plans one component at a time (its `howmany`
// interleaves components, loom stores them one after another), so a batch runs the plan on each component.
#include <fftw3-mpi.h>

#include <map>
#include <mutex>

#include "loom/comm/mpi_detail.hpp"
#include "loom/core/error.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::hit {
namespace {

// Components 64 bytes apart at least, so that each has the alignment the plan was made for.
Index aligned(Index values_of_16_bytes) { return (values_of_16_bytes + 3) / 4 * 4; }

SlabLayout fftw_mpi_layout(SpectralGrid g, MPI_Comm comm) {
  ptrdiff_t local_n0 = 0, local_0_start = 0;
  const ptrdiff_t alloc = fftw_mpi_local_size_3d(g.n, g.n, g.half(), comm, &local_n0, &local_0_start);
  const Index stride = aligned(Index(alloc));
  return {g, Index(local_0_start), Index(local_n0), 2 * g.half(), stride, 2 * stride};
}

class FftwMpiTransforms final : public Transforms {
 public:
  FftwMpiTransforms(SpectralGrid grid, FftPlanning planning, MPI_Comm comm)
      : Transforms(fftw_mpi_layout(grid, comm)),
        comm_(comm),
        flags_((planning == FftPlanning::measure ? FFTW_MEASURE : FFTW_ESTIMATE) | FFTW_DESTROY_INPUT) {}
  ~FftwMpiTransforms() override {
    for (fftw_plan p : {forward_, inverse_})
      if (p != nullptr) fftw_destroy_plan(p);
  }

  void inverse(Complex* modes, double* points, int count) override {
    const SlabLayout& l = layout();
    for (int c = 0; c < count; ++c)
      fftw_mpi_execute_dft_c2r(plan(false), reinterpret_cast<fftw_complex*>(modes + c * l.mode_stride),
                               points + c * l.point_stride);
  }
  void forward(double* points, Complex* modes, int count) override {
    const SlabLayout& l = layout();
    for (int c = 0; c < count; ++c)
      fftw_mpi_execute_dft_r2c(plan(true), points + c * l.point_stride,
                               reinterpret_cast<fftw_complex*>(modes + c * l.mode_stride));
  }

 private:
  // Made on first use, on every rank in the same order (planning is collective), on scratch arrays.
  fftw_plan plan(bool forward) {
    fftw_plan& p = forward ? forward_ : inverse_;
    if (p != nullptr) return p;
    const SlabLayout& l = layout();
    const ptrdiff_t n = l.grid.n;
    double* real = fftw_alloc_real(std::size_t(l.point_stride));
    fftw_complex* spectral = fftw_alloc_complex(std::size_t(l.mode_stride));
    LOOM_REQUIRE(real != nullptr && spectral != nullptr, "fftw-mpi: out of memory while planning");
    fftw_plan_with_nthreads(core::cpu_threads());
    p = forward ? fftw_mpi_plan_dft_r2c_3d(n, n, n, real, spectral, comm_, flags_)
                : fftw_mpi_plan_dft_c2r_3d(n, n, n, spectral, real, comm_, flags_);
    fftw_free(real);
    fftw_free(spectral);
    LOOM_REQUIRE(p != nullptr, "fftw-mpi: no plan for this transform");
    return p;
  }

  MPI_Comm comm_;
  unsigned flags_;
  fftw_plan forward_ = nullptr, inverse_ = nullptr;
};

}  // namespace

bool fftw_mpi_built() { return true; }

std::unique_ptr<Transforms> make_fftw_mpi_transforms(SpectralGrid grid, FftPlanning planning,
                                                     const comm::Communicator& comm) {
  LOOM_REQUIRE(comm::mpi_active(), "fftw-mpi: MPI is not initialised (start loom under mpiexec)");
  init_fftw_threads();
  static std::once_flag once;
  std::call_once(once, [] { fftw_mpi_init(); });
  return std::make_unique<FftwMpiTransforms>(grid, planning, comm::detail::native(comm));
}

}  // namespace loom::hit
