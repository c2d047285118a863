// The separable shell gradient in one launch (issue 18, docs/spectral.md "The cluster route"): phi DFT, per-m
// theta matrices, inverse DFT, radial derivative and chain rule (eq. 8) for all components, with every
// intermediate in shared memory. A cluster of `blocks` thread blocks (sm_90's distributed shared memory) holds
// `components` components; its blocks split the work by what each step couples:
//   lines (r, theta) for the phi DFT, the inverse DFT and the radial derivative with the chain rule
//   (block b owns lines [line_start(b), line_start(b + 1)) of every component of the cluster, all phi),
//   Fourier coefficients q for the per-m theta matrices (block b owns the matrix groups [group_start[b],
//   group_start[b + 1]), so each block stages only its own matrices),
// and pass the coefficients between the two splits by writing each result straight into the shared memory of
// the block that needs it next (remote stores do not wait; two cluster barriers). Both phi transforms use the
// DFT's half-period symmetry F(q, phi + pi) = sigma_q F(q, phi) (sigma_q = (-1)^m, checked on the host when the
// route is built): the forward transform of u is the transform of u(phi) + sigma u(phi + pi) over half the
// points, the inverse is E +- O from the sums over even and odd q, which halves both DFTs' flops. Every product
// is a small GEMM in shared memory, each lane a register tile of it. Written once: the kernel
// (cluster_route_cuda.cu) runs the steps with the block's threads as lanes and the cluster's shared memory as the
// peers; the CPU form (cluster_route.cpp) runs every block of a cluster one step at a time with one lane, which
// the CPU tests check against the FFT reference. The steps take their extents either from the plan (any shell)
// or fixed at compile time (SpEC's production shell: every index decomposition by a constant, every product's
// inner loop unrolled); both instances run on the CPU too.
#pragma once

#include <algorithm>
#include <type_traits>

#include "loom/core/host_device.hpp"
#include "loom/spectral/shell_separable.hpp"
#include "loom/spectral/shell_sweep.hpp"

#if defined(__CUDACC__)
#include <cuda_pipeline.h>
#endif

namespace loom::spectral::cluster {

constexpr int max_blocks = 8;  // thread blocks per cluster at most (the portable maximum)
// Plan::stamps per block: the global timer at the start, the clock at the start and after each of the kernel's
// phases (load and half sums, the cluster wait, forward, per-q with the inverse matrices' load, inverse, radial
// and chain rule), the global timer at the end.
constexpr int stamp_phases = 7, stamp_slots = stamp_phases + 2;

struct Plan {
  static constexpr bool fixed = false;  // the plan is its own (run-time) extents
  int n_r = 0, n_theta = 0, n_phi = 0, half = 0, lines = 0;
  Index points = 0;
  int components = 1;  // per cluster
  int blocks = max_blocks;  // per cluster
  int threads = 256;   // per block: 256 (two or four blocks per SM) or 512 (one)
  int per_sm = 2;      // blocks per SM the kernel is built for (registers); 4: the narrow register tiles
  int even = 0;        // q' < even: sigma = +1 (q' is the route's order of the Fourier coefficients)
  bool fixed_extents = true;  // run a compiled fixed instance when one matches (false: the run-time one)
  bool tensor_cores = false;  // the three products as FP64 tensor-core tiles (cluster_mma.hpp), one per warp
  bool padded = false;        // row strides padded against shared-memory bank conflicts (padded_stride)
  // row strides in shared memory (>= the extent; padded_stride of it when padded): X, Z and E/O rows of a
  // block's lines; Y's theta rows of one (c, q); the DFT matrices' rows; the per-q matrices' columns
  int ld_line = 0, ld_r = 0, ld_half = 0, ld_theta = 0;
  int max_group = 0;  // coefficients in the largest matrix group
  // the radial derivative from the block's own input in shared memory (cluster_mma.hpp radial_mma) instead of
  // 10 global loads per point: the blocks split the lines by whole theta columns (all r of each theta)
  bool shared_radial = false;
  // the tensor-core products in strips (cluster_strips.hpp: a warp's A fragments and row addresses once for
  // several column tiles); the kernel is built for 256 threads and 3 or 4 blocks per SM, 512 and 2, or 1024 and 1
  bool strips = false;
  // the inverse Jacobian of the block's points prefetched into L2 at the start (the chain rule's loads at the
  // end then wait on L2, not DRAM)
  bool prefetch_jacobian = false;
  // per-block clock stamps of the kernel's phases when not null (cluster::stamp_slots per block; the device only)
  unsigned long long* stamps = nullptr;
  int groups = 0;      // matrix groups: q' in [group_q[g], group_q[g + 1]) share A_{t,g}
  // (b past blocks: groups and n_phi, so an owner search over max_blocks never picks them)
  int group_start[max_blocks + 1] = {};
  int q_start[max_blocks + 1] = {};              // q_start[b] = group_q[group_start[b]]
  int max_lines = 0, max_q = 0, max_groups = 0;  // of any block
  const int* group_q = nullptr;                  // groups + 1 values
  const int* group_of = nullptr;                 // the group of q', n_phi values
  const double* radial = nullptr;                // R(r, k) at r n_r + k
  const double* forward = nullptr;               // F(q', j), j < half, at q' half + j
  const double* inverse = nullptr;               // B_t(j, q'), j < half, at (t n_phi + q') half + j
                                                 // (staged over the per-q matrices once step 2 is done)
  const double* per_q = nullptr;                 // A_{t,g}(i, k) at ((t groups + g) n_theta + k) ld_theta + i
  // (the forward and inverse rows likewise ld_half apart, not half)
  // shared memory of a block, in doubles: [radial | forward | per-q, then inverse | Y | X | Z]; E/O (the
  // inverse's sums) overwrite [Y .. X] once every block is past step 2
  int at_forward = 0, at_per_q = 0, at_y = 0, at_x = 0, at_z = 0, shared = 0;
  int at_dr = 0;  // with shared_radial: d_r of the half sums, [c][s][j][l'] as X (after Z)

