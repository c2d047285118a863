// The GPU's M2L kernel, batched as in the paper's GPU section (its Figure 7): one thread block per target cell,
// the source cells' multipoles and the irregular harmonics of each pair's offset staged in shared memory. The block
// holds G groups of threads, each taking every G-th source, and stages G sources at a time: the harmonics are
// computed by all threads at once, one column each (in double, stored in Real), between two barriers. A thread of
// a group sums a run of B orders (n, m0 .. m0 + B - 1) of every expansion component (m2l_scaled.hpp's
// scaled_m2l_run_sums): each harmonic loaded from shared memory serves B orders and the ncomp components, so the
// sums are bound by the multiply-adds rather than by the shared-memory loads (B = 1 and one component per load,
// the first version, was bound by the loads: docs/performance.md, "FMM M2L and P2M on the GPU"). The
// arithmetic is m2l_scaled.hpp's (normalised coefficients, sums from high to low order), tested on the host in
// float and double; each source's normalised sum is accumulated in double, and the groups' partial sums are
// added in a fixed order at the end.
#include <cuda_runtime.h>

#include <algorithm>
#include <utility>

#include "loom/core/array.hpp"
#include "loom/core/cuda_check.cuh"
#include "loom/fmm/gpu/kernels.hpp"
#include "loom/fmm/gpu/m2l_scaled.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::gpu {
namespace {

constexpr int max_groups = 16;
constexpr std::size_t shared_budget = 40 * 1024;  // dynamic shared memory per block (occupancy: ~5 blocks/SM)

__constant__ float binomial_f[max_order][max_order];  // C(n + k, n)
__constant__ double binomial_d[max_order][max_order];
__constant__ double factorial_d[max_order];
__constant__ HarmonicRecurrence recurrence_c;

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
  const HarmonicRecurrence recurrence = make_harmonic_recurrence();
  LOOM_CUDA_CHECK(cudaMemcpyToSymbol(recurrence_c, &recurrence, sizeof recurrence));
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
  int source;
};

// Dynamic shared memory: G harmonic tables, then G x ncomp multipole tables (p^2 terms).
template <class Real>
std::size_t shared_bytes(int p, int ncomp, int groups, int block) {
  return static_cast<std::size_t>(groups) * static_cast<std::size_t>(m2l_harmonic_stride(p, block) + ncomp * p * p) *
         sizeof(Complex<Real>);
}

// Multipole loads each thread keeps in flight while staging a batch's tables.
constexpr int staging_loads = 4;

