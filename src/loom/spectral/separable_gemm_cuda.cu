// The GEMM route's device side (separable_gemm.hpp): cuBLAS on the default stream and the radial + chain-rule
// kernel.
#include "loom/core/cuda_check.cuh"
#include "loom/spectral/cublas_handle.hpp"
#include "loom/spectral/separable_gemm.hpp"

namespace loom::spectral::gpu {

namespace {

// Point p of component blockIdx.y: the radial derivative from the input with the radial matrix staged in shared
// memory, the angular ones from d, through the inverse Jacobian (eq. 8).
__global__ void radial_chain_rule_kernel(const double* radial, Index n_r, Index n, sweep::ComponentMap map,
                                         const double* jacobian, const double* d) {
  extern __shared__ double staged[];
  for (Index i = threadIdx.x; i < n_r * n_r; i += blockDim.x) staged[i] = radial[i];
  __syncthreads();
  const Index c = blockIdx.y, components = map.first[map.parts];
  for (Index p = blockIdx.x * Index{blockDim.x} + threadIdx.x; p < n; p += Index{gridDim.x} * blockDim.x)
    sweep::radial_gradient_point(staged, n_r, n, components, jacobian, map, d, c * n + p);
}

}  // namespace

void gemm(const ListedGemm& g) {
  const double one = 1, zero = 0;
  const auto i32 = [](Index v) { return static_cast<int>(v); };
  check(cublasDgemmBatched(cublas_handle(), CUBLAS_OP_N, g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, i32(g.m), i32(g.n),
                           i32(g.k), &one, g.a, i32(g.lda), g.b, i32(g.ldb), &zero, g.c, i32(g.ldc), i32(g.count)),
        "cublasDgemmBatched");
}

void radial_chain_rule(const double* radial, Index n_r, Index n, const sweep::ComponentMap& map, const double* jacobian,
                       const double* d) {
  constexpr int threads = 256;
  const dim3 blocks(static_cast<unsigned>((n + threads - 1) / threads), static_cast<unsigned>(map.components()));
  const auto shared = static_cast<std::size_t>(n_r * n_r) * sizeof(double);
  radial_chain_rule_kernel<<<blocks, threads, shared>>>(radial, n_r, n, map, jacobian, d);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace loom::spectral::gpu
