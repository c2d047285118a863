// The tuned CUDA kernels of the FMM, batched as in the paper's GPU section: one thread block per target cell;
// P2P threads own target bodies and stream each source leaf through shared memory; M2L threads own local
// coefficients and stage each source multipole (and the irregular harmonics of the pair's offset) in shared
// memory (P2P tiles run across source leaves). Single precision uses the paper's two tricks: coefficients normalised by
// the cell radii and factorials (so their dynamic range is small), and sums from high to low order; partial sums of one
// source cell are carried across source cells in double. Bodies are stored relative to their leaf centre, the offset
// between two leaves computed in double, so float keeps its digits where bodies are close. No fmt here.
#include <cuda_runtime.h>

#include <algorithm>

#include "loom/core/array.hpp"
#include "loom/core/cuda_check.cuh"
#include "loom/fmm/gpu_kernels.hpp"
#include "loom/fmm/harmonics.hpp"
#include "loom/fmm/m2l_scaled.hpp"
#include "loom/fmm/pair_kernels.hpp"
#include "loom/fmm/source_cursor.hpp"
#include "loom/fmm/traversal.hpp"

namespace loom::fmm::gpu {
namespace {

template <class Real>
struct alignas(4 * sizeof(Real)) Packed {  // a body relative to its leaf centre, and one strength or sigma
  Real x, y, z, w;
};

__device__ inline Vec3d pair_offset(const TreeView& v, const Cell& a, int source, std::uint8_t shift) {
  Vec3d d = a.center - v.cells[source].center;
  if (v.period > 0) {
    const double p = v.period;
    d -= Vec3d{p * (shift / 9 - 1), p * (shift / 3 % 3 - 1), p * (shift % 3 - 1)};
  }
  return d;
}

// bodies[i] = (x_i - c_leaf, w[i]) in Real.
template <class Real>
__global__ void pack_bodies(TreeView v, Index n, const Vec3d* x, const double* w, Packed<Real>* out) {
  const Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec3d r = x[i] - v.cells[v.leaf_of_body[i]].center;
  out[i] = {Real(r.x), Real(r.y), Real(r.z), w ? Real(w[i]) : Real(0)};
}

// The three strength components of body i as a Packed (w unused).
template <class Real>
__global__ void pack_vectors(Index n, const double* strength, Packed<Real>* out) {
  const Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = {Real(strength[i]), Real(strength[n + i]), Real(strength[2 * n + i]), Real(0)};
}

enum class PairKind { laplace, biot_savart, gaussian };

// One block per target leaf with P2P pairs; thread t owns target body t (and t + Threads, ...). The source
// bodies of all the target's pairs form one sequence, staged through shared memory Threads at a time across
// leaf boundaries (source_cursor.hpp), each stored relative to the target's centre: y' = (x_j - c_B) - D with
// D = c_A - c_B - shift in double, so r = (x_i - c_A) - y'. `b` holds positions (and charge or sigma), `s` the
// strength vectors. Each tile is summed in Real, the tiles in double.
template <class Real, int Threads, PairKind Kind>
__global__ void __launch_bounds__(Threads)
    p2p_kernel(TreeView v, Index n, const Packed<Real>* b, const Packed<Real>* s, double* out) {
  __shared__ Packed<Real> tile_b[Threads];
  __shared__ Packed<Real> tile_s[Kind == PairKind::laplace ? 1 : Threads];
  const int target = v.p2p_targets[blockIdx.x];
  const Cell a = v.cells[target];
  const Index first = v.p2p_offset[target], last = v.p2p_offset[target + 1];
  auto count = [&](Index k) { return v.cells[v.p2p_source[k]].count; };
  for (Index i0 = a.begin; i0 < a.begin + a.count; i0 += Threads) {
    const Index i = i0 + threadIdx.x;
    const bool active = i < a.begin + a.count;
    const Packed<Real> me = active ? b[i] : Packed<Real>{0, 0, 0, 0};
    Packed<Real> my_s{0, 0, 0, 0};
    if constexpr (Kind == PairKind::biot_savart) my_s = active ? s[i] : my_s;
    double acc[6] = {0, 0, 0, 0, 0, 0};
    SourceCursor cursor{first, 0};
    while (cursor.pair < last) {
      // this thread's slot of the tile
      SourceCursor mine = cursor;
      int valid = 0;
      __syncthreads();  // the previous tile is no longer read
      if (advance(mine, last, threadIdx.x, count)) {
        const int source = v.p2p_source[mine.pair];
        const Vec3d d = pair_offset(v, a, source, v.p2p_shift[mine.pair]);
        const Index j = v.cells[source].begin + mine.offset;
        Packed<Real> y = b[j];
        y.x -= Real(d.x);
        y.y -= Real(d.y);
        y.z -= Real(d.z);
        tile_b[threadIdx.x] = y;
        if constexpr (Kind != PairKind::laplace) tile_s[threadIdx.x] = s[j];
      }
      // every thread advances the shared cursor alike, and counts the tile's filled slots
      valid = static_cast<int>(advance_counting(cursor, last, Threads, count));
      __syncthreads();
      Real phi = 0;
      Vec3<Real> g{}, u{}, st{};
#pragma unroll 4
      for (int j = 0; j < valid; ++j) {
        const Packed<Real> y = tile_b[j];
        const Vec3<Real> r{me.x - y.x, me.y - y.y, me.z - y.z};
        if constexpr (Kind == PairKind::laplace) {
          laplace_pair(r, y.w, phi, g);
        } else if constexpr (Kind == PairKind::biot_savart) {
          const Packed<Real> aj = tile_s[j];
          biot_savart_pair(r, Vec3<Real>{aj.x, aj.y, aj.z}, y.w, Vec3<Real>{my_s.x, my_s.y, my_s.z}, u, st);
        } else {
          const Packed<Real> aj = tile_s[j];
          gaussian_pair(r, Vec3<Real>{aj.x, aj.y, aj.z}, y.w, u);
        }
      }
      if constexpr (Kind == PairKind::laplace) {
        acc[0] += phi;
        acc[1] += g.x;
        acc[2] += g.y;
        acc[3] += g.z;
      } else {
        acc[0] += u.x;
        acc[1] += u.y;
        acc[2] += u.z;
        acc[3] += st.x;
        acc[4] += st.y;
        acc[5] += st.z;
      }
    }
    if (active) {
      constexpr int outputs = Kind == PairKind::laplace ? 4 : (Kind == PairKind::biot_savart ? 6 : 3);
      for (int o = 0; o < outputs; ++o) out[o * n + i] += acc[o];
    }
  }
}

template <class Real, PairKind Kind>
void launch_p2p(const TreeView& v, Index n, const Vec3d* x, const double* w, const double* strength, double* out) {
  if (v.p2p_target_count == 0 || n == 0) return;
  core::Array<Packed<Real>> b(static_cast<std::size_t>(n)),
      s(Kind == PairKind::laplace ? 0 : static_cast<std::size_t>(n));
  const int blocks = static_cast<int>((n + 255) / 256);
  pack_bodies<Real><<<blocks, 256>>>(v, n, x, w, b.write(core::Where::device));
  LOOM_CUDA_CHECK_LAUNCH();
  Packed<Real>* sp = nullptr;
  if constexpr (Kind != PairKind::laplace) {
    sp = s.write(core::Where::device);
    pack_vectors<Real><<<blocks, 256>>>(n, strength, sp);
    LOOM_CUDA_CHECK_LAUNCH();
  }
  const Packed<Real>* bp = b.read(core::Where::device);
  if (v.max_leaf <= 64) {
    p2p_kernel<Real, 64, Kind><<<v.p2p_target_count, 64>>>(v, n, bp, sp, out);
  } else {
    p2p_kernel<Real, 128, Kind><<<v.p2p_target_count, 128>>>(v, n, bp, sp, out);
  }
  LOOM_CUDA_CHECK_LAUNCH();
}

// ---- M2L ----------------------------------------------------------------------------------------------------

__constant__ float binomial_f[max_order][max_order];  // C(n + k, n)
__constant__ double binomial_d[max_order][max_order];
__constant__ double factorial_d[2 * max_order];

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
  LOOM_CUDA_CHECK(cudaMemcpyToSymbol(factorial_d, f, sizeof f));
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
  const double scale = factorial_d[k] / pow(cell_scale(v.cells[cell]), k);
  out[i] = {Real(M[i].re * scale), Real(M[i].im * scale)};
}

// One block per target cell; thread t owns the local coefficient t = term(n, m) of every component; per source
// cell the normalised M2L of m2l_scaled.hpp, the columns of In computed by the first 2p-1 threads.
template <class Real, int MaxComp>
__global__ void m2l_kernel(TreeView v, int p, int ncomp, const Complex<Real>* Mn, Complex<double>* L) {
  constexpr int max_degree = 2 * max_order - 1;
  __shared__ Real ire[max_degree * max_degree], iim[max_degree * max_degree];
  __shared__ Real mre[MaxComp][max_order * max_order], mim[MaxComp][max_order * max_order];
  __shared__ Real binom[max_order][max_order];  // C(n + k, n), from constant memory (threads read different rows)
  for (int i = threadIdx.x; i < max_order * max_order; i += blockDim.x) {
    if constexpr (sizeof(Real) == 4)
      binom[i / max_order][i % max_order] = binomial_f[i / max_order][i % max_order];
    else
      binom[i / max_order][i % max_order] = binomial_d[i / max_order][i % max_order];
  }
  const int nt = term_count(p), q = 2 * p - 1;
  const int target = v.m2l_targets[blockIdx.x];
  const Cell a = v.cells[target];
  const int t = threadIdx.x;
  int n = 0;
  while ((n + 1) * (n + 2) / 2 <= t) ++n;
  const int m = t - n * (n + 1) / 2;
  const bool owner = t < nt;
  const int row = n < max_order ? n : 0;
  double acc_re[MaxComp], acc_im[MaxComp];
  for (int c = 0; c < MaxComp; ++c) acc_re[c] = acc_im[c] = 0;
  const double rho_a = cell_scale(a);

  for (Index k = v.m2l_offset[target]; k < v.m2l_offset[target + 1]; ++k) {
    const int source = v.m2l_source[k];
    const Vec3d d = pair_offset(v, a, source, v.m2l_shift[k]);
    const double dist = sqrt(norm2(d));
    const double b_ratio = cell_scale(v.cells[source]) / dist;
    __syncthreads();  // the previous source's tiles are no longer read
    if (t < q) {
      const double inv = 1 / dist;
      scaled_irregular_column(q, t, Vec3<Real>{Real(d.x * inv), Real(d.y * inv), Real(d.z * inv)}, ire, iim);
    }
    if (owner) {
      const Real bk = Real(pow(b_ratio, n));
      for (int c = 0; c < ncomp; ++c)
        store_scaled_multipole(n, m, Mn[(static_cast<Index>(source) * ncomp + c) * nt + t], bk, mre[c], mim[c]);
    }
    __syncthreads();
    if (owner) {
      const double an = pow(rho_a / dist, n) / dist * ((n & 1) ? -1.0 : 1.0);
      for (int c = 0; c < ncomp; ++c) {
        const Complex<Real> sum = scaled_m2l_sum(p, n, m, mre[c], mim[c], ire, iim, binom[row]);
        const double sre = sum.re, sim = sum.im;
        acc_re[c] += an * double(sre);
        acc_im[c] += an * double(sim);
      }
    }
  }
  if (owner) {
    const double scale = factorial_d[n] / pow(rho_a, n);  // back from Ln to L
    for (int c = 0; c < ncomp; ++c) {
      Complex<double>& out = L[(static_cast<Index>(target) * ncomp + c) * nt + t];
      out.re += scale * acc_re[c];
      out.im += scale * acc_im[c];
    }
  }
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
  const int threads = std::max(32, (std::max(nt, 2 * p - 1) + 31) / 32 * 32);
  if (ncomp == 1)
    m2l_kernel<Real, 1><<<v.m2l_target_count, threads>>>(v, p, 1, mn.read(core::Where::device), L);
  else
    m2l_kernel<Real, 3><<<v.m2l_target_count, threads>>>(v, p, 3, mn.read(core::Where::device), L);
  LOOM_CUDA_CHECK_LAUNCH();
}

// ---- plain direct sum (the benchmark's yardstick) ------------------------------------------------------------

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

void m2l(const TreeView& tree, int p, int ncomp, const Complex<double>* M, Complex<double>* L, bool single) {
  LOOM_REQUIRE(ncomp == 1 || ncomp == 3, "fmm::gpu::m2l: 1 or 3 expansions per cell");
  if (single)
    launch_m2l<float>(tree, p, ncomp, M, L);
  else
    launch_m2l<double>(tree, p, ncomp, M, L);
}

void p2p_laplace(const TreeView& tree, Index n, const Vec3d* positions, const double* strength, double* out,
                 bool single) {
  if (single)
    launch_p2p<float, PairKind::laplace>(tree, n, positions, strength, nullptr, out);
  else
    launch_p2p<double, PairKind::laplace>(tree, n, positions, strength, nullptr, out);
}

void p2p_biot_savart(const TreeView& tree, Index n, const Vec3d* positions, const double* strength, const double* sigma,
                     double* out, bool single) {
  if (single)
    launch_p2p<float, PairKind::biot_savart>(tree, n, positions, sigma, strength, out);
  else
    launch_p2p<double, PairKind::biot_savart>(tree, n, positions, sigma, strength, out);
}

void p2p_gaussian(const TreeView& tree, Index n, const Vec3d* positions, const double* strength, const double* sigma,
                  double* out, bool single) {
  if (single)
    launch_p2p<float, PairKind::gaussian>(tree, n, positions, sigma, strength, out);
  else
    launch_p2p<double, PairKind::gaussian>(tree, n, positions, sigma, strength, out);
}

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
