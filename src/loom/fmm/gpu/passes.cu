// The GPU's upward and downward passes: P2M and L2P with a thread block per leaf, M2M and L2L with a block per
// cell of one level. The arithmetic is operators.hpp's, split the way the threads share it (a column m of the
// regular harmonics per P2M thread, one coefficient per M2M/L2L thread, one body per L2P thread), in double;
// tests/fmm/test_gpu_passes.cpp runs the same per-thread pieces on the host against the plain operators.
#include <cuda_runtime.h>

#include "loom/core/cuda_check.cuh"
#include "loom/fmm/expansions/operators.hpp"
#include "loom/fmm/gpu/kernels.hpp"

namespace loom::fmm::gpu {
namespace {

using C = Complex<double>;

// P2M: thread (m, s) of the block of leaf `leaves[blockIdx.x]` sums column m of every component's expansion over
// the leaf's bodies s, s + S, s + 2S, ... (S = p2m_threads / p slices); the slices' partial sums are then added
// in slice order (M written, not added: a leaf's multipole comes from its bodies only). One warp with a thread
// per column left most of its lanes idle (docs/performance.md, "FMM M2L and P2M on the GPU").
constexpr int p2m_threads = 64;
__global__ void __launch_bounds__(p2m_threads)
    p2m_kernel(TreeView v, int p, int ncomp, const int* leaves, Index n, const Vec3d* x, const double* strength, C* M) {
  extern __shared__ double2 p2m_shared[];
  C* partial = reinterpret_cast<C*>(p2m_shared);  // [slices][ncomp][nt]
  const int slices = p2m_threads / p;
  const int m = static_cast<int>(threadIdx.x) % p, slice = static_cast<int>(threadIdx.x) / p;
  const int leaf = leaves[blockIdx.x];
  const Cell cell = v.cells[leaf];
  const int nt = term_count(p);
  if (slice < slices) {
    C acc[3][max_order];
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < max_order; ++k) acc[c][k] = C{};
    for (Index i = cell.begin + slice; i < cell.begin + cell.count; i += slices) {
      const Vec3d y = x[i] - cell.center;
      double q[3];
      for (int c = 0; c < ncomp; ++c) q[c] = strength[c * n + i];
      for_each_regular_in_column(p, m, y, norm2(y), regular_diagonal(m, y), [&](int nn, int, C r) {
        const C cr = conj(r);
        for (int c = 0; c < ncomp; ++c) acc[c][nn - m] += q[c] * cr;
      });
    }
    for (int c = 0; c < ncomp; ++c)
      for (int nn = m; nn < p; ++nn) partial[(slice * ncomp + c) * nt + term(nn, m)] = acc[c][nn - m];
  }
  __syncthreads();
  for (int t = threadIdx.x; t < ncomp * nt; t += blockDim.x) {
    C sum{};
    for (int s = 0; s < slices; ++s) sum += partial[s * ncomp * nt + t];
    M[static_cast<Index>(leaf) * ncomp * nt + t] = sum;
  }
}

// Stages one expansion set (ncomp x nt terms) and the regular harmonics of d into shared memory.
__device__ inline void stage(int p, int ncomp, const C* from, Vec3d d, C* expansion, C* R) {
  const int nt = term_count(p);
  for (int i = threadIdx.x; i < ncomp * nt; i += blockDim.x) expansion[i] = from[i];
  if (static_cast<int>(threadIdx.x) < p) {
    const int m = threadIdx.x;
    for_each_regular_in_column(p, m, d, norm2(d), regular_diagonal(m, d),
                               [&](int nn, int mm, C r) { R[term(nn, mm)] = r; });
  }
}

// M2M for the cells [first, first + count) of one level: thread t owns coefficient t of the parent (written).
__global__ void m2m_kernel(TreeView v, int p, int ncomp, int first, C* M) {
  __shared__ C R[max_terms];
  __shared__ C child[3 * max_terms];
  const int c = first + static_cast<int>(blockIdx.x);
  const Cell cell = v.cells[c];
  if (cell.child_count == 0) return;  // the whole block leaves together
  const int nt = term_count(p), t = threadIdx.x;
  int n = 0;
  while ((n + 1) * (n + 2) / 2 <= t) ++n;
  const int m = t - n * (n + 1) / 2;
  C acc[3] = {C{}, C{}, C{}};
  for (int ch = cell.child_begin; ch < cell.child_begin + cell.child_count; ++ch) {
    __syncthreads();
    stage(p, ncomp, M + static_cast<Index>(ch) * ncomp * nt, v.cells[ch].center - cell.center, child, R);
    __syncthreads();
    if (t < nt)
      for (int k = 0; k < ncomp; ++k) acc[k] += m2m_coefficient(p, n, m, child + k * nt, R);
  }
  if (t < nt)
    for (int k = 0; k < ncomp; ++k) M[(static_cast<Index>(c) * ncomp + k) * nt + t] = acc[k];
}

// L2L into the cells [first, first + count) of one level (level >= 1): thread t owns coefficient t (added).
__global__ void l2l_kernel(TreeView v, int p, int ncomp, int first, C* L) {
  __shared__ C R[max_terms];
  __shared__ C parent[3 * max_terms];
  const int c = first + static_cast<int>(blockIdx.x);
  const Cell cell = v.cells[c];
  const int nt = term_count(p), t = threadIdx.x;
  stage(p, ncomp, L + static_cast<Index>(cell.parent) * ncomp * nt, cell.center - v.cells[cell.parent].center, parent,
        R);
  __syncthreads();
  if (t >= nt) return;
  int k = 0;
  while ((k + 1) * (k + 2) / 2 <= t) ++k;
  const int l = t - k * (k + 1) / 2;
  for (int j = 0; j < ncomp; ++j)
    L[(static_cast<Index>(c) * ncomp + j) * nt + t] += l2l_coefficient(p, k, l, parent + j * nt, R);
}

// L2P (Laplace: potential and gradient) for the bodies of leaf `leaves[blockIdx.x]`: the leaf's local expansion
// and its gradient expansions in shared memory, a thread per body (out written, not added).
constexpr int l2p_threads = 64;
__global__ void __launch_bounds__(l2p_threads)
    l2p_laplace_kernel(TreeView v, int p, const int* leaves, Index n, const Vec3d* x, const C* L, double* out) {
  __shared__ C local[max_terms], gx[max_terms], gy[max_terms], gz[max_terms];
  const int leaf = leaves[blockIdx.x];
  const Cell cell = v.cells[leaf];
  const int nt = term_count(p);
  for (int t = threadIdx.x; t < nt; t += blockDim.x) local[t] = L[static_cast<Index>(leaf) * nt + t];
  __syncthreads();
  for (int t = threadIdx.x; t < nt; t += blockDim.x) gradient_expansion_term(p, t, local, gx, gy, gz);
  __syncthreads();
  for (Index i = cell.begin + threadIdx.x; i < cell.begin + cell.count; i += blockDim.x) {
    LocalField<double> f;
    l2p_with_gradient(p, x[i] - cell.center, local, gx, gy, gz, f);
    out[i] = f.value;
    out[n + i] = f.gradient.x;
    out[2 * n + i] = f.gradient.y;
    out[3 * n + i] = f.gradient.z;
  }
}

int coefficient_threads(int p) { return (term_count(p) + 31) / 32 * 32; }

}  // namespace