  // Block b's first line: b lines / blocks, or by whole theta columns (n_r b n_theta / blocks).
  LOOM_HOST_DEVICE int line_start(int b) const {
    return shared_radial ? n_r * (b * n_theta / blocks) : b * lines / blocks;
  }
  // The block owning line l (line_start(owner) <= l < line_start(owner + 1)).
  LOOM_HOST_DEVICE int line_owner(int l) const {
    return shared_radial ? ((l / n_r + 1) * blocks - 1) / n_theta : ((l + 1) * blocks - 1) / lines;
  }
  LOOM_HOST_DEVICE int q_owner(int q) const {
    int b = 0;
    while (q >= q_start[b + 1]) ++b;
    return b;
  }
};

// Several shells of the same extents and angular operators (the same plan) in one launch: shell s's fields through
// map[s], its inverse Jacobian jacobian[s] (null: the logical gradient) and its radial derivative matrix radial[s]
// (the plan's layout; shells of other radii differ only there), every map of the same number of components.
// Passed by value as a kernel parameter (within the 4 KB of parameters with the plan: no table to upload per
// call). Cluster k works on shell k / per_shell, components from k % per_shell times the plan's components per
// cluster: one shell's clusters after the other's.
constexpr int max_shells = 16;
struct Shells {
  int count = 0;
  Index per_shell = 0;  // clusters per shell
  sweep::ComponentMap map[max_shells];
  const double* jacobian[max_shells] = {};
  const double* radial[max_shells] = {};

