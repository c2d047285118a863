// The cluster route's three products on the FP64 tensor cores (issue 18; docs/spectral.md "Twelfth session"):
// each product is cut into 8 x 8 tiles of its result, one warp per tile, each tile a sum of 8 x 8 x 4 MMA
// (mma.sync.m8n8k4.f64, sm_80 and later). A warp's lane holds one value of the A fragment (row lane / 4, k lane % 4)
// and one of the B fragment (k lane % 4, column lane / 4) per k-step, and two results (row lane / 4, columns
// 2 (lane % 4) and the next): 2 shared loads per lane per 256 FMA, where the register tiles of cluster_shell.hpp
// need 6-8 per 8-16 FMA. The tiles run over what shares a matrix: the forward DFT's columns are (component, line),
// the per-q step's (coefficient of one matrix group, component, r), the inverse's (component, line). On the host
// the same lanes' operands are gathered one warp at a time and the MMA is summed as written, so the CPU form
// checks the tiling, the fragments' addresses and the stores against the FFT reference (the device test checks
// the instruction's own layout).
#pragma once

#include <algorithm>
#include <type_traits>

#include "loom/spectral/cluster_shell.hpp"

namespace loom::spectral::cluster {

constexpr int mma_tile_size = 8, mma_k = 4, warp = 32;

// Warps as lanes of the tile loops (the host runs a whole warp per lane).
LOOM_HOST_DEVICE inline sweep::Lanes warps_of(sweep::Lanes threads) {
#if defined(__CUDA_ARCH__)
  return {threads.lane / warp, threads.count / warp};
#else
  return threads;
#endif
}

// D += A B for one 8 x 4 by 4 x 8 step, each lane's a (A(lane / 4, lane % 4)), b (B(lane % 4, lane / 4)) and
// d (D(lane / 4, 2 (lane % 4) + 0, 1)).
LOOM_HOST_DEVICE inline void mma_step(double& d0, double& d1, double a, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(d0), "+d"(d1)
      : "d"(a), "d"(b));
#elif defined(__CUDA_ARCH__)
  (void)d0, (void)d1, (void)a, (void)b;
  __trap();  // the route is only launched on sm_90 (clusters_available)
#else
  (void)d0, (void)d1, (void)a, (void)b;  // the host sums a whole warp's fragments (mma_tile)
#endif
}

// One lane's operands of a tile product: A(i, l) at a + a_row(i) + l a_k, B(l, j) at b + b_col(j) + l b_k.
struct MmaLane {
  const double* a;
  const double* b;
  int a_k, b_k, k;
  // this lane's values at the k-step starting at l0: A's zero past k (so the padded terms add nothing), B's
  // clamped to the last term (any finite value)
  LOOM_HOST_DEVICE double a_at(int lane, int l0) const {
    const int l = l0 + lane % mma_k;
    return l < k ? a[l * a_k] : 0.0;
  }
  LOOM_HOST_DEVICE double b_at(int lane, int l0) const { return b[std::min(l0 + lane % mma_k, k - 1) * b_k]; }
};

// The 8 x 8 tile at (i0, j0) of C = A B (m x n results, k terms), each result passed to store(i, j, v): rows
// and columns past the ends read the last valid ones and are not stored. A warp on the device; the host sums
// the same fragments lane by lane. With `unrolled` (k fixed at compile time) the k-steps are unrolled whole.
template <bool unrolled, class ARow, class BCol, class Store>
LOOM_HOST_DEVICE inline void mma_tile(const double* a, const ARow& a_row, int a_k, const double* b, const BCol& b_col,
                                      int b_k, int m, int n, int k, int i0, int j0, const Store& store) {
  const auto lane_of = [&](int lane) {
    const int g = lane / mma_k;
    return MmaLane{a + a_row(std::min(i0 + g, m - 1)), b + b_col(std::min(j0 + g, n - 1)), a_k, b_k, k};
  };
  const auto put = [&](int lane, double d0, double d1) {
    const int i = i0 + lane / mma_k, j = j0 + 2 * (lane % mma_k);
    if (i >= m) return;
    if (j < n) store(i, j, d0);
    if (j + 1 < n) store(i, j + 1, d1);
  };
#if defined(__CUDA_ARCH__)
  const int lane = static_cast<int>(threadIdx.x) % warp;
  const MmaLane o = lane_of(lane);
  // two accumulators, even and odd k-steps: two independent chains of MMA instead of one
  double d[2][2] = {};
  if constexpr (unrolled) {
    LOOM_UNROLL
    for (int l0 = 0; l0 < k; l0 += mma_k) {
      double* acc = d[(l0 / mma_k) % 2];
      mma_step(acc[0], acc[1], o.a_at(lane, l0), o.b_at(lane, l0));
    }
  } else {
    int l0 = 0;
    for (; l0 + mma_k < k; l0 += 2 * mma_k) {
      mma_step(d[0][0], d[0][1], o.a_at(lane, l0), o.b_at(lane, l0));
      mma_step(d[1][0], d[1][1], o.a_at(lane, l0 + mma_k), o.b_at(lane, l0 + mma_k));
    }
    if (l0 < k) mma_step(d[0][0], d[0][1], o.a_at(lane, l0), o.b_at(lane, l0));
  }
  put(lane, d[0][0] + d[1][0], d[0][1] + d[1][1]);
#else
  double d[warp][2] = {};
  for (int l0 = 0; l0 < k; l0 += mma_k) {
    double av[warp], bv[warp];
    for (int lane = 0; lane < warp; ++lane) {
      const MmaLane o = lane_of(lane);
      av[lane] = o.a_at(lane, l0);
      bv[lane] = o.b_at(lane, l0);
    }
    // D(r, c) += sum_s A(r, s) B(s, c): A(r, s) is lane r * 4 + s's, B(s, c) lane c * 4 + s's
    for (int lane = 0; lane < warp; ++lane)
      for (int h = 0; h < 2; ++h) {
        const int r = lane / mma_k, c = 2 * (lane % mma_k) + h;
        for (int s = 0; s < mma_k; ++s) d[lane][h] += av[r * mma_k + s] * bv[c * mma_k + s];
      }
  }
  for (int lane = 0; lane < warp; ++lane) put(lane, d[lane][0], d[lane][1]);
#endif
}

