// The GPU halo exchange of a GPE slab (section 4.2 of the DEC-GPE paper: streams, events and asynchronous
// copies). Edge layers are updated on the edge stream, the interior on the interior stream; the edge stream then
// copies the edge layers to pinned host buffers (or, with a CUDA-aware MPI, MPI reads them on the device), the
// host exchanges them with MPI while the interior kernel runs, and the edge stream copies the received halos
// back. Two events join the streams after each step. Both streams are blocking streams, so work on the legacy
// default stream (observables, timers, copies) stays ordered after the step. No fmt here (nvcc).
#include <cuda_runtime.h>

#include "loom/comm/halo_exchange.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/cuda_check.cuh"
#include "loom/gpe/parallel/slab_exchange.hpp"

namespace loom::gpe {
namespace {

class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t bytes) : p_(bytes ? cuda::allocate_pinned(bytes) : nullptr) {}
  ~PinnedBuffer() {
    if (p_) cudaFreeHost(p_);  // no throw from a destructor
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* get() const { return p_; }

 private:
  void* p_;
};

class CudaSlabExchange final : public SlabExchange {
 public:
  CudaSlabExchange(const SlabDomain& slab, bool cuda_aware, Index layer_cells)
      : SlabExchange(slab, layer_cells),
        cuda_aware_(cuda_aware),
        halo_(slab.comm(), slab.slab(), halo_bytes()),
        send_below_(cuda_aware ? 0 : halo_bytes()),
        send_above_(cuda_aware ? 0 : halo_bytes()),
        receive_below_(cuda_aware ? 0 : halo_bytes()),
        receive_above_(cuda_aware ? 0 : halo_bytes()) {
    LOOM_CUDA_CHECK(cudaStreamCreate(&edge_));
    LOOM_CUDA_CHECK(cudaStreamCreate(&interior_));
    LOOM_CUDA_CHECK(cudaEventCreateWithFlags(&edge_done_, cudaEventDisableTiming));
    LOOM_CUDA_CHECK(cudaEventCreateWithFlags(&interior_done_, cudaEventDisableTiming));
  }
  ~CudaSlabExchange() override {
    // Unchecked on purpose: a destructor must not throw, and a failure here has been reported by the step before.
    cudaStreamSynchronize(edge_);
    cudaStreamSynchronize(interior_);
    cudaEventDestroy(edge_done_);
    cudaEventDestroy(interior_done_);
    cudaStreamDestroy(edge_);
    cudaStreamDestroy(interior_);
  }

  void* edge_stream() const override { return edge_; }
  void* interior_stream() const override { return interior_; }

  void start(Complex* field) override {
    if (cuda_aware_) return;  // MPI reads the device once the edge stream is done (finish)
    const comm::HaloBuffers d = buffers_of(field);
    const comm::Slab& s = slab_.slab();
    if (s.below >= 0)
      LOOM_CUDA_CHECK(cudaMemcpyAsync(send_below_.get(), d.send_below, halo_bytes(), cudaMemcpyDeviceToHost, edge_));
    if (s.above >= 0)
      LOOM_CUDA_CHECK(cudaMemcpyAsync(send_above_.get(), d.send_above, halo_bytes(), cudaMemcpyDeviceToHost, edge_));
  }

  void finish(Complex* field) override {
    const comm::HaloBuffers d = buffers_of(field);
    // The host waits for the edge layers (and their copies) only: the interior kernel keeps running.
    LOOM_CUDA_CHECK(cudaStreamSynchronize(edge_));
    if (cuda_aware_) {
      halo_.start(d);
      halo_.wait();
    } else {
      halo_.start({send_below_.get(), send_above_.get(), receive_below_.get(), receive_above_.get()});
      halo_.wait();
      const comm::Slab& s = slab_.slab();
      if (s.below >= 0)
        LOOM_CUDA_CHECK(
            cudaMemcpyAsync(d.receive_below, receive_below_.get(), halo_bytes(), cudaMemcpyHostToDevice, edge_));
      if (s.above >= 0)
        LOOM_CUDA_CHECK(
            cudaMemcpyAsync(d.receive_above, receive_above_.get(), halo_bytes(), cudaMemcpyHostToDevice, edge_));
    }
    // Join: the next step's edge kernels read layers the interior kernel wrote, and its interior kernel writes
    // over psi(n), which this step's edge kernels read.
    LOOM_CUDA_CHECK(cudaEventRecord(edge_done_, edge_));
    LOOM_CUDA_CHECK(cudaEventRecord(interior_done_, interior_));
    LOOM_CUDA_CHECK(cudaStreamWaitEvent(interior_, edge_done_, 0));
    LOOM_CUDA_CHECK(cudaStreamWaitEvent(edge_, interior_done_, 0));
  }

  void exchange(Complex* field) override {
    // The field was written on the default stream: let the edge stream wait for it first.
    LOOM_CUDA_CHECK(cudaDeviceSynchronize());
    start(field);
    finish(field);
    LOOM_CUDA_CHECK(cudaDeviceSynchronize());
  }

  std::string_view transport() const override { return cuda_aware_ ? "CUDA-aware MPI" : "pinned host staging"; }

 private:
  bool cuda_aware_;
  comm::HaloExchange halo_;
  PinnedBuffer send_below_, send_above_, receive_below_, receive_above_;
  cudaStream_t edge_ = nullptr, interior_ = nullptr;
  cudaEvent_t edge_done_ = nullptr, interior_done_ = nullptr;
};

}  // namespace

std::unique_ptr<SlabExchange> make_cuda_slab_exchange(const SlabDomain& slab, bool cuda_aware, Index layer_cells) {
  return std::make_unique<CudaSlabExchange>(slab, cuda_aware, layer_cells);
}

}  // namespace loom::gpe
