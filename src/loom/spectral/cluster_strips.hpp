// The cluster route's three products on the FP64 tensor cores in strips (issue 18; docs/spectral.md "Thirteenth
// session"): a warp takes one row tile (8 rows) of a product and up to 3 column tiles beside it, loads its
// lane's A fragments once for all of them (k fixed at compile time: the fixed instances only), computes the
// row-dependent part of each store's address once (the owner block of a Fourier coefficient, the row's base), and
// runs the tiles' MMA chains side by side. The tile-per-warp form (cluster_mma.hpp) pays each lane's addresses,
// clamps and owner searches per tile of 5 MMA; here once per strip (measured on the H200: the kernel's
// instructions -20%, docs/performance.md, thirteenth session). The host runs the same lanes' operand code one warp at a time and sums the MMA as written, so the
// CPU tests check the strips' addresses, clamps and stores against the FFT reference.
#pragma once

#include <algorithm>
#include <type_traits>

#include "loom/spectral/cluster_mma.hpp"

namespace loom::spectral::cluster {

constexpr int strip_tiles = 3;  // column tiles per strip at most

// Column tiles per strip for a product of `tiles` column tiles: strips as even as strip_tiles allows (4 tiles: two
// strips of 2, not 3 + 1, since a strip's A fragments are loaded once however few tiles it has).
constexpr LOOM_HOST_DEVICE int strip_width(int tiles) { return ceil_div(tiles, ceil_div(tiles, strip_tiles)); }

// One lane's operands of a strip with K terms: its A fragments (A(row, l), l = 4 s + lane % 4, zero past K, so
// the padded terms add nothing) and its B offsets per k-step (l clamped to the last term: any finite value).
template <int K>
struct StripLane {
  static constexpr int steps = ceil_div(K, mma_k);
  double a[steps];
  int b_at[steps];
};

template <int K, class ARow>
LOOM_HOST_DEVICE inline StripLane<K> strip_lane(int lane, const double* a, const ARow& a_row, int a_k, int b_k, int m,
                                                int i0) {
  StripLane<K> o;
  const double* row = a + a_row(std::min(i0 + lane / mma_k, m - 1));
  LOOM_UNROLL
  for (int s = 0; s < StripLane<K>::steps; ++s) {
    const int l = s * mma_k + lane % mma_k;
    o.a[s] = l < K ? row[l * a_k] : 0.0;
    o.b_at[s] = std::min(l, K - 1) * b_k;
  }
  return o;
}

// A lane's results d[t] (D(lane / 4, 2 (lane % 4) + 0, 1) of tile t) through row_store(i)(j, v): row_store is
// called once per lane for its row, the columns past n are not stored.
template <int W, class RowStore>
LOOM_HOST_DEVICE inline void strip_put(int lane, int m, int n, int i0, int j0, const double (&d)[W][2],
                                       const RowStore& row_store) {
  const int i = i0 + lane / mma_k;
  if (i >= m) return;
  const auto store = row_store(i);
  LOOM_UNROLL
  for (int t = 0; t < W; ++t) {
    const int j = j0 + t * mma_tile_size + 2 * (lane % mma_k);
    if (j < n) store(j, d[t][0]);
    if (j + 1 < n) store(j + 1, d[t][1]);
  }
}

// The strip of tiles (i0, j0 + 8 t), t < W, of C = A B (m x n results, K terms): A(i, l) at
// a + a_row(i) + l a_k, B(l, j) at b + b_col(j) + l b_k; tiles starting past n are skipped, rows and columns past
// the ends read the last valid ones and are not stored. A warp on the device; the host sums the same fragments.
template <int K, int W, class ARow, class BCol, class RowStore>
LOOM_HOST_DEVICE inline void mma_strip(const double* a, const ARow& a_row, int a_k, const double* b, const BCol& b_col,
                                       int b_k, int m, int n, int i0, int j0, const RowStore& row_store) {
  constexpr int steps = StripLane<K>::steps;
#if defined(__CUDA_ARCH__)
  const int lane = static_cast<int>(threadIdx.x) % warp;
  const StripLane<K> o = strip_lane<K>(lane, a, a_row, a_k, b_k, m, i0);
  double d[W][2] = {};
  LOOM_UNROLL
  for (int t = 0; t < W; ++t) {
    const int jt = j0 + t * mma_tile_size;
    if (jt >= n) break;  // the same for the whole warp
    const double* column = b + b_col(std::min(jt + lane / mma_k, n - 1));
    LOOM_UNROLL
    for (int s = 0; s < steps; ++s) mma_step(d[t][0], d[t][1], o.a[s], column[o.b_at[s]]);
  }
  strip_put(lane, m, n, i0, j0, d, row_store);
#else
  StripLane<K> o[warp];
  for (int lane = 0; lane < warp; ++lane) o[lane] = strip_lane<K>(lane, a, a_row, a_k, b_k, m, i0);
  double d[warp][W][2] = {};
  for (int t = 0; t < W; ++t) {
    const int jt = j0 + t * mma_tile_size;
    if (jt >= n) break;
    for (int s = 0; s < steps; ++s) {
      double bv[warp];
      for (int lane = 0; lane < warp; ++lane)
        bv[lane] = (b + b_col(std::min(jt + lane / mma_k, n - 1)))[o[lane].b_at[s]];
      // D(r, c) += sum_q A(r, q) B(q, c): A(r, q) is lane 4 r + q's, B(q, c) lane 4 c + q's
      for (int lane = 0; lane < warp; ++lane)
        for (int h = 0; h < 2; ++h) {
          const int r = lane / mma_k, c = 2 * (lane % mma_k) + h;
          for (int q = 0; q < mma_k; ++q) d[lane][t][h] += o[r * mma_k + q].a[s] * bv[c * mma_k + q];
        }
    }
  }
  for (int lane = 0; lane < warp; ++lane) strip_put(lane, m, n, i0, j0, d[lane], row_store);
#endif
}

// Strips of n columns, w column tiles each.
constexpr LOOM_HOST_DEVICE int strips_of(int n, int w) { return ceil_div(ceil_div(n, mma_tile_size), w); }
constexpr LOOM_HOST_DEVICE int width_of(int n) { return strip_width(ceil_div(n, mma_tile_size)); }

// Step 1 in strips (forward_mma): for each sign s, G[q'][(c, l')] = sum_j F(q', j) X[c][s][j][l'], each value
// stored as Y[c][q''][l] of the block owning q' (found once per lane's row).
template <class E, class PeerMap>
LOOM_HOST_DEVICE void forward_strips(const E& e, const Plan& p, int b, const PeerMap& peers, double* shared,
                                     sweep::Lanes lanes) {
  static_assert(2 * E::even == E::n_phi, "the fixed instances' even coefficients are the first half");
  const sweep::Lanes warps = warps_of(lanes);
  const int l0 = line_start(e, b), nl = line_start(e, b + 1) - l0, per_c = p.max_q * y_size(e);
  constexpr int n = E::components * E::max_lines, w = width_of(n), tm = ceil_div(E::even, mma_tile_size);
  constexpr int per = tm * strips_of(n, w);
  for (int task = warps.lane; task < 2 * per; task += warps.count) {
    const int tile = task % per, s = task / per, q0 = s * E::even;
    const int i0 = tile % tm * mma_tile_size, j0 = tile / tm * mma_tile_size * w;
    const auto f_row = [](int i) { return i * E::ld_half; };
    const auto x_col = [](int j) { return j / E::max_lines * E::n_phi * E::ld_line + j % E::max_lines; };
    mma_strip<E::half, w>(shared + p.at_forward + q0 * E::ld_half, f_row, 1, shared + p.at_x + s * E::half * E::ld_line,
                          x_col, E::ld_line, E::even, n, i0, j0, [&](int i) {
                            const int q = q0 + i;
                            int owner = 0, start = 0;
                            LOOM_UNROLL
                            for (int r = 1; r < E::blocks; ++r)
                              if (q >= p.q_start[r]) owner = r, start = p.q_start[r];
                            double* row = peers.at(owner) + p.at_y + (q - start) * y_size(e);
                            return [row, l0, nl, per_c, &e](int j, double v) {
                              const int c = j / E::max_lines, l = j % E::max_lines;
                              if (l < nl) row[c * per_c + y_at(e, l0 + l)] = v;
                            };
                          });
  }
}

// Step 2 in strips (per_q_mma): for each (t, matrix group g of the block), H[(q, c, r)][i] = sum_k A_{t,g}(i, k)
// Y[c][q''][r + ld_r k], each value stored as Z[t][c][q'][l'] of the block owning line r + n_r i. Only the
// block's own groups make tasks.
template <class E, class PeerMap>
LOOM_HOST_DEVICE void per_q_strips(const E& e, const Plan& p, int b, const PeerMap& peers, double* shared,
                                   sweep::Lanes lanes) {
  const sweep::Lanes warps = warps_of(lanes);
  const int q0 = p.q_start[b], first = p.group_start[b], groups = p.group_start[b + 1] - first;
  constexpr int columns = E::components * E::n_r, square = E::ld_theta * E::n_theta;
  // (w: the width for groups of two coefficients, cos and sin of one m, as at the fixed extents)
  constexpr int tm = ceil_div(E::n_theta, mma_tile_size), w = width_of(2 * columns);
  const int per = tm * strips_of(p.max_group * columns, w);
  for (int task = warps.lane; task < 2 * groups * per; task += warps.count) {
    const int tile = task % per, tg = task / per, g = tg % groups, t = tg / groups;
    const int qg = sweep::load_cached(p.group_q + first + g);
    const int n = (sweep::load_cached(p.group_q + first + g + 1) - qg) * columns;
    const int i0 = tile % tm * mma_tile_size, j0 = tile / tm * mma_tile_size * w;
    if (j0 >= n) continue;
    // column j: coefficient qg + j / (G n_r), component j / n_r % G, r = j % n_r
    const auto a_row = [](int i) { return i; };
    const auto y_col = [&](int j) {
      return (j / E::n_r % E::components * p.max_q + j / columns) * y_size(e) + j % E::n_r;
    };
    mma_strip<E::n_theta, w>(
        shared + p.at_per_q + (t * p.max_groups + g) * square, a_row, E::ld_theta,
        shared + p.at_y + (qg - q0) * y_size(e), y_col, E::ld_r, E::n_theta, n, i0, j0, [&](int i) {
          return [&, i](int j, double v) {
            const int q = qg + j / columns, c = j / E::n_r % E::components, r = j % E::n_r;
            const int line = r + E::n_r * i, owner = line_owner(e, line);
            peers.at(
                owner)[p.at_z + ((t * E::components + c) * E::n_phi + q) * E::ld_line + line - line_start(e, owner)] =
                v;
          };
        });
  }
}

// Step 3 in strips (inverse_mma): E_t (s = 0) and O_t (s = 1), [t][c][s][j][l'] = sum over q' of parity s of
// B_t(j, q') Z[t][c][q'][l'] over the columns (component, line), into Y's place.
template <class E>
LOOM_HOST_DEVICE void inverse_strips(const E& e, const Plan& p, int b, double* shared, sweep::Lanes lanes) {
  static_assert(2 * E::even == E::n_phi, "the fixed instances' even coefficients are the first half");
  const sweep::Lanes warps = warps_of(lanes);
  const int nl = line_start(e, b + 1) - line_start(e, b);
  constexpr int n = E::components * E::max_lines, w = width_of(n), tm = ceil_div(E::half, mma_tile_size);
  constexpr int per = tm * strips_of(n, w);
  for (int task = warps.lane; task < 4 * per; task += warps.count) {
    const int tile = task % per, ts = task / per, s = ts % 2, t = ts / 2, q0 = s * E::even;
    const int i0 = tile % tm * mma_tile_size, j0 = tile / tm * mma_tile_size * w;
    const auto bt_row = [](int j) { return j; };
    const auto z_col = [](int j) { return j / E::max_lines * E::n_phi * E::ld_line + j % E::max_lines; };
    double* eo = shared + p.at_y + (t * E::components * E::n_phi + s * E::half) * E::ld_line;
    mma_strip<E::even, w>(shared + p.at_per_q + (t * E::n_phi + q0) * E::ld_half, bt_row, E::ld_half,
                          shared + p.at_z + (t * E::components * E::n_phi + q0) * E::ld_line, z_col, E::ld_line,
                          E::half, n, i0, j0, [&](int j) {
                            double* row = eo + j * E::ld_line;
                            return [row, nl](int col, double v) {
                              const int c = col / E::max_lines, l = col % E::max_lines;
                              if (l < nl) row[c * E::n_phi * E::ld_line + l] = v;
                            };
                          });
  }
}

// The three products by the tiles T: the lanes' register tiles (cluster_shell.hpp), the tensor cores one tile per
// warp (cluster_mma.hpp), or in strips at fixed extents (with the radial derivative of the half sums alongside
// the forward DFT when the plan asks for it; the strips at run-time extents run one tile per warp).
template <class T>
constexpr bool on_tensor_cores = std::is_same_v<T, Mma> || is_strips<T>;
template <class T, class E>
constexpr bool in_strips = (is_strips<T> && E::fixed);

template <class T, class E, class PeerMap>
LOOM_HOST_DEVICE void forward_step(const E& e, const Plan& p, int b, const PeerMap& peers, double* shared,
                                   sweep::Lanes lanes) {
  if constexpr (in_strips<T, E>)
    forward_strips(e, p, b, peers, shared, lanes);
  else if constexpr (on_tensor_cores<T>)
    forward_mma(e, p, b, peers, shared, lanes);
  else
    forward<T>(e, p, b, peers, shared, lanes);
  if constexpr (on_tensor_cores<T>) radial_mma(e, p, b, shared, lanes);
}
template <class T, class E, class PeerMap>
LOOM_HOST_DEVICE void per_q_step(const E& e, const Plan& p, int b, const PeerMap& peers, double* shared,
                                 sweep::Lanes lanes) {
  if constexpr (in_strips<T, E>)
    per_q_strips(e, p, b, peers, shared, lanes);
  else if constexpr (on_tensor_cores<T>)
    per_q_mma(e, p, b, peers, shared, lanes);
  else
    per_q<T>(e, p, b, peers, shared, lanes);
}
template <class T, class E>
LOOM_HOST_DEVICE void inverse_step(const E& e, const Plan& p, int b, double* shared, sweep::Lanes lanes) {
  if constexpr (in_strips<T, E>)
    inverse_strips(e, p, b, shared, lanes);
  else if constexpr (on_tensor_cores<T>)
    inverse_mma(e, p, b, shared, lanes);
  else
    inverse<T>(e, p, b, shared, lanes);
}

}  // namespace loom::spectral::cluster
