// The separable shell route (phi DFT, a theta matrix per Fourier coefficient q, inverse phi DFT) in two passes
// decomposed by what each pass shares, written once for the CUDA kernels (shell_separable_cuda.cu: the lanes are a
// block's threads) and the CPU form (shell_sweep_cpu.cpp: one lane). docs/spectral.md gives the cost model.
//   spectral pass, one block per (component, group of q): the forward DFT rows of the group's q for every
//     (r, theta) line of the component (the component read once, coalesced), then the group's theta matrices,
//     staged in shared memory once for all n_r radii (the first version re-read every per-m matrix for each
//     (radius, component) block from L2). Result: H_s[c][theta][q][r] in scratch, per sequence s.
//   physical pass, one thread per (radius, 4 phi, theta, component): the inverse DFTs from H, the radial matrix
//     from the input, the chain rule (eq. 8); for the filter the inverse DFT alone (its radial filter, which
//     commutes with the angular operators, is applied in the spectral pass).
// Each output holds `tile` sums in registers so that every value read serves several of them.
#pragma once

#include <algorithm>
#include <optional>

#include "loom/spectral/shell_sweep.hpp"

namespace loom::spectral {
struct ShellGradientPlan;
}

// Four iterations of a runtime-length dot-product loop in flight at once (the first version stalled on each load:
// ncu, docs/spectral.md); the host compiler unrolls as it sees fit.
// The physical pass unrolls two deep: four deep took 128 registers there (16 warps per SM instead of 28).
#if defined(__CUDA_ARCH__)
#define LOOM_SPECTRAL_UNROLL4 _Pragma("unroll 4")
#define LOOM_SPECTRAL_UNROLL2 _Pragma("unroll 2")
#else
#define LOOM_SPECTRAL_UNROLL4
#define LOOM_SPECTRAL_UNROLL2
#endif

namespace loom::spectral::sweep {

struct Separable {
  Index n_r = 0, n_theta = 0, n_phi = 0;
  bool filter = false;  // one sequence and the radial matrix in the spectral pass; else the gradient's two
  const double* radial = nullptr;              // n_r x n_r, row-major
  const double* forward = nullptr;             // F^T: [phi n_phi + q]
  const double* per_q[2] = {nullptr, nullptr}; // A_q^T: [(q n_theta + k) n_theta + row]
  const double* inverse[2] = {nullptr, nullptr};  // B^T: [q n_phi + phi]
  Index group = 1;                             // q's per spectral block