template <class Real, int NComp, int B>
__global__ void __launch_bounds__(256)
    m2l_kernel(TreeView v, int p, int groups, const Complex<Real>* __restrict__ Mn, Complex<double>* L) {
  extern __shared__ double2 shared_raw[];  // double2: aligned for Complex<double>
  __shared__ Real binom[max_order][max_order];
  __shared__ PairGeometry pair[max_groups];
  __shared__ Real b_power[max_groups][max_order];  // (rho_B / |D|)^k of each source of the batch
  __shared__ HarmonicRecurrence recurrence;
  __shared__ unsigned char degree_of_term[term_count(max_order)];
  const int nt = term_count(p), q = 2 * p - 1, hs = m2l_harmonic_stride(p, B),
            per_source = m2l_threads_per_source(p, B);
  Complex<Real>* in = reinterpret_cast<Complex<Real>*>(shared_raw);  // [groups][hs]
  Complex<Real>* mhat = in + groups * hs;                            // [groups][NComp][p * p]
  for (int i = threadIdx.x; i < max_order * max_order; i += blockDim.x) {
    if constexpr (sizeof(Real) == 4)
      binom[i / max_order][i % max_order] = binomial_f[i / max_order][i % max_order];
    else
      binom[i / max_order][i % max_order] = binomial_d[i / max_order][i % max_order];
  }
  for (int i = threadIdx.x; i < int(sizeof(HarmonicRecurrence) / sizeof(double)); i += blockDim.x)
    reinterpret_cast<double*>(&recurrence)[i] = reinterpret_cast<const double*>(&recurrence_c)[i];
  for (int k = 0; k < p; ++k)
    for (int t = k * (k + 1) / 2 + static_cast<int>(threadIdx.x); t < (k + 1) * (k + 2) / 2; t += blockDim.x)
      degree_of_term[t] = static_cast<unsigned char>(k);
  for (int i = threadIdx.x; i < groups * B; i += blockDim.x) in[(i / B) * hs + q * q + i % B] = {};  // padding
  const int target = v.m2l_targets[blockIdx.x];
  const Cell a = v.cells[target];
  const int group = threadIdx.x / per_source;
  const bool owner = group < groups;
  const M2lRun run = m2l_run_of_thread(B, static_cast<int>(threadIdx.x) % per_source);
  const int n = run.n, m0 = run.m0;
  double acc_re[NComp][B], acc_im[NComp][B];
#pragma unroll
  for (int c = 0; c < NComp; ++c)
#pragma unroll
    for (int j = 0; j < B; ++j) acc_re[c][j] = acc_im[c][j] = 0;

  const int per_source_terms = NComp * nt;
  const Index first = v.m2l_offset[target], last = v.m2l_offset[target + 1];
  for (Index k0 = first; k0 < last; k0 += groups) {
    const int batch = static_cast<int>(last - k0 < groups ? last - k0 : groups);
    __syncthreads();  // the previous batch's tables are no longer read
    if (static_cast<int>(threadIdx.x) < batch) {
      const Index k = k0 + threadIdx.x;
      const int source = v.m2l_source[k];
      const Cell c = v.cells[source];
      Vec3d d = a.center - c.center;
      if (v.period > 0) d -= shift_vector(v.m2l_shift[k], v.period);
      const double dist = sqrt(norm2(d)), b = cell_scale(c) / dist;
      pair[threadIdx.x] = {(1 / dist) * d, dist, source};
      double b_k = 1;  // b^k by repeated products, as scaled_m2l
      for (int j = 0; j < p; ++j) {
        b_power[threadIdx.x][j] = Real(b_k);
        b_k *= b;
      }
    }
    __syncthreads();
    for (int item = threadIdx.x; item < batch * q; item += blockDim.x) {
      const int s = item / q;
      scaled_irregular_column(q, item % q, pair[s].u, recurrence, in + s * hs);
    }
    // The sources' normalised multipoles, contiguous per source: plain copies into the full (+-l) tables, with
    // several loads in flight per thread.
    const int items = batch * per_source_terms;
    for (int base = threadIdx.x; base < items; base += staging_loads * blockDim.x) {
      Complex<Real> value[staging_loads];
#pragma unroll
      for (int u = 0; u < staging_loads; ++u) {
        const int item = base + u * static_cast<int>(blockDim.x);
        if (item < items) {
          const int s = item / per_source_terms;
          value[u] = Mn[static_cast<Index>(pair[s].source) * per_source_terms + (item - s * per_source_terms)];
        }
      }
#pragma unroll
      for (int u = 0; u < staging_loads; ++u) {
        const int item = base + u * static_cast<int>(blockDim.x);
        if (item < items) {
          const int s = item / per_source_terms, rest = item - s * per_source_terms, c = rest / nt, tt = rest % nt;
          const int k = degree_of_term[tt];
          store_scaled_multipole(k, tt - k * (k + 1) / 2, value[u], mhat + (s * NComp + c) * p * p);
        }
      }
    }
    __syncthreads();
    if (owner && group < batch) {
      Real sum_re[NComp][B], sum_im[NComp][B];
      scaled_m2l_run_sums<Real, NComp, B>(p, n, m0, mhat + group * NComp * p * p, in + group * hs, binom[n],
                                          b_power[group], sum_re, sum_im);
      const double f = scaled_m2l_factor(n, pair[group].dist);
#pragma unroll
      for (int c = 0; c < NComp; ++c)
#pragma unroll
        for (int j = 0; j < B; ++j) {
          acc_re[c][j] += f * double(sum_re[c][j]);
          acc_im[c][j] += f * double(sum_im[c][j]);
        }
    }
  }
  // The groups' partial sums, added in group order (reusing the tables' memory).
  __syncthreads();
  Complex<double>* partial = reinterpret_cast<Complex<double>*>(shared_raw);  // [groups][NComp][nt]
  if (owner)
#pragma unroll
    for (int c = 0; c < NComp; ++c)
#pragma unroll
      for (int j = 0; j < B; ++j)
        if (m0 + j <= n) partial[(group * NComp + c) * nt + term(n, m0 + j)] = {acc_re[c][j], acc_im[c][j]};
  __syncthreads();
  for (int i = threadIdx.x; i < NComp * nt; i += blockDim.x) {
    Complex<double> sum{};
    for (int g = 0; g < groups; ++g) sum += partial[g * NComp * nt + i];
    L[static_cast<Index>(target) * NComp * nt + i] += sum;
  }
}

