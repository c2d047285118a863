// The GEMM route's device side (separable_gemm.hpp): cuBLAS on the default stream and the chain-rule kernel.
#include "loom/core/cuda_check.cuh"
#include "loom/spectral/cublas_handle.hpp"
#include "loom/spectral/separable_gemm.hpp"
#include "loom/spectral/separable_per_q.hpp"

namespace loom::spectral::gpu {

namespace {

// Point p of component blockIdx.y: D's three derivatives through the inverse Jacobian (eq. 8).
__global__ void chain_rule_kernel(Index n, sweep::ComponentMap map, const double* jacobian, const double* d) {
  const Index c = blockIdx.y, components = map.first[map.parts];
  for (Index p = blockIdx.x * Index{blockDim.x} + threadIdx.x; p < n; p += Index{gridDim.x} * blockDim.x)
    sweep::chain_rule(jacobian, n, p, c, map, d[c * n + p], d[(components + c) * n + p],
                      d[(2 * components + c) * n + p]);
}

// Block (component group, q, t) of step 2: A_{t,q} staged, then the block's tasks.
__global__ void per_q_kernel(per_q::Step s) {
  extern __shared__ double a[];
  const Index t = blockIdx.z, q = blockIdx.y, square = s.n_theta * s.n_theta;
  for (Index i = threadIdx.x; i < square; i += blockDim.x) a[i] = s.matrix[t][q * square + i];
  __syncthreads();
  for (Index k = threadIdx.x; k < s.tasks(); k += blockDim.x) per_q::task(s, a, t, q, blockIdx.x * per_q::group, k);
}

}  // namespace

void per_q_step(const per_q::Step& s) {
  constexpr int threads = 128;
  const dim3 blocks(static_cast<unsigned>((s.components + per_q::group - 1) / per_q::group),
                    static_cast<unsigned>(s.n_phi), 2);
  const auto shared = static_cast<std::size_t>(s.n_theta * s.n_theta) * sizeof(double);
  per_q_kernel<<<blocks, threads, shared>>>(s);
  LOOM_CUDA_CHECK_LAUNCH();
}

void gemm(const ListedGemm& g) {
  const double one = 1, zero = 0;
  const auto i32 = [](Index v) { return static_cast<int>(v); };
  const auto op = [](bool trans) { return trans ? CUBLAS_OP_T : CUBLAS_OP_N; };
  check(cublasDgemmBatched(cublas_handle(), op(g.trans_a), op(g.trans_b), i32(g.m), i32(g.n), i32(g.k), &one, g.a,
                           i32(g.lda), g.b, i32(g.ldb), &zero, g.c, i32(g.ldc), i32(g.count)),
        "cublasDgemmBatched");
}

void chain_rule(Index n, const sweep::ComponentMap& map, const double* jacobian, const double* d) {
  constexpr int threads = 256;
  const dim3 blocks(static_cast<unsigned>((n + threads - 1) / threads), static_cast<unsigned>(map.components()));
  chain_rule_kernel<<<blocks, threads>>>(n, map, jacobian, d);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace loom::spectral::gpu
