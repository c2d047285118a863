// The benchmark's yardstick: a plain all-pairs Laplace kernel in float, absolute coordinates, sources tiled
// through shared memory (the classic N-body kernel), against which the FMM's P2P rate is compared.
#include <cuda_runtime.h>

#include "loom/core/array.hpp"
#include "loom/core/cuda_check.cuh"
#include "loom/fmm/gpu/kernels.hpp"

namespace loom::fmm::gpu {
namespace {

__global__ void pack_absolute(Index n, const Vec3d* x, const double* q, float4* out) {
  const Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = make_float4(float(x[i].x), float(x[i].y), float(x[i].z), float(q[i]));
}

constexpr int direct_threads = 256;

__global__ void __launch_bounds__(direct_threads) direct_kernel(Index n, const float4* b, double* out) {
  __shared__ float4 tile[direct_threads];
  const Index i = static_cast<Index>(blockIdx.x) * direct_threads + threadIdx.x;
  const float4 me = i < n ? b[i] : make_float4(0, 0, 0, 0);
  float phi = 0, gx = 0, gy = 0, gz = 0;
  for (Index j0 = 0; j0 < n; j0 += direct_threads) {
    __syncthreads();
    tile[threadIdx.x] = j0 + threadIdx.x < n ? b[j0 + threadIdx.x] : make_float4(0, 0, 0, 0);
    __syncthreads();
#pragma unroll 16
    for (int j = 0; j < direct_threads; ++j) {
      const float dx = me.x - tile[j].x, dy = me.y - tile[j].y, dz = me.z - tile[j].z;
      const float r2 = dx * dx + dy * dy + dz * dz;
      const float inv_r = r2 > 0 ? rsqrtf(r2) : 0.0f;
      const float qr = tile[j].w * inv_r, qr3 = qr * inv_r * inv_r;
      phi += qr;
      gx -= qr3 * dx;
      gy -= qr3 * dy;
      gz -= qr3 * dz;
    }
  }
  if (i < n) {
    out[i] = phi;
    out[n + i] = gx;
    out[2 * n + i] = gy;
    out[3 * n + i] = gz;
  }
}

}  // namespace

void direct_laplace(Index n, const Vec3d* positions, const double* charges, double* out) {
  if (n == 0) return;
  core::Array<float4> b(static_cast<std::size_t>(n));
  const int blocks = static_cast<int>((n + direct_threads - 1) / direct_threads);
  pack_absolute<<<blocks, direct_threads>>>(n, positions, charges, b.write(core::Where::device));
  LOOM_CUDA_CHECK_LAUNCH();
  direct_kernel<<<blocks, direct_threads>>>(n, b.read(core::Where::device), out);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace loom::fmm::gpu