// Step 1: for each sign s, G[q'][(c, l')] = sum_j F(q', j) X[c][s][j][l'] (the components share F), each value
// stored as Y[c][q''][l] of the block owning q' (as forward in cluster_shell.hpp).
template <class E, class PeerMap>
LOOM_HOST_DEVICE void forward_mma(const E& e, const Plan& p, int b, const PeerMap& peers, double* shared,
                                  sweep::Lanes lanes) {
  const sweep::Lanes warps = warps_of(lanes);
  const int l0 = line_start(e, b), nl = line_start(e, b + 1) - l0, n = e.components * e.max_lines;
  const int tm = ceil_div(std::max(e.even, e.n_phi - e.even), mma_tile_size), per = tm * ceil_div(n, mma_tile_size);
  for (int task = warps.lane; task < 2 * per; task += warps.count) {
    const int tile = task % per, s = task / per;
    const int q0 = s == 0 ? 0 : e.even, m = s == 0 ? e.even : e.n_phi - e.even;
    const int i0 = tile % tm * mma_tile_size, j0 = tile / tm * mma_tile_size;
    if (i0 >= m) continue;
    const double* f = shared + p.at_forward + q0 * e.ld_half;
    const double* x = shared + p.at_x + s * e.half * e.ld_line;
    const auto f_row = [&](int i) { return i * e.ld_half; };
    const auto x_col = [&](int j) { return j / e.max_lines * e.n_phi * e.ld_line + j % e.max_lines; };
    mma_tile<E::fixed>(f, f_row, 1, x, x_col, e.ld_line, m, n, e.half, i0, j0, [&](int i, int j, double v) {
      const int c = j / e.max_lines, l = j % e.max_lines, q = q0 + i;
      if (l >= nl) return;
      int owner = 0, start = 0;
      LOOM_UNROLL
      for (int r = 1; r < max_blocks; ++r)
        if (q >= p.q_start[r]) owner = r, start = p.q_start[r];
      peers.at(owner)[p.at_y + (c * p.max_q + q - start) * y_size(e) + y_at(e, l0 + l)] = v;
    });
  }
}

