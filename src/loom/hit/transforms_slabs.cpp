#include "loom/hit/transforms_slabs.hpp"

#include <cstring>

#include "loom/comm/dense_alltoall.hpp"
#include "loom/core/array.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/error.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/core/pinned_buffer.hpp"
#include "loom/core/timer.hpp"

namespace loom::hit {
namespace {

// Components at least 64 bytes apart, so that FFTW's plans (made for one component) fit every component.
Index round_up(Index values, Index multiple) { return (values + multiple - 1) / multiple * multiple; }

class SlabTransforms final : public Transforms {
 public:
  SlabTransforms(core::Backend backend, SpectralGrid grid, FftPlanning planning, const comm::Communicator& comm)
      : Transforms(slab_transforms_layout(grid, comm.size(), comm.rank())),
        backend_(backend),
        comm_(comm),
        e_(SlabExchange::of(grid.n, comm.size(), comm.rank())),
        ffts_(backend == core::Backend::cuda ? make_cufft_plane_line_ffts(e_)
                                             : make_fftw_plane_line_ffts(e_, planning)),
        stride_(round_up(e_.buffer_values(), 4)),
        first_(6 * std::size_t(stride_)),
        second_(6 * std::size_t(stride_)) {
    // Always staged on the GPU, even where the MPI takes device pointers: on the H200 host (2 ranks sharing the GPU,
    // OpenMPI reporting CUDA awareness) MPI_Alltoall of device buffers moved about 1.7 GB/s, the step 60x the one
    // rank's (docs/performance.md, 2026-12-02); pinned host copies run at the bus's speed.
    if (backend == core::Backend::cuda && comm.size() > 1) {
      staged_send_ = std::make_unique<core::PinnedBuffer>(buffer_bytes());
      staged_receive_ = std::make_unique<core::PinnedBuffer>(buffer_bytes());
    }
  }

  // points -> plane spectra (in `first_`) -> exchange buffers (`second_`) -> received (`first_`) -> modes.
  void forward(double* points, Complex* modes, int count) override {
    const SlabLayout& L = layout();
    Complex *a = buffer(first_), *b = buffer(second_);
    for (int c = 0; c < count; ++c) ffts_->planes_forward(points + c * L.point_stride, a + c * stride_);
    move(a, stride_, b, count, true, true);
    for (int c = 0; c < count; ++c) exchange(b + c * stride_, a + c * stride_);
    move(modes, L.mode_stride, a, count, false, false);
    for (int c = 0; c < count; ++c) ffts_->lines(modes + c * L.mode_stride, true);
  }
  // modes -> exchange buffers (`first_`) -> received (`second_`) -> plane spectra (`first_`) -> points.
  ExchangeCounts exchange_counts() const override { return counts_; }
  void inverse(Complex* modes, double* points, int count) override {
    const SlabLayout& L = layout();
    Complex *a = buffer(first_), *b = buffer(second_);
    for (int c = 0; c < count; ++c) ffts_->lines(modes + c * L.mode_stride, false);
    move(modes, L.mode_stride, a, count, false, true);
    for (int c = 0; c < count; ++c) exchange(a + c * stride_, b + c * stride_);
    move(a, stride_, b, count, true, false);
    for (int c = 0; c < count; ++c) ffts_->planes_inverse(a + c * stride_, points + c * L.point_stride);
  }

  // Pack (to_buffer) or unpack `count` components between a field (the plane spectra, or the modes; components
  // field_stride apart) and the exchange buffers, by the maps of slab_exchange.hpp.
  void move(Complex* field, Index field_stride, Complex* buffer, int count, bool planes, bool to_buffer) {
    const SlabExchange e = e_;
    const Index per = planes ? e.plane_values() : e.mode_values(), S = stride_;
    core::parallel_for(backend_, count * per, [=] LOOM_HOST_DEVICE(Index i) {
      const Index c = i / per, j = i % per;
      const Index slot = c * S + (planes ? e.plane_slot(j) : e.mode_slot(j));
      Complex& f = field[c * field_stride + j];
      if (to_buffer)
        buffer[slot] = f;
      else
        f = buffer[slot];
    });
  }

 private:
  std::size_t buffer_bytes() const { return sizeof(Complex) * std::size_t(e_.buffer_values()); }
  Complex* buffer(core::Array<Complex>& a) { return a.write(core::where(backend_)); }

  // One component's MPI_Alltoall: on the GPU through the pinned buffers (after the kernels that filled `send`).
  void exchange(const Complex* send, Complex* receive) {
    const std::size_t block = sizeof(Complex) * std::size_t(e_.peer_values());
    if (backend_ == core::Backend::cuda) cuda::synchronize();  // the kernels that filled `send`, not timed here
    const core::WallTimer timer;
    if (backend_ == core::Backend::cpu) {
      comm::all_to_all(comm_, send, receive, block);
    } else if (!staged_send_) {
      cuda::copy_device_to_device(receive, send, block);  // one rank
    } else {
      cuda::copy_device_to_host(staged_send_->get(), send, buffer_bytes());
      comm::all_to_all(comm_, staged_send_->get(), staged_receive_->get(), block);
      cuda::copy_host_to_device(receive, staged_receive_->get(), buffer_bytes());
      counts_.staged_bytes += 2 * double(buffer_bytes());
    }
    counts_.seconds += timer.seconds();
    counts_.sent_bytes += double(comm_.size() - 1) * double(block);
    ++counts_.exchanges;
  }

  core::Backend backend_;
  comm::Communicator comm_;
  SlabExchange e_;
  std::unique_ptr<PlaneLineFfts> ffts_;
  Index stride_;  // of a component in the exchange buffers (and of the plane spectra)
  core::Array<Complex> first_, second_;
  std::unique_ptr<core::PinnedBuffer> staged_send_, staged_receive_;
  ExchangeCounts counts_;
};

}  // namespace

SlabLayout slab_transforms_layout(SpectralGrid grid, int ranks, int rank) {
  const SlabExchange e = SlabExchange::of(grid.n, ranks, rank);
  SlabLayout L{grid, rank * e.block, e.planes, grid.n, round_up(e.mode_values(), 4),
               round_up(e.planes * grid.n * grid.n, 8)};
  L.y0 = rank * e.block;
  L.ny = e.rows;
  return L;
}

std::unique_ptr<Transforms> make_slab_transforms(core::Backend backend, SpectralGrid grid, FftPlanning planning,
                                                 const comm::Communicator& comm) {
  const SlabExchange e = SlabExchange::of(grid.n, comm.size(), comm.rank());
  LOOM_REQUIRE(e.planes > 0, "hit: a rank of the slab transforms holds no plane (too many ranks for grid.n)");
  return std::make_unique<SlabTransforms>(backend, grid, planning, comm);
}

}  // namespace loom::hit
