// The plain leapfrog step over some layers on CUDA (plain.cpp): the slab path; a whole lattice's plain step is a
// core::parallel_for. No fmt here (nvcc cannot compile it).
#include <cuda_runtime.h>

#include <algorithm>

#include "loom/core/cuda_check.cuh"
#include "loom/gpe/kernels/launches.hpp"

namespace loom::gpe {
namespace {

constexpr int block_threads = 256;

// The plain formula, one thread per vertex of the layers (the slab path; a whole lattice uses parallel_for).
__global__ void __launch_bounds__(block_threads) plain_step(Hamiltonian h, const Complex* __restrict__ now,
                                                            Complex* __restrict__ other, double dt, Index first,
                                                            Index count) {
  const Index stride = Index(gridDim.x) * blockDim.x;
  for (Index k = Index(blockIdx.x) * blockDim.x + threadIdx.x; k < count; k += stride)
    leapfrog_update(h, now, other, dt, first + k);
}

void launch_plain(const Hamiltonian& h, const Complex* now, Complex* other, double dt, LayerRange layers,
                  cudaStream_t stream) {
  const Index per_layer = Index(h.lattice.cells) * h.lattice.nx * h.lattice.ny;
  const Index count = per_layer * layers.count;
  const Index blocks = std::min<Index>((count + block_threads - 1) / block_threads, Index(1) << 20);
  plain_step<<<static_cast<unsigned>(blocks), block_threads, 0, stream>>>(h, now, other, dt, per_layer * layers.first,
                                                                           count);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace

void leapfrog_step_cuda_plain(const Hamiltonian& h, const Complex* now, Complex* other, double dt, LayerRange layers,
                              void* stream_handle) {
  require_layers_inside(h.lattice, layers);
  if (layers.empty()) return;
  launch_plain(h, now, other, dt, layers, static_cast<cudaStream_t>(stream_handle));
}

}  // namespace loom::gpe
