// The separable shell gradient in one launch (issue 18, docs/spectral.md "The cluster route"): phi DFT, per-m
// theta matrices, inverse DFT, radial derivative and chain rule (eq. 8) for all components, with every
// intermediate in shared memory. A cluster of `blocks` thread blocks (sm_90's distributed shared memory) holds
// `components` components; its blocks split the work by what each step couples:
//   lines (r, theta) for the phi DFT, the inverse DFT and the radial derivative with the chain rule
//   (block b owns lines [line_start(b), line_start(b + 1)) of every component of the cluster, all phi),
//   Fourier coefficients q for the per-m theta matrices (block b owns the matrix groups [group_start[b],
//   group_start[b + 1]), so each block stages only its own matrices),
// and exchange the coefficients between the two splits by reading each other's shared memory (two gathers, three
// cluster barriers). Both phi transforms use the DFT's half-period symmetry F(q, phi + pi) = sigma_q F(q, phi)
// (sigma_q = (-1)^m, checked on the host when the route is built): the forward transform of u is the transform
// of u(phi) + sigma u(phi + pi) over half the points, the inverse is E +- O from the sums over even and odd q,
// which halves both DFTs' flops. Every product is a small GEMM in shared memory, each lane a tile x tile block of
// it. Written once: the kernel (cluster_shell_cuda.cu) runs the steps with the block's threads as lanes and the
// cluster's shared memory as the peers; the CPU form (cluster_shell.cpp) runs every block of a cluster one step
// at a time with one lane, which the CPU tests check against the FFT reference.
#pragma once

#include <algorithm>

#include "loom/core/host_device.hpp"
#include "loom/spectral/shell_separable.hpp"
#include "loom/spectral/shell_sweep.hpp"

#if defined(__CUDACC__)
#include <cuda_pipeline.h>
#endif

namespace loom::spectral::cluster {

constexpr int blocks = 8;  // thread blocks per cluster (the portable maximum)
constexpr int tile = 4;    // each lane's register tile of a product: tile x tile outputs

struct Plan {
  int n_r = 0, n_theta = 0, n_phi = 0, half = 0, lines = 0;
  Index points = 0;
  int components = 1;  // per cluster
  int threads = 256;   // per block: 256 (two blocks per SM) or 512 (one)
  int even = 0;        // q' < even: sigma = +1 (q' is the route's order of the Fourier coefficients)
  int groups = 0;      // matrix groups: q' in [group_q[g], group_q[g + 1]) share A_{t,g}
  int group_start[blocks + 1] = {};
  int q_start[blocks + 1] = {};                  // q_start[b] = group_q[group_start[b]]
  int max_lines = 0, max_q = 0, max_groups = 0;  // of any block
  const int* group_q = nullptr;                  // groups + 1 values
  const double* radial = nullptr;                // R(r, k) at r n_r + k
  const double* forward = nullptr;               // F(q', j), j < half, at q' half + j
  const double* inverse = nullptr;               // B_t(j, q'), j < half, at (t n_phi + q') half + j
  const double* per_q = nullptr;                 // A_{t,g}(i, k) at ((t groups + g) n_theta + k) n_theta + i
  // shared memory of a block, in doubles: [inverse | radial | forward | per-q | G | scratch | H]
  int at_radial = 0, at_forward = 0, at_per_q = 0, at_g = 0, at_scratch = 0, at_h = 0, shared = 0;