  LOOM_HOST_DEVICE Index clusters() const { return count * per_shell; }
  LOOM_HOST_DEVICE int shell_of(Index cluster) const { return static_cast<int>(cluster / per_shell); }
  LOOM_HOST_DEVICE Index first_component(Index cluster, int per_cluster) const {
    return cluster % per_shell * per_cluster;
  }
};

// The launches the kernel is built for: 256 threads with 2 or 4 blocks per SM or 512 with 1 (register tiles), 256
// with 2 (tensor cores one tile per warp), 256 with 3 or 4, 512 with 2 or 1024 with 1 (in strips).
constexpr bool valid_launch(int threads, int per_sm, bool tensor_cores, bool strips) {
  if (strips)
    return tensor_cores && ((threads == 256 && (per_sm == 3 || per_sm == 4)) || (threads == 512 && per_sm == 2) ||
                            (threads == 1024 && per_sm == 1));
  if (tensor_cores) return threads == 256 && per_sm == 2;
  return (threads == 256 && (per_sm == 2 || per_sm == 4)) || (threads == 512 && per_sm == 1);
}
constexpr const char* launch_rule =
    "cluster route: 256 threads per block with 2 or 4 blocks per SM or 512 with 1; the tensor cores 256 with 2, "
    "in strips 256 with 3 or 4, 512 with 2 or 1024 with 1";

// A row stride of at least n doubles that makes the rows of an 8 x 4 (or 4 x 8) fragment of 64-bit loads hit
// distinct banks: a half-warp reads 4 rows of 4 consecutive doubles (or 4 consecutive rows of 4), so the stride
// must be 4 mod 8 (4 rows then start 4, 8 or 12 doubles apart of 16 double-wide banks).
constexpr LOOM_HOST_DEVICE int padded_stride(int n) { return n + ((4 - n) % 8 + 8) % 8; }
constexpr LOOM_HOST_DEVICE int stride(int n, bool padded) { return padded ? padded_stride(n) : n; }

// Extents fixed at compile time (the kernel's fast instance): max_q bounds the plan's (the layout keeps the
// plan's own), and the even coefficients are the first half (sigma = (-1)^m gives n_phi / 2 of each sign).
template <int NR, int NT, int NP, int G, int ML, int MQ, bool Padded = false, int B = max_blocks, bool SR = false>
struct Fixed {
  static constexpr bool fixed = true, shared_radial = SR;
  static constexpr int n_r = NR, n_theta = NT, n_phi = NP, half = NP / 2, lines = NR * NT, components = G,
                       max_lines = ML, max_q = MQ, even = NP / 2, blocks = B;
  static constexpr int ld_line = stride(ML, Padded), ld_r = stride(NR, Padded), ld_half = stride(NP / 2, Padded),
                       ld_theta = stride(NT, Padded);
  static bool matches(const Plan& p) {
    return p.fixed_extents && p.n_r == n_r && p.n_theta == n_theta && p.n_phi == n_phi && p.components == components &&
           p.max_lines == max_lines && p.max_q <= max_q && p.even == even && p.padded == Padded && p.blocks == blocks &&
           p.shared_radial == shared_radial;
  }
};

// SpEC's production shell (10 x 19 x 38) with one or two components per cluster, natural or padded strides;
// one component on clusters of 5 blocks (50 clusters, 250 blocks: every SM two blocks but 14 one, against 200
// blocks of 8-block clusters where 68 SMs hold two and 64 one).
using Production1 = Fixed<10, 19, 38, 1, 24, 6>;
using Production2 = Fixed<10, 19, 38, 2, 24, 6>;
using Production1Padded = Fixed<10, 19, 38, 1, 24, 6, true>;
using Production2Padded = Fixed<10, 19, 38, 2, 24, 6, true>;
using Production1Padded5 = Fixed<10, 19, 38, 1, 38, 10, true, 5>;
// the same with the lines split by whole theta columns (3 or 4 of 19 per block) and d_r from shared memory
using Production1Padded5Radial = Fixed<10, 19, 38, 1, 40, 10, true, 5, true>;
// one component on clusters of 7 blocks (350 blocks of 60 KB, three per SM; the H200 holds only 329 of them at
// once, a cluster staying in one GPC: a second wave)
using Production1Padded7 = Fixed<10, 19, 38, 1, 28, 8, true, 7>;
// one component on clusters of 6 blocks, natural rows (300 blocks of 68 KB: three per SM; padded rows would not
// fit three)
using Production1Natural6 = Fixed<10, 19, 38, 1, 32, 8, false, 6>;
// two components per cluster of 5 or 4 blocks of 1024 threads, one block per SM (125 or 100 blocks: no SM holds
// two while others hold one; 150-180 KB each)
using Production2Padded5 = Fixed<10, 19, 38, 2, 38, 10, true, 5>;
using Production2Padded4 = Fixed<10, 19, 38, 2, 48, 12, true, 4>;

// Each lane's register tile (rows x columns) of the three products: wide for two blocks per SM (128 registers),
// narrow for four (64 registers; twice the tasks, so a block of one component still has one per thread).
struct Wide {
  static constexpr int forward_m = 4, forward_n = 2, per_q_m = 4, per_q_n = 5, inverse_m = 4, inverse_n = 4;
};
struct Narrow {
  static constexpr int forward_m = 2, forward_n = 2, per_q_m = 2, per_q_n = 5, inverse_m = 2, inverse_n = 4;
};
// The products as 8 x 8 tiles of FP64 tensor-core MMA (m8n8k4), one tile per warp (cluster_mma.hpp), or in strips
// of tiles that share a warp's A fragments (cluster_strips.hpp; at fixed extents).
// Threads and PerSm: the block size and the blocks per SM the strips' kernel is built for (256 threads with 3: 85
// registers, with 4: 64; 512 threads with 2 and 1024 with 1: 64).
struct Mma {};
template <int Threads, int PerSm>
struct MmaStrips {
  static constexpr int threads = Threads, per_sm = PerSm;
};
template <class T>
constexpr bool is_strips = false;
template <int Threads, int PerSm>
constexpr bool is_strips<MmaStrips<Threads, PerSm>> = true;

// g(the first of Es that matches p, else p itself).
template <class G>
void first_match(const Plan& p, const G& g) {
  g(p);
}
template <class E, class... Es, class G>
void first_match(const Plan& p, const G& g) {
  if (E::matches(p)) return g(E{});
  first_match<Es...>(p, g);
}

// Calls f(extents, tiles): the plan's fixed extents when a compiled instance matches it, else the plan itself;
// the narrow tiles for four blocks per SM, the tensor-core tiles when the plan asks for them (each tile kind
// with the fixed instances its variants use: fewer kernels to compile).
template <class F>
void with_extents(const Plan& p, const F& f) {
  if (p.tensor_cores && p.strips) {  // strips at fixed extents only; else one tile per warp
    bool fixed = false;
    const auto strips = [&](const auto& e, auto tiles) {
      if constexpr (std::decay_t<decltype(e)>::fixed) {
        f(e, tiles);
        fixed = true;
      }
    };
    if (p.threads == 1024)
      first_match<Production2Padded5, Production2Padded4>(p, [&](const auto& e) { strips(e, MmaStrips<1024, 1>{}); });
    else if (p.threads == 512)
      first_match<Production2Padded>(p, [&](const auto& e) { strips(e, MmaStrips<512, 2>{}); });
    else if (p.per_sm == 4)
      first_match<Production1>(p, [&](const auto& e) { strips(e, MmaStrips<256, 4>{}); });
    else
      first_match<Production2Padded, Production2, Production1Padded7, Production1Natural6>(
          p, [&](const auto& e) { strips(e, MmaStrips<256, 3>{}); });
    if (fixed) return;
  }
  if (p.tensor_cores)
    return first_match<Production2, Production1, Production2Padded, Production1Padded, Production1Padded5,
                       Production1Padded5Radial>(p, [&](const auto& e) { f(e, Mma{}); });
  if (p.per_sm == 4) return first_match<Production2, Production1>(p, [&](const auto& e) { f(e, Narrow{}); });
  first_match<Production2, Production1, Production2Padded>(p, [&](const auto& e) { f(e, Wide{}); });
}

// Whether the plan runs at compiled fixed extents (the run-time instance of the tensor-core tiles is slow).
inline bool runs_fixed(const Plan& p) {
  bool fixed = false;
  with_extents(p, [&](const auto& e, auto) { fixed = std::decay_t<decltype(e)>::fixed; });
  return fixed;
}

// Whether the plan runs the products in strips (a compiled strips instance matches it).
inline bool runs_strips(const Plan& p) {
  bool strips = false;
  with_extents(p, [&](const auto&, auto tiles) { strips = is_strips<decltype(tiles)>; });
  return strips;
}

template <class E>
LOOM_HOST_DEVICE int line_start(const E& e, int b) {
  return e.shared_radial ? e.n_r * (b * e.n_theta / e.blocks) : b * e.lines / e.blocks;
}
template <class E>
LOOM_HOST_DEVICE int line_owner(const E& e, int l) {
  return e.shared_radial ? ((l / e.n_r + 1) * e.blocks - 1) / e.n_theta : ((l + 1) * e.blocks - 1) / e.lines;
}
// Where line l = r + n_r theta sits in Y's rows of one (c, q): r + ld_r theta; Y's size per (c, q).
template <class E>
LOOM_HOST_DEVICE int y_at(const E& e, int l) {
  return e.ld_r == e.n_r ? l : l % e.n_r + e.ld_r * (l / e.n_r);
}
template <class E>
LOOM_HOST_DEVICE int y_size(const E& e) {
  return e.ld_r * e.n_theta;
}

// Peers on the host: the shared memory of the cluster's blocks (this block's own at rank b); the kernel's peers
// map ranks into the cluster's distributed shared memory instead (same at(rank)).
struct Peers {
  double* base[max_blocks] = {};
  double* at(int rank) const { return base[rank]; }
};

// Element (i, k) of a product's operand at p[i row + k col].
struct Operand {
  const double* p;
  int row, col;
};

// The TM x TN tile at (i0, j0) of C = A B with m x n results and k terms, each result passed to store(i, j, v):
// rows and columns past the ends read the last valid ones (no branch in the loop) and are not stored. With
// `unrolled` (k fixed at compile time) the k loop is unrolled whole: every load has a constant offset.
template <int TM, int TN, bool unrolled, class Store>
LOOM_HOST_DEVICE inline void tile_product(Operand a, Operand b, int m, int n, int k, int i0, int j0,
                                          const Store& store) {
  int ai[TM], bj[TN];
  LOOM_UNROLL
  for (int s = 0; s < TM; ++s) ai[s] = std::min(i0 + s, m - 1) * a.row;
  LOOM_UNROLL
  for (int t = 0; t < TN; ++t) bj[t] = std::min(j0 + t, n - 1) * b.col;
  double sum[TM][TN] = {};
  const auto term = [&](int l) {
    double x[TM], y[TN];
    LOOM_UNROLL
    for (int s = 0; s < TM; ++s) x[s] = a.p[ai[s] + l * a.col];
    LOOM_UNROLL
    for (int t = 0; t < TN; ++t) y[t] = b.p[l * b.row + bj[t]];
    LOOM_UNROLL
    for (int s = 0; s < TM; ++s) {
      LOOM_UNROLL
      for (int t = 0; t < TN; ++t) sum[s][t] += x[s] * y[t];
    }
  };
  if constexpr (unrolled) {
    LOOM_UNROLL
    for (int l = 0; l < k; ++l) term(l);
  } else {
    LOOM_SPECTRAL_UNROLL2
    for (int l = 0; l < k; ++l) term(l);
  }
  LOOM_UNROLL
  for (int s = 0; s < TM; ++s) {
    LOOM_UNROLL
    for (int t = 0; t < TN; ++t)
      if (i0 + s < m && j0 + t < n) store(i0 + s, j0 + t, sum[s][t]);
  }
}

constexpr LOOM_HOST_DEVICE int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Copies `count` doubles from global to this block's shared memory (asynchronously on the device: every copy of
// the start is in flight at once; stage_wait completes them).
LOOM_HOST_DEVICE inline void stage_one(const double* from, double* to) {
#if defined(__CUDA_ARCH__)
  __pipeline_memcpy_async(to, from, sizeof(double));
#else
  *to = *from;
#endif
}
LOOM_HOST_DEVICE inline void stage(const double* from, double* to, int count, sweep::Lanes lanes) {
  for (int v = lanes.lane; v < count; v += lanes.count) stage_one(from + v, to + v);
}

LOOM_HOST_DEVICE inline void stage_wait() {
#if defined(__CUDA_ARCH__)
  __pipeline_commit();
  __pipeline_wait_prior(0);
#endif
}

// Step 0: the block's matrices (the shell's radial one) and its lines of every component into shared memory
// (X[c][phi][l'], zero for components past the map's end), all copies in flight at once.
template <class E>
LOOM_HOST_DEVICE void load(const E& e, const Plan& p, const double* radial, const sweep::ComponentMap& map, Index c0,
                           int b, double* shared, sweep::Lanes lanes) {
  const int first = p.group_start[b], count = p.group_start[b + 1] - first, square = e.ld_theta * e.n_theta;
  stage(radial, shared, e.n_r * e.n_r, lanes);
  stage(p.forward, shared + p.at_forward, e.n_phi * e.ld_half, lanes);
  for (int t = 0; t < 2; ++t)
    stage(p.per_q + (t * p.groups + first) * square, shared + p.at_per_q + t * p.max_groups * square,
          count * square, lanes);
  const int l0 = line_start(e, b), nl = line_start(e, b + 1) - l0, per = e.n_phi * e.max_lines;
  const Index components = map.components();
  for (int c = 0; c < e.components; ++c) {
    double* x = shared + p.at_x + c * e.n_phi * e.ld_line;
    const bool absent = c0 + c >= components;
    const double* u = absent ? nullptr : map.input(c0 + c, p.points) + l0;
    for (int v = lanes.lane; v < per; v += lanes.count) {
      const int l = v % e.max_lines, phi = v / e.max_lines;
      if (absent)
        x[phi * e.ld_line + l] = 0;
      else if (l < nl)
        stage_one(u + phi * e.lines + l, x + phi * e.ld_line + l);
    }
  }
}

// Step 0a (with p.prefetch_jacobian, the device only): the inverse Jacobian of the block's points asked into L2,
// one prefetch per 128-byte line of each of its 9 x n_phi ranges of the block's lines (clamped into the range).
template <class E>
LOOM_HOST_DEVICE void prefetch_jacobian(const E& e, const Plan& p, const double* jacobian, int b,
                                        sweep::Lanes lanes) {
#if defined(__CUDA_ARCH__)
  if (!p.prefetch_jacobian || jacobian == nullptr) return;
  constexpr int line = 16;  // doubles per 128 bytes
  const int l0 = line_start(e, b), nl = line_start(e, b + 1) - l0, per_range = ceil_div(nl, line) + 1;
  for (int v = lanes.lane; v < 9 * e.n_phi * per_range; v += lanes.count) {
    const int k = v % per_range, range = v / per_range, phi = range % e.n_phi, i = range / e.n_phi;
    const double* at = jacobian + i * p.points + Index{phi} * e.lines + l0 + std::min(k * line, nl - 1);
    asm volatile("prefetch.global.L2 [%0];" ::"l"(at));
  }
#else
  (void)e, (void)p, (void)jacobian, (void)b, (void)lanes;
#endif
}

// Step 0b: the phi half-sums in place, X[c][s][j][l'] = raw(j) + sigma_s raw(j + half) (s = 0: sigma +1,
// s = 1: -1).
template <class E>
LOOM_HOST_DEVICE void half_sums(const E& e, const Plan& p, int b, double* shared, sweep::Lanes lanes) {
  const int nl = line_start(e, b + 1) - line_start(e, b), values = e.components * e.half * e.max_lines;
  for (int v = lanes.lane; v < values; v += lanes.count) {
    const int l = v % e.max_lines, cj = v / e.max_lines, j = cj % e.half, c = cj / e.half;
    if (l >= nl) continue;
    double* x = shared + p.at_x + (c * e.n_phi + j) * e.ld_line + l;
    const double low = x[0], high = x[e.half * e.ld_line];
    x[0] = low + high;
    x[e.half * e.ld_line] = low - high;
  }
}

// Step 1: G[c][q'][l'] = sum_j F(q', j) X[c][s(q')][j][l'] for the block's lines (two products per component),
// each value stored as Y[c][q''][l] of the block owning q' (q'' = q' - q_start[owner], l = line_start(b) + l').
template <class T, class E, class PeerMap>
LOOM_HOST_DEVICE void forward(const E& e, const Plan& p, int b, const PeerMap& peers, double* shared,
                              sweep::Lanes lanes) {
  constexpr int TM = T::forward_m, TN = T::forward_n;
  const int l0 = line_start(e, b), nl = line_start(e, b + 1) - l0;
  const int tm = ceil_div(std::max(e.even, e.n_phi - e.even), TM), per = tm * ceil_div(e.max_lines, TN);
  for (int task = lanes.lane; task < 2 * e.components * per; task += lanes.count) {
    const int tile = task % per, product = task / per, s = product % 2, c = product / 2;
    const int q0 = s == 0 ? 0 : e.even, m = s == 0 ? e.even : e.n_phi - e.even;
    const int i0 = tile % tm * TM, j0 = tile / tm * TN;
    if (i0 >= m || j0 >= nl) continue;
    const Operand f{shared + p.at_forward + q0 * e.ld_half, e.ld_half, 1};
    const Operand x{shared + p.at_x + (c * e.n_phi + s * e.half) * e.ld_line, e.ld_line, 1};
    tile_product<TM, TN, E::fixed>(f, x, m, nl, e.half, i0, j0, [&](int i, int j, double v) {
      const int q = q0 + i;
      int owner = 0, start = 0;
      LOOM_UNROLL
      for (int r = 1; r < max_blocks; ++r)
        if (q >= p.q_start[r]) owner = r, start = p.q_start[r];
      peers.at(owner)[p.at_y + (c * p.max_q + q - start) * y_size(e) + y_at(e, l0 + j)] = v;
    });
  }
}

// Step 2: H[t][c][q''][r + n_r i] = sum_k A_{t,g(q'')}(i, k) Y[c][q''][r + n_r k], one product per (t, c, q''),
// each value stored as Z[t][c][q'][l'] of the block owning line l = r + n_r i.
template <class T, class E, class PeerMap>
LOOM_HOST_DEVICE void per_q(const E& e, const Plan& p, int b, const PeerMap& peers, double* shared,
                            sweep::Lanes lanes) {
  constexpr int TM = T::per_q_m, TN = T::per_q_n;
  const int q0 = p.q_start[b], nq = p.q_start[b + 1] - q0, first = p.group_start[b];
  const int tm = ceil_div(e.n_theta, TM), per = tm * ceil_div(e.n_r, TN), square = e.ld_theta * e.n_theta;
  for (int task = lanes.lane; task < 2 * e.components * e.max_q * per; task += lanes.count) {
    const int tile = task % per, product = task / per, q = product % e.max_q, tc = product / e.max_q;
    if (q >= nq) continue;
    const int t = tc / e.components, c = tc % e.components, g = sweep::load_cached(p.group_of + q0 + q);
    const Operand a{shared + p.at_per_q + (t * p.max_groups + g - first) * square, 1, e.ld_theta};
    const Operand y{shared + p.at_y + (c * p.max_q + q) * y_size(e), e.ld_r, 1};
    const int i0 = tile % tm * TM, j0 = tile / tm * TN;
    tile_product<TM, TN, E::fixed>(a, y, e.n_theta, e.n_r, e.n_theta, i0, j0, [&](int i, int r, double v) {
      const int line = r + e.n_r * i, owner = line_owner(e, line);
      peers.at(owner)[p.at_z + (tc * e.n_phi + q0 + q) * e.ld_line + line - line_start(e, owner)] = v;
    });
  }
}

// Step 2b: the inverse DFT matrices over this block's per-q matrices (dead once its step 2 is done; in flight
// during the cluster barrier, stage_wait completes them).
template <class E>
LOOM_HOST_DEVICE void load_inverse(const E& e, const Plan& p, double* shared, sweep::Lanes lanes) {
  stage(p.inverse, shared + p.at_per_q, 2 * e.n_phi * e.ld_half, lanes);
}

// Step 3: E_t (s = 0) and O_t (s = 1), [t][c][s][j][l'] = sum over q' of parity s of B_t(j, q') Z[t][c][q'][l'],
// into Y's place on (dead once every block is past step 2).
template <class T, class E>
LOOM_HOST_DEVICE void inverse(const E& e, const Plan& p, int b, double* shared, sweep::Lanes lanes) {
  constexpr int TM = T::inverse_m, TN = T::inverse_n;
  const int nl = line_start(e, b + 1) - line_start(e, b);
  const int tm = ceil_div(e.half, TM), per = tm * ceil_div(e.max_lines, TN);
  for (int task = lanes.lane; task < 4 * e.components * per; task += lanes.count) {
    const int tile = task % per, product = task / per, s = product % 2, tc = product / 2;
    const int i0 = tile % tm * TM, j0 = tile / tm * TN;
    if (j0 >= nl) continue;
    const int q0 = s == 0 ? 0 : e.even, k = s == 0 ? e.even : e.n_phi - e.even, t = tc / e.components;
    const Operand bt{shared + p.at_per_q + (t * e.n_phi + q0) * e.ld_half, 1, e.ld_half};
    const Operand z{shared + p.at_z + (tc * e.n_phi + q0) * e.ld_line, e.ld_line, 1};
    double* eo = shared + p.at_y + (tc * e.n_phi + s * e.half) * e.ld_line;
    tile_product<TM, TN, E::fixed>(bt, z, e.half, nl, k, i0, j0,
                                   [&](int j, int l, double v) { eo[j * e.ld_line + l] = v; });
  }
}

// d_r at point (l, phi) of the block, component c: the radial matrix on the input (global memory), or with
// shared_radial from the d_r of the half sums (DR, radial_mma): u(j) = (S+ + S-) / 2, u(j + half) = (S+ - S-) / 2.
template <class E>
LOOM_HOST_DEVICE double radial_derivative(const E& e, const Plan& p, const double* shared, const double* u, int r,
                                          int c, int l, int phi) {
  if (e.shared_radial) {
    const int j = phi < e.half ? phi : phi - e.half;
    const double* dr = shared + p.at_dr + (c * e.n_phi + j) * e.ld_line + l;
    const double plus = dr[0], minus = dr[e.half * e.ld_line];
    return 0.5 * (phi < e.half ? plus + minus : plus - minus);
  }
  const double* radial = shared + r * e.n_r;
  double d0 = 0;
  LOOM_UNROLL
  for (int k = 0; k < e.n_r; ++k) d0 += radial[k] * sweep::load_cached(u + k);
  return d0;
}

// Step 4: at each point of the block's lines, d_r (radial_derivative), d_theta and d_phi as E +- O, then the
// chain rule (eq. 8) into the map's outputs, the inverse Jacobian read once for all components.
template <class E>
LOOM_HOST_DEVICE void radial_chain(const E& e, const Plan& p, const sweep::ComponentMap& map, Index c0,
                                   const double* jacobian, int b, const double* shared, sweep::Lanes lanes) {
  const int l0 = line_start(e, b), nl = line_start(e, b + 1) - l0;
  const int present = static_cast<int>(std::min<Index>(e.components, map.components() - c0));
  LOOM_SPECTRAL_UNROLL2
  for (int v = lanes.lane; v < e.n_phi * e.max_lines; v += lanes.count) {
    const int l = v % e.max_lines, phi = v / e.max_lines;
    if (l >= nl) continue;
    const int line = l0 + l, r = line % e.n_r, j = phi < e.half ? phi : phi - e.half;
    const Index point = line + Index{e.lines} * phi;
    double J[9];
    if (jacobian) sweep::load_jacobian(jacobian, p.points, point, J);
    LOOM_UNROLL
    for (int c = 0; c < e.components; ++c) {
      if (c >= present) break;
      const double d0 = radial_derivative(e, p, shared, map.input(c0 + c, p.points) + (point - r), r, c, l, phi);
      double d[2];
      LOOM_UNROLL
      for (int t = 0; t < 2; ++t) {
        const double* eo = shared + p.at_y + ((t * e.components + c) * e.n_phi + j) * e.ld_line + l;
        const double even = eo[0], odd = eo[e.half * e.ld_line];
        d[t] = phi < e.half ? even + odd : even - odd;
      }
      if (jacobian)  // (one call with a pointer chosen by a ternary would put J in local memory)
        sweep::chain_rule_with(J, p.points, point, c0 + c, map, d0, d[0], d[1]);
      else
        sweep::chain_rule_with(nullptr, p.points, point, c0 + c, map, d0, d[0], d[1]);
    }
  }
}

}  // namespace loom::spectral::cluster