  LOOM_HOST_DEVICE int sequences() const { return filter ? 1 : 2; }
  LOOM_HOST_DEVICE Index lines() const { return n_r * n_theta; }
  LOOM_HOST_DEVICE Index points() const { return n_r * n_theta * n_phi; }
  LOOM_HOST_DEVICE Index groups() const { return (n_phi + group - 1) / group; }
};

constexpr int max_group = 8;   // q's per spectral block: the forward pass's sums per line
constexpr int theta_tile = 4;  // theta rows per task of the per-q pass
constexpr int r_tile = 2;      // radii per task of the per-q pass
constexpr int phi_tile = 4;    // phi points per task of the physical pass

// Doubles of a spectral block's shared memory: G (and the radially filtered G), the staged per-q matrices.
inline Index spectral_shared(const Separable& s) {
  return s.group * (s.lines() * (s.filter ? 2 : 1) + s.sequences() * s.n_theta * s.n_theta);
}

// The separable route of a plan: a theta sequence (and for the gradient a phi sequence starting with the same
// DFT) of the shapes Shell::separable makes; none for any other plan (the dense angular matrix). `budget`: the
// shared bytes a block may take, which sets the group.
std::optional<Separable> separable_route(const ShellGradientPlan& plan, Index budget = 96 * 1024);

// Throws unless the physical pass's task numbers of `components` components fit 31 bits.
void check_tasks(const Separable& s, Index components);

// The CPU form: the spectral blocks, then the physical tasks (jacobian: as in chain_rule; ignored by a filter).
void separable_cpu(const Separable& s, const ComponentMap& map, const double* jacobian, double* scratch);

// Tasks of the physical pass (one thread each; below 2^31, which the callers check).
inline Index physical_tasks(const Separable& s, Index components) {
  return s.n_r * ((s.n_phi + phi_tile - 1) / phi_tile) * s.n_theta * components;
}

// The next index of a task number below 2^31 (checked by the callers): 32-bit division, several times cheaper on
// the GPU than 64-bit.
LOOM_HOST_DEVICE inline Index split(unsigned& rest, Index extent) {
  const auto d = static_cast<unsigned>(extent);
  const unsigned index = rest % d;
  rest /= d;
  return index;
}

// Phase 0: the group's per-q matrices of each sequence into `staged` (contiguous in the cache's storage).
LOOM_HOST_DEVICE inline void stage_per_q(const Separable& s, Index q0, Index qn, double* staged, Lanes lanes) {
  const Index square = s.n_theta * s.n_theta, size = qn * square;
  for (Index i = lanes.lane; i < size; i += lanes.count) staged[i] = load_cached(s.per_q[0] + q0 * square + i);
  if (s.filter) return;
  for (Index i = lanes.lane; i < size; i += lanes.count)
    staged[s.group * square + i] = load_cached(s.per_q[1] + q0 * square + i);
}

// Phase 1: g[j L + l] = sum_phi F[q0 + j][phi] u[l + L phi] for every line l = r + n_r theta (coalesced in l).
LOOM_HOST_DEVICE inline void forward_lines(const Separable& s, Index q0, int qn, const double* u, double* g,
                                           Lanes lanes) {
  const Index lines = s.lines();
  for (Index l = lanes.lane; l < lines; l += lanes.count) {
    double sum[max_group] = {};
    const double* x = u + l;
    const double* f = s.forward + q0;
    LOOM_SPECTRAL_UNROLL4
    for (Index k = 0; k < s.n_phi; ++k, x += lines, f += s.n_phi) {
      const double xk = load_cached(x);
      LOOM_UNROLL
      for (int j = 0; j < max_group; ++j)
        if (j < qn) sum[j] += load_cached(f + j) * xk;
    }
    LOOM_UNROLL
    for (int j = 0; j < max_group; ++j)
      if (j < qn) g[j * lines + l] = sum[j];
  }
}

// Phase 1b (filter): the radial matrix along r of every (q, theta) line: out[j L + r + n_r theta].
LOOM_HOST_DEVICE inline void radial_lines(const Separable& s, int qn, const double* g, double* out, Lanes lanes) {
  const Index lines = s.lines(), tasks = qn * lines;
  for (Index t = lanes.lane; t < tasks; t += lanes.count) {
    unsigned rest = static_cast<unsigned>(t);
    const Index r = split(rest, s.n_r), line0 = t - r;  // line0: the (j, theta) line's first value
    double sum = 0;
    for (Index k = 0; k < s.n_r; ++k) sum += load_cached(s.radial + r * s.n_r + k) * g[line0 + k];
    out[t] = sum;
  }
}

// Phase 2: for each sequence t and q = q0 + j, H_t[c][theta][q][r] = sum_k A_q[theta][k] g[j L + r + n_r k],
// into scratch [(t C + c) N + (theta n_phi + q) n_r + r]; a task is (r_tile radii, theta_tile rows, j, t), radii
// fastest, so that each x read serves theta_tile sums and each matrix value r_tile.
LOOM_HOST_DEVICE inline void per_q_lines(const Separable& s, Index q0, int qn, Index c, Index components,
                                         const double* g, const double* staged, double* scratch, Lanes lanes) {
  const Index lines = s.lines(), square = s.n_theta * s.n_theta, n = s.points();
  const Index radii = (s.n_r + r_tile - 1) / r_tile, tiles = (s.n_theta + theta_tile - 1) / theta_tile;
  const Index tasks = radii * tiles * qn * s.sequences();
  for (Index task = lanes.lane; task < tasks; task += lanes.count) {
    unsigned rest = static_cast<unsigned>(task);
    const Index r0 = split(rest, radii) * r_tile, row0 = split(rest, tiles) * theta_tile;
    const Index j = split(rest, qn), t = rest;
    const Index rows = std::min<Index>(theta_tile, s.n_theta - row0), rs = std::min<Index>(r_tile, s.n_r - r0);
    const double* a = staged + t * s.group * square + j * square + row0;  // a[k n_theta + i]
    const double* x = g + j * lines + r0;                                  // x[k n_r + m]
    double sum[r_tile][theta_tile] = {};
    LOOM_SPECTRAL_UNROLL4
    for (Index k = 0; k < s.n_theta; ++k) {
      double xk[r_tile], ak[theta_tile];
      LOOM_UNROLL
      for (int m = 0; m < r_tile; ++m) xk[m] = m < rs ? x[k * s.n_r + m] : 0.0;
      LOOM_UNROLL
      for (int i = 0; i < theta_tile; ++i) ak[i] = i < rows ? a[k * s.n_theta + i] : 0.0;
      LOOM_UNROLL
      for (int m = 0; m < r_tile; ++m)
        LOOM_UNROLL
        for (int i = 0; i < theta_tile; ++i) sum[m][i] += ak[i] * xk[m];
    }
    double* h = scratch + (t * components + c) * n + (q0 + j) * s.n_r + r0;
    LOOM_UNROLL
    for (int m = 0; m < r_tile; ++m)
      LOOM_UNROLL
      for (int i = 0; i < theta_tile; ++i)
        if (m < rs && i < rows) h[(row0 + i) * s.n_phi * s.n_r + m] = sum[m][i];
  }
}

// The spectral block (group g, component c): phases 0-2 with the buffers in `shared` (spectral_shared doubles).
LOOM_HOST_DEVICE inline void spectral_block(const Separable& s, Index g, Index c, Index components,
                                            const ComponentMap& map, double* scratch, double* shared, Lanes lanes) {
  const Index q0 = g * s.group, lines = s.lines();
  const int qn = static_cast<int>(std::min<Index>(s.group, s.n_phi - q0));
  double* buffer = shared;
  double* filtered = shared + s.group * lines;
  double* staged = shared + s.group * lines * (s.filter ? 2 : 1);
  stage_per_q(s, q0, qn, staged, lanes);
  forward_lines(s, q0, qn, map.input(c, s.points()), buffer, lanes);
  sync_lanes();
  if (s.filter) {
    radial_lines(s, qn, buffer, filtered, lanes);
    sync_lanes();
    buffer = filtered;
  }
  per_q_lines(s, q0, qn, c, components, buffer, staged, scratch, lanes);
}

// Task `task` = r + n_r (phi tile + tiles (theta + n_theta c)) of the physical pass: the inverse DFT of each
// sequence from scratch at phi_tile points, then (gradient) the radial matrix and the chain rule.
LOOM_HOST_DEVICE inline void physical_task(const Separable& s, Index components, const double* jacobian,
                                           const ComponentMap& map, const double* scratch, Index task) {
  const Index tiles = (s.n_phi + phi_tile - 1) / phi_tile, n = s.points(), lines = s.lines();
  unsigned rest = static_cast<unsigned>(task);
  const Index r = split(rest, s.n_r), phi0 = split(rest, tiles) * phi_tile, theta = split(rest, s.n_theta);
  const Index c = rest;
  const Index cols = std::min<Index>(phi_tile, s.n_phi - phi0);
  double d[3][phi_tile] = {};
  LOOM_UNROLL
  for (int t = 0; t < 2; ++t) {
    if (t == 1 && s.filter) break;
    const double* h = scratch + (t * components + c) * n + theta * s.n_phi * s.n_r + r;  // h[q n_r]
    const double* b = s.inverse[t] + phi0;                                                 // b[q n_phi + i]
    LOOM_SPECTRAL_UNROLL2
    for (Index q = 0; q < s.n_phi; ++q) {
      const double hq = load_cached(h + q * s.n_r);
      LOOM_UNROLL
      for (int i = 0; i < phi_tile; ++i)
        if (i < cols) d[1 + t][i] += load_cached(b + q * s.n_phi + i) * hq;
    }
  }
  const Index p0 = r + s.n_r * theta + lines * phi0;  // point of the tile's first phi
  if (s.filter) {
    LOOM_UNROLL
    for (int i = 0; i < phi_tile; ++i)
      if (i < cols) map.output(0, c, n)[p0 + i * lines] = d[1][i];
    return;
  }
  const double* u = map.input(c, n) + (p0 - r);  // u[k + i L]
  LOOM_SPECTRAL_UNROLL2
  for (Index k = 0; k < s.n_r; ++k) {
    const double rk = load_cached(s.radial + r * s.n_r + k);
    LOOM_UNROLL
    for (int i = 0; i < phi_tile; ++i)
      if (i < cols) d[0][i] += rk * load_cached(u + k + i * lines);
  }
  LOOM_UNROLL
  for (int i = 0; i < phi_tile; ++i)
    if (i < cols) chain_rule(jacobian, n, p0 + i * lines, c, map, d[0][i], d[1][i], d[2][i]);
}

}  // namespace loom::spectral::sweep