void p2m(const TreeView& tree, int p, int ncomp, const int* leaves, int leaf_count, Index n, const Vec3d* positions,
         const double* strength, Complex<double>* M) {
  LOOM_REQUIRE(ncomp >= 1 && ncomp <= 3, "fmm::gpu::p2m: 1 to 3 expansions per cell");
  if (leaf_count == 0) return;
  const std::size_t bytes = static_cast<std::size_t>(p2m_threads / p) * ncomp * term_count(p) * sizeof(C);
  p2m_kernel<<<leaf_count, p2m_threads, bytes>>>(tree, p, ncomp, leaves, n, positions, strength, M);
  LOOM_CUDA_CHECK_LAUNCH();
}

void m2m_level(const TreeView& tree, int p, int ncomp, int first, int count, Complex<double>* M) {
  if (count == 0) return;
  m2m_kernel<<<count, coefficient_threads(p)>>>(tree, p, ncomp, first, M);
  LOOM_CUDA_CHECK_LAUNCH();
}

void l2l_level(const TreeView& tree, int p, int ncomp, int first, int count, Complex<double>* L) {
  if (count == 0) return;
  l2l_kernel<<<count, coefficient_threads(p)>>>(tree, p, ncomp, first, L);
  LOOM_CUDA_CHECK_LAUNCH();
}

void l2p_laplace(const TreeView& tree, int p, const int* leaves, int leaf_count, Index n, const Vec3d* positions,
                 const Complex<double>* L, double* out) {
  if (leaf_count == 0) return;
  l2p_laplace_kernel<<<leaf_count, l2p_threads>>>(tree, p, leaves, n, positions, L, out);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace loom::fmm::gpu
