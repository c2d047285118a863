// The fused shell operations' arithmetic, written once for the CUDA kernels (shell_gradient_cuda.cu: a block of
// threads per (radius, component), the lanes are the block's threads) and their CPU form (shell_sweep_cpu.cpp:
// one lane), so the CPU tests check the same code the GPU runs:
//   angular_block  the separable route's angular steps on the values of one radius of one component, through
//                  small buffers (shared memory on the GPU), the last step of each sequence into `scratch`;
//   radial_gradient_point / radial_filter_point  d_r (or the radial filter) along the radius through one point,
//                  then the chain rule with the inverse Jacobian (DiffJac, eq. 8).
// Fields come through a ComponentMap: several tensors, each its own array, are one run of components.
#pragma once

#include "loom/core/host_device.hpp"
#include "loom/spectral/axis_operator.hpp"

namespace loom::spectral::sweep {

// Components [first[t], first[t + 1]) are tensor t's: input at in[t] + local N, output block i (of `blocks` per
// component: 3 for a gradient, 1 for a filter) at out[t] + (i N_e,t + local) N.
struct ComponentMap {
  static constexpr int max_parts = 8;
  const double* in[max_parts] = {};
  double* out[max_parts] = {};
  Index first[max_parts + 1] = {};
  int parts = 0;

