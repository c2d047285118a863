// The separable shell route's two kernels (the arithmetic in shell_separable.hpp, shared with the CPU form):
// the spectral pass, a block per (q group, component) with G and the group's theta matrices in shared memory,
// then the physical pass, a thread per (radius, phi tile, theta, component) reading everything through the
// read-only cache (no shared memory, no synchronisation).
#include <algorithm>

#include "loom/core/cuda_check.cuh"
#include "loom/spectral/gpu_apply.hpp"

namespace loom::spectral::gpu {

namespace {

// physical: 72 registers, so 128-thread blocks keep 28 warps per SM where 256 would keep 24.
constexpr int spectral_threads = 256, physical_threads = 128;

__global__ void __launch_bounds__(spectral_threads)
    spectral_kernel(sweep::Separable s, sweep::ComponentMap map, Index components, double* scratch) {
  extern __shared__ double shared[];
  const sweep::Lanes lanes{static_cast<int>(threadIdx.x), static_cast<int>(blockDim.x)};
  sweep::spectral_block(s, blockIdx.x, blockIdx.y, components, map, scratch, shared, lanes);
}

__global__ void __launch_bounds__(physical_threads)
    physical_kernel(sweep::Separable s, Index components, const double* jacobian, sweep::ComponentMap map,
                    const double* scratch, Index tasks) {
  for (Index t = blockIdx.x * Index{blockDim.x} + threadIdx.x; t < tasks; t += Index{gridDim.x} * blockDim.x)
    sweep::physical_task(s, components, jacobian, map, scratch, t);
}

}  // namespace

void allow_separable_shared(Index bytes) {
  static Index allowed = 48 * 1024;
  if (bytes <= allowed) return;
  LOOM_CUDA_CHECK(cudaFuncSetAttribute(spectral_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(bytes)));
  allowed = bytes;
}

void separable_shell(const sweep::Separable& s, const sweep::ComponentMap& map, const double* jacobian,
                     double* scratch) {
  const Index components = map.components();
  sweep::check_tasks(s, components);
  const dim3 blocks(static_cast<unsigned>(s.groups()), static_cast<unsigned>(components));
  const auto bytes = static_cast<std::size_t>(sweep::spectral_shared(s)) * sizeof(double);
  spectral_kernel<<<blocks, spectral_threads, bytes>>>(s, map, components, scratch);
  LOOM_CUDA_CHECK_LAUNCH();
  const Index tasks = sweep::physical_tasks(s, components);
  const auto grid = static_cast<unsigned>(std::min<Index>((tasks + physical_threads - 1) / physical_threads, 65535));
  physical_kernel<<<grid, physical_threads>>>(s, components, jacobian, map, scratch, tasks);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace loom::spectral::gpu