// Step 2: for each (t, matrix group g of the block), H[(q, c, r)][i] = sum_k A_{t,g}(i, k) Y[c][q''][r + ld_r k]
// over the columns (coefficient of g, component, r), each value stored as Z[t][c][q'][l'] of the block owning
// line r + n_r i (as per_q in cluster_shell.hpp).
template <class E, class PeerMap>
LOOM_HOST_DEVICE void per_q_mma(const E& e, const Plan& p, int b, const PeerMap& peers, double* shared,
                                sweep::Lanes lanes) {
  const sweep::Lanes warps = warps_of(lanes);
  const int q0 = p.q_start[b], first = p.group_start[b], groups = p.group_start[b + 1] - first;
  const int per_q_columns = e.components * e.n_r, square = e.ld_theta * e.n_theta;
  const int tm = ceil_div(e.n_theta, mma_tile_size), per = tm * ceil_div(p.max_group * per_q_columns, mma_tile_size);
  for (int task = warps.lane; task < 2 * p.max_groups * per; task += warps.count) {
    const int tile = task % per, tg = task / per, g = tg % p.max_groups, t = tg / p.max_groups;
    if (g >= groups) continue;
    const int qg = sweep::load_cached(p.group_q + first + g), n = (sweep::load_cached(p.group_q + first + g + 1) - qg) *
                                                                   per_q_columns;
    const int i0 = tile % tm * mma_tile_size, j0 = tile / tm * mma_tile_size;
    if (j0 >= n) continue;
    const double* a = shared + p.at_per_q + (t * p.max_groups + g) * square;
    const double* y = shared + p.at_y + (qg - q0) * y_size(e);
    // column j: coefficient qg + j / (G n_r), component j / n_r % G, r = j % n_r
    const auto a_row = [](int i) { return i; };
    const auto y_col = [&](int j) {
      const int q = j / per_q_columns, c = j / e.n_r % e.components;
      return (c * p.max_q + q) * y_size(e) + j % e.n_r;
    };
    mma_tile<E::fixed>(a, a_row, e.ld_theta, y, y_col, e.ld_r, e.n_theta, n, e.n_theta, i0, j0, [&](int i, int j, double v) {
      const int q = qg + j / per_q_columns, c = j / e.n_r % e.components, r = j % e.n_r;
      const int line = r + e.n_r * i, owner = line_owner(e, line);
      peers.at(owner)[p.at_z + ((t * e.components + c) * e.n_phi + q) * e.ld_line + line - line_start(e, owner)] = v;
    });
  }
}

// Step 3: E_t (s = 0) and O_t (s = 1), [t][c][s][j][l'] = sum over q' of parity s of B_t(j, q') Z[t][c][q'][l']
// over the columns (component, line) (as inverse in cluster_shell.hpp).
template <class E>
LOOM_HOST_DEVICE void inverse_mma(const E& e, const Plan& p, int b, double* shared, sweep::Lanes lanes) {
  const sweep::Lanes warps = warps_of(lanes);
  const int nl = line_start(e, b + 1) - line_start(e, b), n = e.components * e.max_lines;
  const int tm = ceil_div(e.half, mma_tile_size), per = tm * ceil_div(n, mma_tile_size);
  for (int task = warps.lane; task < 4 * per; task += warps.count) {
    const int tile = task % per, ts = task / per, s = ts % 2, t = ts / 2;
    const int i0 = tile % tm * mma_tile_size, j0 = tile / tm * mma_tile_size;
    const int q0 = s == 0 ? 0 : e.even, k = s == 0 ? e.even : e.n_phi - e.even;
    const double* bt = shared + p.at_per_q + (t * e.n_phi + q0) * e.ld_half;
    const double* z = shared + p.at_z + (t * e.components * e.n_phi + q0) * e.ld_line;
    const auto bt_row = [](int j) { return j; };
    const auto z_col = [&](int j) { return j / e.max_lines * e.n_phi * e.ld_line + j % e.max_lines; };
    mma_tile<E::fixed>(bt, bt_row, e.ld_half, z, z_col, e.ld_line, e.half, n, k, i0, j0, [&](int j, int col, double v) {
      const int c = col / e.max_lines, l = col % e.max_lines;
      if (l >= nl) return;
      shared[p.at_y + (((t * e.components + c) * e.n_phi + s * e.half + j) * e.ld_line) + l] = v;
    });
  }
}

// With shared_radial (the block's lines whole theta columns): DR[c][s][j][r + n_r theta'] = sum_k R(r, k)
// X[c][s][j][k + n_r theta'], the radial derivative of the half sums, over the columns (c, s j, theta' of the
// block); radial_derivative turns it into d_r. Reads X as the forward step does (same phase), writes DR.
template <class E>
LOOM_HOST_DEVICE void radial_mma(const E& e, const Plan& p, int b, double* shared, sweep::Lanes lanes) {
  if (!e.shared_radial) return;
  const sweep::Lanes warps = warps_of(lanes);
  const int columns = (line_start(e, b + 1) - line_start(e, b)) / e.n_r;  // theta columns of the block
  const int n = e.components * e.n_phi * columns, tm = ceil_div(e.n_r, mma_tile_size);
  const int per = tm * ceil_div(n, mma_tile_size);
  // column j: row j / columns of X ((c, s, j) as c n_phi + s half + j), theta column j % columns
  const auto at = [&](int j) { return j / columns * e.ld_line + j % columns * e.n_r; };
  const auto r_row = [&](int i) { return i * e.n_r; };
  for (int task = warps.lane; task < per; task += warps.count) {
    const int i0 = task % tm * mma_tile_size, j0 = task / tm * mma_tile_size;
    mma_tile<E::fixed>(shared, r_row, 1, shared + p.at_x, at, 1, e.n_r, n, e.n_r, i0, j0,
                       [&](int r, int j, double v) { shared[p.at_dr + at(j) + r] = v; });
  }
}

}  // namespace loom::spectral::cluster
