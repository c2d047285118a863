// The GPU's M2L kernel, batched as in the paper's GPU section (its Figure 7): one thread block per target cell,
// a thread per local coefficient (n, m), the source cells' multipoles and the irregular harmonics of each
// pair's offset staged in shared memory. The block holds G groups of threads, each owning all coefficients
// and taking every G-th source (so that G * term_count(p) fills the warps), and stages G sources at a time:
// the harmonics are computed by all threads at once, one column each (in double, stored in Real), between two
// barriers. The arithmetic is m2l_scaled.hpp's (normalised coefficients, sums from high to low order), tested
// on the host in float and double; each source's normalised sum is accumulated in double, and the groups'
// partial sums are added in a fixed order at the end.
#include <cuda_runtime.h>

#include <algorithm>

#include "loom/core/array.hpp"
#include "loom/core/cuda_check.cuh"
#include "loom/fmm/gpu_kernels.hpp"
#include "loom/fmm/m2l_scaled.hpp"
#include "loom/fmm/traversal.hpp"

namespace loom::fmm::gpu {
namespace {

constexpr int max_groups = 16;
constexpr std::size_t shared_budget = 40 * 1024;  // dynamic shared memory per block (occupancy: ~5 blocks/SM)

__constant__ float binomial_f[max_order][max_order];  // C(n + k, n)
__constant__ double binomial_d[max_order][max_order];
__constant__ double factorial_d[max_order];

void upload_tables() {
  static bool done = false;  // per process; the constants live in this module
  if (done) return;
  float bf[max_order][max_order];
  double bd[max_order][max_order], f[2 * max_order];
  f[0] = 1;
  for (int i = 1; i < 2 * max_order; ++i) f[i] = f[i - 1] * i;
  for (int n = 0; n < max_order; ++n)
    for (int k = 0; k < max_order; ++k) {
      bd[n][k] = f[n + k] / (f[n] * f[k]);
      bf[n][k] = float(bd[n][k]);
    }
  LOOM_CUDA_CHECK(cudaMemcpyToSymbol(binomial_f, bf, sizeof bf));
  LOOM_CUDA_CHECK(cudaMemcpyToSymbol(binomial_d, bd, sizeof bd));
  LOOM_CUDA_CHECK(cudaMemcpyToSymbol(factorial_d, f, sizeof(double) * max_order));
  done = true;
}

__device__ inline double cell_scale(const Cell& c) { return c.radius > 0 ? c.radius : 1.0; }

// Normalised multipoles: Mn_k^l = M_k^l k! / rho^k (rho: the cell radius), so that |Mn| <= sum |q|.
template <class Real>
__global__ void normalise_multipoles(TreeView v, int p, int ncomp, const Complex<double>* M, Complex<Real>* out) {
  const int nt = term_count(p);
  const Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<Index>(v.cell_count) * ncomp * nt) return;
  const int t = static_cast<int>(i % nt);
  const Index cell = i / (static_cast<Index>(ncomp) * nt);
  int k = 0;
  while ((k + 1) * (k + 2) / 2 <= t) ++k;
  const double rho = cell_scale(v.cells[cell]);
  double rho_k = 1;
  for (int j = 0; j < k; ++j) rho_k *= rho;
  const double scale = factorial_d[k] / rho_k;
  out[i] = {Real(M[i].re * scale), Real(M[i].im * scale)};
}

struct PairGeometry {
  Vec3d u;      // D / |D|
  double dist;  // |D|
  double b;     // rho_B / |D|
  int source;
};

// Dynamic shared memory: G harmonic tables (q^2 terms each), then G x ncomp multipole tables (p^2 terms).
template <class Real>
std::size_t shared_bytes(int p, int ncomp, int groups) {
  const int q = 2 * p - 1;
  return static_cast<std::size_t>(groups) * static_cast<std::size_t>(q * q + ncomp * p * p) * sizeof(Complex<Real>);
}

template <class Real, int MaxComp>
__global__ void m2l_kernel(TreeView v, int p, int ncomp, int groups, const Complex<Real>* Mn, Complex<double>* L) {
  extern __shared__ double2 shared_raw[];  // double2: aligned for Complex<double>
  __shared__ Real binom[max_order][max_order];
  __shared__ PairGeometry pair[max_groups];
  const int nt = term_count(p), q = 2 * p - 1;
  Complex<Real>* in = reinterpret_cast<Complex<Real>*>(shared_raw);  // [groups][q * q]
  Complex<Real>* mhat = in + groups * q * q;                         // [groups][ncomp][p * p]
  for (int i = threadIdx.x; i < max_order * max_order; i += blockDim.x) {
    if constexpr (sizeof(Real) == 4)
      binom[i / max_order][i % max_order] = binomial_f[i / max_order][i % max_order];
    else
      binom[i / max_order][i % max_order] = binomial_d[i / max_order][i % max_order];
  }
  const int target = v.m2l_targets[blockIdx.x];
  const Cell a = v.cells[target];
  const int group = threadIdx.x / nt, t = threadIdx.x % nt;
  const bool owner = group < groups;
  int n = 0;
  while ((n + 1) * (n + 2) / 2 <= t) ++n;
  const int m = t - n * (n + 1) / 2;
  double acc_re[MaxComp], acc_im[MaxComp];
  for (int c = 0; c < MaxComp; ++c) acc_re[c] = acc_im[c] = 0;

  const Index first = v.m2l_offset[target], last = v.m2l_offset[target + 1];
  for (Index k0 = first; k0 < last; k0 += groups) {
    const int batch = static_cast<int>(last - k0 < groups ? last - k0 : groups);
    __syncthreads();  // the previous batch's tables are no longer read
    if (static_cast<int>(threadIdx.x) < batch) {
      const Index k = k0 + threadIdx.x;
      const int source = v.m2l_source[k];
      Vec3d d = a.center - v.cells[source].center;
      if (v.period > 0) d -= shift_vector(v.m2l_shift[k], v.period);
      const double dist = sqrt(norm2(d));
      pair[threadIdx.x] = {(1 / dist) * d, dist, cell_scale(v.cells[source]) / dist, source};
    }
    __syncthreads();
    for (int item = threadIdx.x; item < batch * q; item += blockDim.x) {
      const int s = item / q;
      scaled_irregular_column(q, item % q, pair[s].u, in + s * q * q);
    }
    for (int item = threadIdx.x; item < batch * ncomp * nt; item += blockDim.x) {
      const int s = item / (ncomp * nt), c = (item / nt) % ncomp, tt = item % nt;
      int k = 0;
      while ((k + 1) * (k + 2) / 2 <= tt) ++k;
      double bk = 1;
      for (int j = 0; j < k; ++j) bk *= pair[s].b;
      store_scaled_multipole(k, tt - k * (k + 1) / 2, Mn[(static_cast<Index>(pair[s].source) * ncomp + c) * nt + tt],
                             Real(bk), mhat + (s * ncomp + c) * p * p);
    }
    __syncthreads();
    if (owner && group < batch) {
      const double f = scaled_m2l_factor(n, pair[group].dist);
      for (int c = 0; c < ncomp; ++c) {
        const Complex<Real> sum =
            scaled_m2l_sum(p, n, m, mhat + (group * ncomp + c) * p * p, in + group * q * q, binom[n]);
        acc_re[c] += f * double(sum.re);
        acc_im[c] += f * double(sum.im);
      }
    }
  }
  // The groups' partial sums, added in group order (reusing the tables' memory).
  __syncthreads();
  Complex<double>* partial = reinterpret_cast<Complex<double>*>(shared_raw);  // [groups][ncomp][nt]
  if (owner)
    for (int c = 0; c < ncomp; ++c) partial[(group * ncomp + c) * nt + t] = {acc_re[c], acc_im[c]};
  __syncthreads();
  if (owner && group == 0) {
    for (int c = 0; c < ncomp; ++c) {
      Complex<double> sum{};
      for (int g = 0; g < groups; ++g) sum += partial[(g * ncomp + c) * nt + t];
      L[(static_cast<Index>(target) * ncomp + c) * nt + t] += sum;
    }
  }
}

// The number of thread groups G (<= max_groups): the best filling of the warps, G * nt over G * nt rounded up
// to 32 threads, within 256 threads and the shared-memory budget (ties: fewer groups).
template <class Real>
int choose_groups(int p, int ncomp) {
  const int nt = term_count(p);
  int best = 1;
  double best_fill = 0;
  for (int g = 1; g <= max_groups; ++g) {
    const int threads = (g * nt + 31) / 32 * 32;
    if (threads > 256 || shared_bytes<Real>(p, ncomp, g) > shared_budget) break;
    const double fill = double(g * nt) / threads;
    if (fill > best_fill + 1e-9) {
      best = g;
      best_fill = fill;
    }
  }
  return best;
}

template <class Real>
void launch_m2l(const TreeView& v, int p, int ncomp, const Complex<double>* M, Complex<double>* L) {
  if (v.m2l_target_count == 0) return;
  upload_tables();
  const int nt = term_count(p);
  const Index total = static_cast<Index>(v.cell_count) * ncomp * nt;
  core::Array<Complex<Real>> mn(static_cast<std::size_t>(total));
  normalise_multipoles<Real>
      <<<static_cast<int>((total + 255) / 256), 256>>>(v, p, ncomp, M, mn.write(core::Where::device));
  LOOM_CUDA_CHECK_LAUNCH();
  const int groups = choose_groups<Real>(p, ncomp);
  const int threads = std::max(32, (groups * nt + 31) / 32 * 32);
  // the tables, or at the end the groups' double partial sums, whichever is larger
  const std::size_t bytes = std::max(shared_bytes<Real>(p, ncomp, groups),
                                     static_cast<std::size_t>(groups * ncomp * nt) * sizeof(Complex<double>));
  if (ncomp == 1)
    m2l_kernel<Real, 1><<<v.m2l_target_count, threads, bytes>>>(v, p, 1, groups, mn.read(core::Where::device), L);
  else
    m2l_kernel<Real, 3><<<v.m2l_target_count, threads, bytes>>>(v, p, 3, groups, mn.read(core::Where::device), L);
  LOOM_CUDA_CHECK_LAUNCH();
}

}  // namespace

void m2l(const TreeView& tree, int p, int ncomp, const Complex<double>* M, Complex<double>* L, bool single) {
  LOOM_REQUIRE(ncomp == 1 || ncomp == 3, "fmm::gpu::m2l: 1 or 3 expansions per cell");
  if (single)
    launch_m2l<float>(tree, p, ncomp, M, L);
  else
    launch_m2l<double>(tree, p, ncomp, M, L);
}

}  // namespace loom::fmm::gpu
