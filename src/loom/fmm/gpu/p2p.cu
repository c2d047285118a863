// The GPU's P2P kernels, batched as in the paper's GPU section: one thread block per target leaf, a thread per
// target body; the source bodies of all the target's pairs form one sequence, staged through shared memory
// `Threads` at a time across leaf boundaries (source_cursor.hpp). Sources are placed relative to the target
// leaf's centre in double, then split into float hi + lo (p2p_float.hpp), so that single precision loses
// nothing to the size of the cells; rsqrtf gets one Newton step. Runs of 8 sources are summed in Real, the runs
// of a tile in Real, the tiles in double. The host emulation of exactly this arithmetic is
// tests/fmm/test_float_path.cpp.
#include <cuda_runtime.h>

#include "loom/core/cuda_check.cuh"
#include "loom/fmm/gpu/kernels.hpp"
#include "loom/fmm/gpu/p2p_float.hpp"
#include "loom/fmm/gpu/source_cursor.hpp"
#include "loom/fmm/pair_kernels.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::gpu {
namespace {

template <class Real>
struct alignas(4 * sizeof(Real)) Packed {
  Real x, y, z, w;
};

enum class PairKind { laplace, biot_savart, gaussian };

// x: positions (tree order); w: charge (Laplace) or sigma (others), one per body, staged as it is except for
// Biot-Savart, whose tile holds 1/sigma_j (one division per staged source instead of one per pair); s: strength
// vectors, component-major (Biot-Savart and Gaussian); out += the sums, component-major. Compensated = false (float
// only): one float per coordinate and the bare rsqrtf, ~1.7x fewer instructions per pair, error floor ~1e-5.
template <class Real, int Threads, PairKind Kind, bool Compensated>
__global__ void __launch_bounds__(Threads)
    p2p_kernel(TreeView v, Index n, const Vec3d* x, const double* w, const double* s, double* out) {
  constexpr bool split_positions = sizeof(Real) == 4 && Compensated;
  __shared__ Packed<Real> tile_hi[Threads];                        // hi part of y_j - c_A, and w_j
  __shared__ Packed<Real> tile_lo[split_positions ? Threads : 1];  // lo part of y_j - c_A
  __shared__ Packed<Real> tile_s[Kind == PairKind::laplace ? 1 : Threads];
  const int target = v.p2p_targets[blockIdx.x];
  const Cell a = v.cells[target];
  const Index first = v.p2p_offset[target], last = v.p2p_offset[target + 1];
  auto count = [&](Index k) { return v.cells[v.p2p_source[k]].count; };
  for (Index i0 = a.begin; i0 < a.begin + a.count; i0 += Threads) {
    const Index i = i0 + threadIdx.x;
    const bool active = i < a.begin + a.count;
    SplitVec<Real> me = split<Real>(active ? x[i] - a.center : Vec3d{});
    if constexpr (!split_positions) me.lo = {};
    Vec3<Real> my_s{};
    if constexpr (Kind == PairKind::biot_savart)
      if (active) my_s = {Real(s[i]), Real(s[n + i]), Real(s[2 * n + i])};
    double acc[6] = {0, 0, 0, 0, 0, 0};
    SourceCursor cursor{first, 0};
    while (cursor.pair < last) {
      SourceCursor mine = cursor;  // this thread's slot of the tile
      __syncthreads();             // the previous tile is no longer read
      if (advance(mine, last, threadIdx.x, count)) {
        const int source = v.p2p_source[mine.pair];
        const Index j = v.cells[source].begin + mine.offset;
        Vec3d y = x[j] - a.center;  // the source image's offset from the target centre, in double
        if (v.period > 0) y += shift_vector(v.p2p_shift[mine.pair], v.period);
        const SplitVec<Real> ys = split<Real>(y);
        const double wj = w ? (Kind == PairKind::biot_savart ? 1 / w[j] : w[j]) : 0.0;
        tile_hi[threadIdx.x] = {ys.hi.x, ys.hi.y, ys.hi.z, Real(wj)};
        if constexpr (split_positions) tile_lo[threadIdx.x] = {ys.lo.x, ys.lo.y, ys.lo.z, Real(0)};
        if constexpr (Kind != PairKind::laplace)
          tile_s[threadIdx.x] = {Real(s[j]), Real(s[n + j]), Real(s[2 * n + j]), Real(0)};
      }
      // every thread advances the shared cursor alike, and counts the tile's filled slots
      const int valid = static_cast<int>(advance_counting(cursor, last, Threads, count));
      __syncthreads();
      Real phi = 0;
      Vec3<Real> g{}, u{}, st{};
      for (int j0 = 0; j0 < valid; j0 += p2p_run) {  // runs of p2p_run sources summed apart (p2p_float.hpp)
        const int j1 = j0 + p2p_run < valid ? j0 + p2p_run : valid;
        Real run_phi = 0;
        Vec3<Real> run_g{};
        BiotSavartSums<Real> run_bs;  // Biot-Savart: u, sum g/|r|^3 alpha_j, and the F term of the stretching
#pragma unroll 4
        for (int jj = j0; jj < j1; ++jj) {
          const Packed<Real> yh = tile_hi[jj];
          Vec3<Real> ylo{};
          if constexpr (split_positions) {
            const Packed<Real> yl = tile_lo[jj];
            ylo = {yl.x, yl.y, yl.z};
          }
          const Vec3<Real> r = split_difference(me.hi, me.lo, Vec3<Real>{yh.x, yh.y, yh.z}, ylo);
          if constexpr (Kind == PairKind::laplace && split_positions) {
            laplace_pair_refined(r, yh.w, run_phi, run_g, DeviceRsqrt{});
          } else if constexpr (Kind == PairKind::laplace) {
            laplace_pair(r, yh.w, run_phi, run_g);
          } else if constexpr (Kind == PairKind::biot_savart && split_positions) {
            const Packed<Real> aj = tile_s[jj];
            biot_savart_pair_refined(r, Vec3<Real>{aj.x, aj.y, aj.z}, yh.w, my_s, run_bs, DeviceRsqrtOfNormal{});
          } else if constexpr (Kind == PairKind::biot_savart && sizeof(Real) == 4) {
            const Packed<Real> aj = tile_s[jj];
            biot_savart_pair_fast(r, Vec3<Real>{aj.x, aj.y, aj.z}, yh.w, my_s, run_bs, DeviceRsqrtOfNormal{});
          } else if constexpr (Kind == PairKind::biot_savart) {
            const Packed<Real> aj = tile_s[jj];
            biot_savart_pair_with_inverses(r, inverse_distance(norm2(r)), Vec3<Real>{aj.x, aj.y, aj.z}, yh.w, my_s,
                                           run_bs);
          } else {
            const Packed<Real> aj = tile_s[jj];
            gaussian_pair(r, Vec3<Real>{aj.x, aj.y, aj.z}, yh.w, run_bs.velocity);
          }
        }
        phi += run_phi;
        g += run_g;
        u += run_bs.velocity;
        if constexpr (Kind == PairKind::biot_savart) st += run_bs.stretching(my_s);  // one cross product a run
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

template <class Real, PairKind Kind, bool Compensated = true>
void launch_p2p(const TreeView& v, Index n, const Vec3d* x, const double* w, const double* s, double* out) {
  if (v.p2p_target_count == 0 || n == 0) return;
  if (v.max_leaf <= 64)
    p2p_kernel<Real, 64, Kind, Compensated><<<v.p2p_target_count, 64>>>(v, n, x, w, s, out);
  else
    p2p_kernel<Real, 128, Kind, Compensated><<<v.p2p_target_count, 128>>>(v, n, x, w, s, out);
  LOOM_CUDA_CHECK_LAUNCH();
}

template <PairKind Kind>
void launch_p2p(Precision precision, const TreeView& v, Index n, const Vec3d* x, const double* w, const double* s,
                double* out) {
  if (precision == Precision::single)
    launch_p2p<float, Kind>(v, n, x, w, s, out);
  else if (precision == Precision::single_fast)
    launch_p2p<float, Kind, false>(v, n, x, w, s, out);
  else
    launch_p2p<double, Kind>(v, n, x, w, s, out);
}

}  // namespace

void p2p_laplace(const TreeView& tree, Index n, const Vec3d* positions, const double* strength, double* out,
                 Precision precision) {
  launch_p2p<PairKind::laplace>(precision, tree, n, positions, strength, nullptr, out);
}

void p2p_biot_savart(const TreeView& tree, Index n, const Vec3d* positions, const double* strength, const double* sigma,
                     double* out, Precision precision) {
  launch_p2p<PairKind::biot_savart>(precision, tree, n, positions, sigma, strength, out);
}

void p2p_gaussian(const TreeView& tree, Index n, const Vec3d* positions, const double* strength, const double* sigma,
                  double* out, Precision precision) {
  launch_p2p<PairKind::gaussian>(precision, tree, n, positions, sigma, strength, out);
}

}  // namespace loom::fmm::gpu