  LOOM_HOST_DEVICE Index components() const { return first[parts]; }
  LOOM_HOST_DEVICE int part(Index c) const {
    int t = 0;
    while (c >= first[t + 1]) ++t;
    return t;
  }
  LOOM_HOST_DEVICE const double* input(Index c, Index n) const {
    const int t = part(c);
    return in[t] + (c - first[t]) * n;
  }
  LOOM_HOST_DEVICE double* output(int block, Index c, Index n) const {
    const int t = part(c);
    return out[t] + (block * (first[t + 1] - first[t]) + c - first[t]) * n;
  }
};

struct AngularStep {
  const double* matrix = nullptr;  // each block transposed: [(b n_in + k) n_out + row]
  AxisShape shape;
  Index blocks = 1;
};
struct AngularSequence {
  AngularStep steps[4];
  int count = 0;
};

// Which lanes work together (threadIdx.x of blockDim.x on the GPU; lane 0 of 1 on the CPU).
struct Lanes {
  int lane = 0, count = 1;
};

LOOM_HOST_DEVICE inline void sync_lanes() {
#if defined(__CUDA_ARCH__)
  __syncthreads();
#endif
}

LOOM_HOST_DEVICE inline double load_cached(const double* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}
LOOM_HOST_DEVICE inline int load_cached(const int* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

// Rows of a step's output one lane computes: each value of x read serves all of them.
constexpr int rows_per_lane = 4;

// The dot products of one step on one radius: `inner` lines of the faster axes, n_in -> n_out along the step's
// axis, `outer` slower lines, each with matrix a + b matrix_stride (transposed). Output o = i + inner (row +
// n_out b) is written to out[o * stride]. `cached`: the matrix is global memory, read through the read-only cache.
LOOM_HOST_DEVICE inline void dot_products(const double* a_base, bool cached, int matrix_stride, int inner, int n_in,
                                          int n_out, int outer, const double* in, double* out, int stride,
                                          Lanes lanes) {
  const int groups = (n_out + rows_per_lane - 1) / rows_per_lane, tasks = inner * groups * outer;
  for (int task = lanes.lane; task < tasks; task += lanes.count) {
    const int i = task % inner, rest = task / inner, row0 = (rest % groups) * rows_per_lane, b = rest / groups;
    const int rows = n_out - row0 < rows_per_lane ? n_out - row0 : rows_per_lane;
    const double* x = in + b * inner * n_in + i;
    const double* a = a_base + (b * matrix_stride + row0);
    double sum[rows_per_lane] = {};
    for (int k = 0; k < n_in; ++k, x += inner, a += n_out) {
      const double xk = *x;
      LOOM_UNROLL
      for (int j = 0; j < rows_per_lane; ++j)
        if (j < rows) sum[j] += (cached ? load_cached(a + j) : a[j]) * xk;
    }
    LOOM_UNROLL
    for (int j = 0; j < rows_per_lane; ++j)
      if (j < rows) out[(i + inner * (row0 + j + n_out * b)) * stride] = sum[j];
  }
}

// Buffers of one block: the field at one radius, the shared first step, two ping-pong buffers, and `capacity`
// doubles where a step's matrices are staged when they fit (none on the CPU).
struct Buffers {
  double *field, *first, *ping, *pong, *staged;
  Index capacity;
};

// One step on the values of one radius (the step's shape counts all n_r radii in `inner`).
LOOM_HOST_DEVICE inline void angular_step(const AngularStep& s, Index n_r, const double* in, double* out,
                                          Index stride, const Buffers& b, Lanes lanes) {
  const int inner = static_cast<int>(s.shape.inner / n_r), n_in = static_cast<int>(s.shape.n_in);
  const int n_out = static_cast<int>(s.shape.n_out), outer = static_cast<int>(s.shape.outer);
  const Index size = s.blocks * n_in * n_out;
  const int matrix_stride = s.blocks == 1 ? 0 : n_in * n_out;
  const bool stage = size <= b.capacity;
  if (stage) {
    for (Index t = lanes.lane; t < size; t += lanes.count) b.staged[t] = load_cached(s.matrix + t);
    sync_lanes();
  }
  dot_products(stage ? b.staged : s.matrix, !stage, matrix_stride, inner, n_in, n_out, outer, in, out,
               static_cast<int>(stride), lanes);
  sync_lanes();
}

// Steps [first, count) of a sequence from `from` through the ping-pong buffers, the last one into `global`
// (stride n_r: the radius is the fastest index there).
LOOM_HOST_DEVICE inline void angular_sequence(const AngularSequence& q, int first, Index n_r, const double* from,
                                              const Buffers& b, double* global, Lanes lanes) {
  for (int k = first; k < q.count; ++k) {
    const bool last = k + 1 == q.count;
    double* to = last ? global : (k % 2 == 0 ? b.ping : b.pong);
    angular_step(q.steps[k], n_r, from, to, last ? n_r : 1, b, lanes);
    from = to;
  }
}

// Radius r of component c: the two sequences' results into scratch [(j C + c) N + r + n_r a] (j = 0 first,
// 1 second; a sequence of no steps writes nothing), the first step computed once when both begin with it.
LOOM_HOST_DEVICE inline void angular_block(const AngularSequence& first_sequence,
                                           const AngularSequence& second_sequence, bool share_first, Index n_r,
                                           Index angular_points, Index r, Index c, Index components,
                                           const ComponentMap& map, double* scratch, const Buffers& b, Lanes lanes) {
  const Index n = n_r * angular_points;
  const double* u = map.input(c, n);
  for (Index a = lanes.lane; a < angular_points; a += lanes.count) b.field[a] = u[r + n_r * a];
  sync_lanes();
  if (share_first) angular_step(first_sequence.steps[0], n_r, b.field, b.first, 1, b, lanes);
  const double* start = share_first ? b.first : b.field;
  const int skip = share_first ? 1 : 0;
  angular_sequence(first_sequence, skip, n_r, start, b, scratch + c * n + r, lanes);
  angular_sequence(second_sequence, skip, n_r, start, b, scratch + (components + c) * n + r, lanes);
}

// The inverse Jacobian at point p: J[3 i + j] = jacobian[(3 i + j) N + p].
LOOM_HOST_DEVICE inline void load_jacobian(const double* jacobian, Index n, Index p, double J[9]) {
  LOOM_UNROLL
  for (int k = 0; k < 9; ++k) J[k] = load_cached(jacobian + k * n + p);
}

// out_i = sum_j J[3 i + j] d_j (eq. 8) into output block i of component c at point p, or the logical d_j when J
// is null.
LOOM_HOST_DEVICE inline void chain_rule_with(const double* J, Index n, Index p, Index c, const ComponentMap& map,
                                             double d0, double d1, double d2) {
  if (!J) {
    map.output(0, c, n)[p] = d0;
    map.output(1, c, n)[p] = d1;
    map.output(2, c, n)[p] = d2;
    return;
  }
  LOOM_UNROLL
  for (int i = 0; i < 3; ++i) map.output(i, c, n)[p] = J[3 * i] * d0 + J[3 * i + 1] * d1 + J[3 * i + 2] * d2;
}

// The same with the inverse Jacobian read from the (9 N) array, or the logical d_j when jacobian is null.
LOOM_HOST_DEVICE inline void chain_rule(const double* jacobian, Index n, Index p, Index c, const ComponentMap& map,
                                        double d0, double d1, double d2) {
  if (!jacobian) return chain_rule_with(nullptr, n, p, c, map, d0, d1, d2);
  double J[9];
  load_jacobian(jacobian, n, p, J);
  chain_rule_with(J, n, p, c, map, d0, d1, d2);
}

// Point t = c N + p of the gradient: d_r by `radial` (n_r x n_r, row-major) from the input, d_theta and d_phi
// from scratch, then the chain rule.
LOOM_HOST_DEVICE inline void radial_gradient_point(const double* radial, Index n_r, Index n, Index components,
                                                   const double* jacobian, const ComponentMap& map,
                                                   const double* scratch, Index t) {
  const Index c = t / n, p = t % n, r = p % n_r;
  const double* u = map.input(c, n) + (p - r);
  double d0 = 0;
  for (Index k = 0; k < n_r; ++k) d0 += radial[r * n_r + k] * u[k];
  chain_rule(jacobian, n, p, c, map, d0, scratch[c * n + p], scratch[(components + c) * n + p]);
}

// Point t = c N + p of the filter: the radial filter matrix along the radius of the angularly filtered scratch.
LOOM_HOST_DEVICE inline void radial_filter_point(const double* radial, Index n_r, Index n, const ComponentMap& map,
                                                 const double* scratch, Index t) {
  const Index c = t / n, p = t % n, r = p % n_r;
  const double* u = scratch + c * n + (p - r);
  double sum = 0;
  for (Index k = 0; k < n_r; ++k) sum += radial[r * n_r + k] * u[k];
  map.output(0, c, n)[p] = sum;
}

}  // namespace loom::spectral::sweep
