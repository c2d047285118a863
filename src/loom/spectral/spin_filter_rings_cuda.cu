// The ring sets of SpinFilter on the device (spin_filter_rings.hpp): one block per ring set (field, radius).
// The block reads its N_theta N_phi complex values once into shared memory (x), forms the phi coefficients of
// the kept orders by direct sums in shared memory (F, N_phi is at most 2 l_max + 2), projects them by (5) into
// x, and writes the synthesis back in place. Global memory is touched twice per value (one read, one write)
// where the five-loop form re-read each value 2 L + 1 times with a stride of N_r. The ring set's points are
// N_r doubles apart in the r-fastest layout, so a warp's accesses are not coalesced: each value is one L2
// sector (32 B for 8 used); the triad fields were just written by to_triad and are L2-resident (3.6 MB per
// shell at the paper's size), so this costs L2 bandwidth, not DRAM.
#include <algorithm>

#include "loom/core/cuda_check.cuh"
#include "loom/spectral/spin_filter_rings.hpp"

namespace loom::spectral::rings {

namespace {

constexpr int threads = 256;

__global__ void __launch_bounds__(threads) ring_kernel(View v) {
  extern __shared__ double shared[];
  const int na = v.nt * v.np, field = blockIdx.x / v.nr, ir = blockIdx.x % v.nr;
  double* x = shared;           // 2 na: the ring set, then G
  double* f = shared + 2 * na;  // 2 na: F (kept orders only)
  const double* re = v.data + 2 * field * v.n + ir;
  const double* im = re + v.n;
  for (int q = threadIdx.x; q < na; q += blockDim.x) {  // grid point q = it + N_theta ip, entry it N_phi + ip
    const int b = q % v.nt * v.np + q / v.nt;
    x[2 * b] = re[Index{v.nr} * q], x[2 * b + 1] = im[Index{v.nr} * q];
  }
  __syncthreads();
  // Eq. (4): F_m(theta_i) = (1/N_phi) sum_j x(theta_i, phi_j) e^{-i m phi_j}, |m| <= L.
  const int orders = 2 * v.L + 1;
  for (int job = threadIdx.x; job < v.nt * orders; job += blockDim.x) {
    const int i = job % v.nt, m = job / v.nt - v.L;
    const double* row = x + 2 * i * v.np;
    const double* t = v.tw + 2 * (m + v.L) * v.np;
    double sr = 0, si = 0;
    for (int j = 0; j < v.np; ++j) {
      const double cr = __ldg(t + 2 * j), ci = __ldg(t + 2 * j + 1);
      sr += row[2 * j] * cr - row[2 * j + 1] * ci;
      si += row[2 * j] * ci + row[2 * j + 1] * cr;
    }
    const int column = (m + v.np) % v.np;
    f[2 * (i * v.np + column)] = sr / v.np;
    f[2 * (i * v.np + column) + 1] = si / v.np;
  }
  __syncthreads();
  project(v, v.spin[field], f, x, threadIdx.x, blockDim.x);
  __syncthreads();
  // The synthesis sum_m G_m(theta_k) e^{i m phi_j}, written back.
  double* out_re = v.data + 2 * field * v.n + ir;
  double* out_im = out_re + v.n;
  for (int q = threadIdx.x; q < na; q += blockDim.x) {
    const int k = q % v.nt, j = q / v.nt;
    double sr = 0, si = 0;
    for (int m = -v.L; m <= v.L; ++m) {
      const int column = (m + v.np) % v.np;
      const double gr = x[2 * (k * v.np + column)], gi = x[2 * (k * v.np + column) + 1];
      const double cr = __ldg(v.tw + 2 * ((m + v.L) * v.np + j)), ci = -__ldg(v.tw + 2 * ((m + v.L) * v.np + j) + 1);
      sr += gr * cr - gi * ci;
      si += gr * ci + gi * cr;
    }
    out_re[Index{v.nr} * q] = sr;
    out_im[Index{v.nr} * q] = si;
  }
}

}  // namespace

void filter_cuda(const View& v) {
  const auto bytes = static_cast<std::size_t>(4 * v.nt * v.np) * sizeof(double);
  static std::size_t allowed = 48 * 1024;
  if (bytes > allowed) {
    LOOM_CUDA_CHECK(
        cudaFuncSetAttribute(ring_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
    allowed = bytes;
  }
  ring_kernel<<<static_cast<unsigned>(v.fields * v.nr), threads, bytes>>>(v);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace loom::spectral::rings