  LOOM_HOST_DEVICE int line_start(int b) const { return b * lines / blocks; }
  // The block owning line l (line_start(owner) <= l < line_start(owner + 1)).
  LOOM_HOST_DEVICE int line_owner(int l) const { return ((l + 1) * blocks - 1) / lines; }
  LOOM_HOST_DEVICE int q_owner(int q) const {
    int b = 0;
    while (q >= q_start[b + 1]) ++b;
    return b;
  }
};

// The shared memory of the cluster's blocks on the host (this block's own at rank b); the kernel's peers map
// ranks into the cluster's distributed shared memory instead (same at(rank)).
struct Peers {
  double* base[blocks] = {};
  double* at(int rank) const { return base[rank]; }
};

// Element (i, k) of a product's operand at p[i row + k col]; the result's (i, j) likewise.
struct Operand {
  const double* p;
  int row, col;
};
struct Result {
  double* p;
  int row, col;
};

// Tile `task` (rows fastest) of C = A B with m x n results and k terms: rows and columns past the ends read
// the last valid ones (no branch in the loop) and are not written.
LOOM_HOST_DEVICE inline void tile_product(Operand a, Operand b, Result c, int m, int n, int k, int task) {
  const int tiles_m = (m + tile - 1) / tile;
  const int i0 = task % tiles_m * tile, j0 = task / tiles_m * tile;
  int ai[tile], bj[tile];
  LOOM_UNROLL
  for (int t = 0; t < tile; ++t) {
    ai[t] = std::min(i0 + t, m - 1) * a.row;
    bj[t] = std::min(j0 + t, n - 1) * b.col;
  }
  double sum[tile][tile] = {};
  LOOM_SPECTRAL_UNROLL2
  for (int l = 0; l < k; ++l) {
    double x[tile], y[tile];
    LOOM_UNROLL
    for (int t = 0; t < tile; ++t) {
      x[t] = a.p[ai[t] + l * a.col];
      y[t] = b.p[l * b.row + bj[t]];
    }
    LOOM_UNROLL
    for (int s = 0; s < tile; ++s) {
      LOOM_UNROLL
      for (int t = 0; t < tile; ++t) sum[s][t] += x[s] * y[t];
    }
  }
  LOOM_UNROLL
  for (int s = 0; s < tile; ++s) {
    LOOM_UNROLL
    for (int t = 0; t < tile; ++t)
      if (i0 + s < m && j0 + t < n) c.p[(i0 + s) * c.row + (j0 + t) * c.col] = sum[s][t];
  }
}

LOOM_HOST_DEVICE inline int tiles(int m, int n) { return ((m + tile - 1) / tile) * ((n + tile - 1) / tile); }

// `rows` rows of `count` doubles, row i from from + i stride to to + i ld, into shared memory (asynchronously
// on the device: every copy of the start is in flight at once; stage_wait completes them).
LOOM_HOST_DEVICE inline void stage_rows(const double* from, Index stride, double* to, int ld, int rows, int count,
                                        sweep::Lanes lanes) {
  for (int v = lanes.lane; v < rows * count; v += lanes.count) {
    const int i = v / count, k = v % count;
#if defined(__CUDA_ARCH__)
    __pipeline_memcpy_async(to + i * ld + k, from + i * stride + k, sizeof(double));
#else
    to[i * ld + k] = from[i * stride + k];
#endif
  }
}

// Copies `count` doubles from global to this block's shared memory (asynchronously on the device: every copy of
// the start is in flight at once; stage_wait completes them).
LOOM_HOST_DEVICE inline void stage(const double* from, double* to, int count, sweep::Lanes lanes) {
  stage_rows(from, 0, to, 0, 1, count, lanes);
}

LOOM_HOST_DEVICE inline void stage_wait() {
#if defined(__CUDA_ARCH__)
  __pipeline_commit();
  __pipeline_wait_prior(0);
#endif
}

// Step 0: the block's matrices and its lines of every component into shared memory (raw[c][phi][l'] in
// scratch; zero for components past the map's end), all copies in flight at once.
LOOM_HOST_DEVICE inline void load(const Plan& p, const sweep::ComponentMap& map, Index c0, int b, double* shared,
                                  sweep::Lanes lanes) {
  const int first = p.group_start[b], count = p.group_start[b + 1] - first, square = p.n_theta * p.n_theta;
  stage(p.inverse, shared, 2 * p.n_phi * p.half, lanes);
  stage(p.radial, shared + p.at_radial, p.n_r * p.n_r, lanes);
  stage(p.forward, shared + p.at_forward, p.n_phi * p.half, lanes);
  for (int t = 0; t < 2; ++t)
    stage(p.per_q + (t * p.groups + first) * square, shared + p.at_per_q + t * p.max_groups * square,
          count * square, lanes);
  const int l0 = p.line_start(b), nl = p.line_start(b + 1) - l0;
  const Index components = map.components();
  for (int c = 0; c < p.components; ++c) {
    double* raw = shared + p.at_scratch + c * p.n_phi * p.max_lines;
    if (c0 + c >= components) {
      for (int v = lanes.lane; v < p.n_phi * p.max_lines; v += lanes.count) raw[v] = 0;
      continue;
    }
    if (nl > 0) stage_rows(map.input(c0 + c, p.points) + l0, p.lines, raw, p.max_lines, p.n_phi, nl, lanes);
  }
}

// Step 0b: the phi half-sums in place, X[c][s][j][l'] = raw(j) + sigma_s raw(j + half) (s = 0: sigma +1,
// s = 1: -1).
LOOM_HOST_DEVICE inline void half_sums(const Plan& p, int b, double* shared, sweep::Lanes lanes) {
  const int nl = p.line_start(b + 1) - p.line_start(b), values = p.components * p.half * nl;
  for (int v = lanes.lane; v < values; v += lanes.count) {
    const int l = v % nl, j = v / nl % p.half, c = v / (nl * p.half);
    double* x = shared + p.at_scratch + (c * p.n_phi + j) * p.max_lines + l;
    const double low = x[0], high = x[p.half * p.max_lines];
    x[0] = low + high;
    x[p.half * p.max_lines] = low - high;
  }
}

// Step 1: G[c][q'][l'] = sum_j F(q', j) X[c][s(q')][j][l'] for the block's lines (two products per component).
LOOM_HOST_DEVICE inline void forward(const Plan& p, int b, double* shared, sweep::Lanes lanes) {
  const int nl = p.line_start(b + 1) - p.line_start(b);
  if (nl == 0) return;
  const int most = std::max(p.even, p.n_phi - p.even), per = tiles(most, nl);
  for (int task = lanes.lane; task < 2 * p.components * per; task += lanes.count) {
    const int product = task / per, s = product % 2, c = product / 2;
    const int q0 = s == 0 ? 0 : p.even, m = s == 0 ? p.even : p.n_phi - p.even;
    if (task % per >= tiles(m, nl)) continue;
    const Operand f{shared + p.at_forward + q0 * p.half, p.half, 1};
    const Operand x{shared + p.at_scratch + (c * p.n_phi + s * p.half) * p.max_lines, p.max_lines, 1};
    const Result g{shared + p.at_g + (c * p.n_phi + q0) * p.max_lines, p.max_lines, 1};
    tile_product(f, x, g, m, nl, p.half, task % per);
  }
}

// Gather 1: Y[c][q''][l] = G[c][q_start[b] + q''][l] of every line from the block owning it.
template <class PeerMap>
LOOM_HOST_DEVICE void gather_coefficients(const Plan& p, int b, const PeerMap& peers, double* shared,
                                          sweep::Lanes lanes) {
  const int q0 = p.q_start[b], nq = p.q_start[b + 1] - q0, values = p.components * nq * p.lines;
  double* y = shared + p.at_scratch;
  LOOM_SPECTRAL_UNROLL4  // several remote loads in flight per lane
  for (int v = lanes.lane; v < values; v += lanes.count) {
    const int l = v % p.lines, q = v / p.lines % nq, c = v / (p.lines * nq);
    const int owner = p.line_owner(l);
    y[(c * p.max_q + q) * p.lines + l] =
        peers.at(owner)[p.at_g + (c * p.n_phi + q0 + q) * p.max_lines + l - p.line_start(owner)];
  }
}

// Step 2: H[t][c][q''][r + n_r i] = sum_k A_{t,g(q'')}(i, k) Y[c][q''][r + n_r k], one product per (t, c, q'').
LOOM_HOST_DEVICE inline void per_q(const Plan& p, int b, double* shared, sweep::Lanes lanes) {
  const int q0 = p.q_start[b], nq = p.q_start[b + 1] - q0, first = p.group_start[b];
  const int per = tiles(p.n_theta, p.n_r), square = p.n_theta * p.n_theta;
  for (int task = lanes.lane; task < 2 * p.components * nq * per; task += lanes.count) {
    const int product = task / per, q = product % nq, c = product / nq % p.components,
              t = product / (nq * p.components);
    int g = first;
    while (p.group_q[g + 1] <= q0 + q) ++g;
    const Operand a{shared + p.at_per_q + (t * p.max_groups + g - first) * square, 1, p.n_theta};
    const Operand y{shared + p.at_scratch + (c * p.max_q + q) * p.lines, p.n_r, 1};
    const Result h{shared + p.at_h + ((t * p.components + c) * p.max_q + q) * p.lines, p.n_r, 1};
    tile_product(a, y, h, p.n_theta, p.n_r, p.n_theta, task % per);
  }
}

// Gather 2: Z[t][c][q'][l'] = H[t][c][q'][l] of every q' from the block owning it, for the block's lines. Z
// overwrites this block's forward matrix, per-q matrices, G and scratch (dead once every block is past step 2).
template <class PeerMap>
LOOM_HOST_DEVICE void gather_derivatives(const Plan& p, int b, const PeerMap& peers, double* shared,
                                         sweep::Lanes lanes) {
  const int l0 = p.line_start(b), nl = p.line_start(b + 1) - l0, values = 2 * p.components * p.n_phi * nl;
  double* z = shared + p.at_forward;
  LOOM_SPECTRAL_UNROLL4
  for (int v = lanes.lane; v < values; v += lanes.count) {
    const int l = v % nl, q = v / nl % p.n_phi, tc = v / (nl * p.n_phi);
    const int owner = p.q_owner(q);
    z[(tc * p.n_phi + q) * p.max_lines + l] =
        peers.at(owner)[p.at_h + (tc * p.max_q + q - p.q_start[owner]) * p.lines + l0 + l];
  }
}

// Step 3: E_t (s = 0) and O_t (s = 1), [t][c][s][j][l'] = sum over q' of parity s of B_t(j, q') Z[t][c][q'][l'],
// into H's place (dead once every block is past gather 2).
LOOM_HOST_DEVICE inline void inverse(const Plan& p, int b, double* shared, sweep::Lanes lanes) {
  const int nl = p.line_start(b + 1) - p.line_start(b);
  if (nl == 0) return;
  const int per = tiles(p.half, nl);
  for (int task = lanes.lane; task < 4 * p.components * per; task += lanes.count) {
    const int product = task / per, s = product % 2, tc = product / 2;
    const int q0 = s == 0 ? 0 : p.even, k = s == 0 ? p.even : p.n_phi - p.even, t = tc / p.components;
    const Operand bt{shared + (t * p.n_phi + q0) * p.half, 1, p.half};
    const Operand z{shared + p.at_forward + (tc * p.n_phi + q0) * p.max_lines, p.max_lines, 1};
    const Result e{shared + p.at_h + (tc * p.n_phi + s * p.half) * p.max_lines, p.max_lines, 1};
    tile_product(bt, z, e, p.half, nl, k, task % per);
  }
}

// Step 4: at each point of the block's lines, d_r by the radial matrix from the input, d_theta and d_phi as
// E +- O, then the chain rule (eq. 8) into the map's outputs.
LOOM_HOST_DEVICE inline void radial_chain(const Plan& p, const sweep::ComponentMap& map, Index c0,
                                          const double* jacobian, int b, const double* shared, sweep::Lanes lanes) {
  const int l0 = p.line_start(b), nl = p.line_start(b + 1) - l0;
  const Index components = map.components();
  const int values = p.components * p.n_phi * nl;
  const int present = static_cast<int>(std::min<Index>(values, (components - c0) * p.n_phi * nl));
  LOOM_SPECTRAL_UNROLL2
  for (int v = lanes.lane; v < present; v += lanes.count) {
    const int l = v % nl, phi = v / nl % p.n_phi, c = v / (nl * p.n_phi);
    const int line = l0 + l, r = line % p.n_r, j = phi < p.half ? phi : phi - p.half;
    const Index point = line + Index{p.lines} * phi;
    const double* u = map.input(c0 + c, p.points) + (point - r);
    const double* radial = shared + p.at_radial + r * p.n_r;
    double d0 = 0;
    for (int k = 0; k < p.n_r; ++k) d0 += radial[k] * sweep::load_cached(u + k);
    double d[2];
    LOOM_UNROLL
    for (int t = 0; t < 2; ++t) {
      const double* eo = shared + p.at_h + ((t * p.components + c) * p.n_phi + j) * p.max_lines + l;
      const double even = eo[0], odd = eo[p.half * p.max_lines];
      d[t] = phi < p.half ? even + odd : even - odd;
    }
    sweep::chain_rule(jacobian, p.points, point, c0 + c, map, d0, d[0], d[1]);
  }
}

}  // namespace loom::spectral::cluster
