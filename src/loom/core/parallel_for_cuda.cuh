// The CUDA side of core::parallel_for / parallel_sum (included by parallel_for.hpp under nvcc only).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "loom/core/cuda_check.cuh"
#include "loom/core/host_device.hpp"

namespace loom::core::cuda_detail {

constexpr int threads_per_block = 256;
constexpr int sum_blocks = 1024;  // fixed, so that sums are reproducible for every n

template <class Body>
__global__ void __launch_bounds__(threads_per_block) for_kernel(Index n, Body body) {
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) body(i);
}

inline int max_resident_blocks() {
  static const int blocks = [] {
    int device = 0, sms = 0;
    LOOM_CUDA_CHECK(cudaGetDevice(&device));
    LOOM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms * (2048 / threads_per_block);
  }();
  return blocks;
}

template <class Body>
void launch_for(Index n, const Body& body) {
  const Index needed = (n + threads_per_block - 1) / threads_per_block;
  const int blocks = static_cast<int>(std::min<Index>(needed, 8 * static_cast<Index>(max_resident_blocks())));
  for_kernel<<<blocks, threads_per_block>>>(n, body);
  LOOM_CUDA_CHECK_LAUNCH();
}

// A small device buffer per host thread for per-block partial results, reused across calls (the reductions
// of one step are small and frequent).
inline double* reduction_scratch() {
  thread_local struct Partials {
    double* device = nullptr;
    ~Partials() {
      if (device) cudaFree(device);
    }
  } partials;
  if (partials.device == nullptr) LOOM_CUDA_CHECK(cudaMalloc(&partials.device, sum_blocks * sizeof(double)));
  return partials.device;
}

template <class Body>
__global__ void __launch_bounds__(threads_per_block) sum_kernel(Index n, Body body, double* partials) {
  __shared__ double buffer[threads_per_block];
  double s = 0;
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) s += body(i);
  buffer[threadIdx.x] = s;
  __syncthreads();
  for (int width = threads_per_block / 2; width > 0; width /= 2) {
    if (static_cast<int>(threadIdx.x) < width) buffer[threadIdx.x] += buffer[threadIdx.x + width];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = buffer[0];
}

template <class Body>
double launch_sum(Index n, const Body& body) {
  double* partials = reduction_scratch();
  sum_kernel<<<sum_blocks, threads_per_block>>>(n, body, partials);
  LOOM_CUDA_CHECK_LAUNCH();
  std::vector<double> host(sum_blocks);
  LOOM_CUDA_CHECK(cudaMemcpy(host.data(), partials, sum_blocks * sizeof(double), cudaMemcpyDeviceToHost));
  double total = 0;
  for (double s : host) total += s;
  return total;
}

template <class Body>
__global__ void __launch_bounds__(threads_per_block) max_kernel(Index n, Body body, double* partials) {
  __shared__ double buffer[threads_per_block];
  double m = -HUGE_VAL;
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    m = fmax(m, double(body(i)));
  buffer[threadIdx.x] = m;
  __syncthreads();
  for (int width = threads_per_block / 2; width > 0; width /= 2) {
    if (static_cast<int>(threadIdx.x) < width) buffer[threadIdx.x] = fmax(buffer[threadIdx.x], buffer[threadIdx.x + width]);
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = buffer[0];
}

template <class Body>
double launch_max(Index n, const Body& body) {
  double* partials = reduction_scratch();
  max_kernel<<<sum_blocks, threads_per_block>>>(n, body, partials);
  LOOM_CUDA_CHECK_LAUNCH();
  std::vector<double> host(sum_blocks);
  LOOM_CUDA_CHECK(cudaMemcpy(host.data(), partials, sum_blocks * sizeof(double), cudaMemcpyDeviceToHost));
  double m = -HUGE_VAL;
  for (double v : host) m = std::max(m, v);
  return m;
}

}  // namespace loom::core::cuda_detail