// The number of thread groups G (<= max_groups), within 256 threads and the shared-memory budget: the most
// working threads G * threads_per_source among the G whose warps are at least 85% filled (else the best filling).
// Larger blocks share the per-block set-up and stage more sources per barrier (the first version's choice, the
// best filling with ties to the fewest groups, gave blocks of one warp: docs/performance.md, "FMM: figures behind code
// comments").
template <class Real>
int choose_groups(int p, int ncomp, int block) {
  const int per_source = m2l_threads_per_source(p, block);
  int best = 1;
  std::pair<double, double> best_score{-1, 0};  // (well filled, then working threads; else the filling)
  for (int g = 1; g <= max_groups; ++g) {
    const int threads = (g * per_source + 31) / 32 * 32;
    if (threads > 256 || shared_bytes<Real>(p, ncomp, g, block) > shared_budget) break;
    const double fill = double(g * per_source) / threads;
    const std::pair<double, double> score =
        fill >= 0.85 ? std::pair{1.0, double(g * per_source)} : std::pair{0.0, fill};
    if (score > best_score) {
      best = g;
      best_score = score;
    }
  }
  return best;
}

template <class Real, int NComp, int B>
void launch_m2l(const TreeView& v, int p, const Complex<Real>* mn, Complex<double>* L) {
  const int nt = term_count(p);
  const int groups = choose_groups<Real>(p, NComp, B);
  const int threads = std::max(32, (groups * m2l_threads_per_source(p, B) + 31) / 32 * 32);
  // the tables, or at the end the groups' double partial sums, whichever is larger
  const std::size_t bytes = std::max(shared_bytes<Real>(p, NComp, groups, B),
                                     static_cast<std::size_t>(groups * NComp * nt) * sizeof(Complex<double>));
  m2l_kernel<Real, NComp, B><<<v.m2l_target_count, threads, bytes>>>(v, p, groups, mn, L);
  LOOM_CUDA_CHECK_LAUNCH();
}

template <class Real>
void launch_m2l(const TreeView& v, int p, int ncomp, int block, const Complex<double>* M, Complex<double>* L) {
  if (v.m2l_target_count == 0) return;
  upload_tables();
  const int nt = term_count(p);
  const Index total = static_cast<Index>(v.cell_count) * ncomp * nt;
  core::Array<Complex<Real>> mn(static_cast<std::size_t>(total));
  normalise_multipoles<Real>
      <<<static_cast<int>((total + 255) / 256), 256>>>(v, p, ncomp, M, mn.write(core::Where::device));
  LOOM_CUDA_CHECK_LAUNCH();
  const Complex<Real>* m = mn.read(core::Where::device);
  if (ncomp == 1) {
    if (block == 1) return launch_m2l<Real, 1, 1>(v, p, m, L);
    if (block == 2) return launch_m2l<Real, 1, 2>(v, p, m, L);
    return launch_m2l<Real, 1, 4>(v, p, m, L);
  }
  if (block == 1) return launch_m2l<Real, 3, 1>(v, p, m, L);
  if (block == 2) return launch_m2l<Real, 3, 2>(v, p, m, L);
  return launch_m2l<Real, 3, 4>(v, p, m, L);
}

}  // namespace

void m2l(const TreeView& tree, int p, int ncomp, const Complex<double>* M, Complex<double>* L, bool single, int block) {
  LOOM_REQUIRE(ncomp == 1 || ncomp == 3, "fmm::gpu::m2l: 1 or 3 expansions per cell");
  LOOM_REQUIRE(block == 1 || block == 2 || block == 4, "fmm::gpu::m2l: 1, 2 or 4 orders per thread");
  if (single)
    launch_m2l<float>(tree, p, ncomp, block, M, L);
  else
    launch_m2l<double>(tree, p, ncomp, block, M, L);
}

}  // namespace loom::fmm::gpu
