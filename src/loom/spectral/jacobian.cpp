#include "loom/spectral/jacobian.hpp"

#include "loom/core/parallel_for.hpp"

namespace loom::spectral {

namespace {

// How component c transforms: the spatial position (0..2) of each transformed index slot, the offset from a
// spatial value to the slot's index value (1 for spacetime slots, 0 for spatial ones); q transformed slots.
struct Transformed {
  int q = 0;
  int slot[3], position[3], offset[3];
};

LOOM_HOST_DEVICE inline Transformed transformed_slots(const TensorShape& s, const int* idx) {
  Transformed t;
  for (int k = 0; k < s.rank; ++k) {
    const bool st = s.spacetime(k);
    if (st && idx[k] == 0) continue;  // a time index: left alone
    t.slot[t.q] = k;
    t.offset[t.q] = st ? 1 : 0;
    t.position[t.q] = idx[k] - t.offset[t.q];
    ++t.q;
  }
  return t;
}

// Eqs. 9-11 at one point: out_c = sum over the transformed slots' spatial values b of
// prod_k J_{position_k}^{b_k} in_{component(idx with b)}.
LOOM_HOST_DEVICE inline double coord_jac_component(const TensorShape& s, int c, const double* in, const double* jac,
                                                   Index n, Index x) {
  int idx[3] = {0, 0, 0};
  s.indices(c, idx);
  const Transformed t = transformed_slots(s, idx);
  int terms = 1;
  for (int k = 0; k < t.q; ++k) terms *= 3;
  double sum = 0;
  for (int term = 0; term < terms; ++term) {
    int b[3] = {idx[0], idx[1], idx[2]};
    double factor = 1;
    for (int k = 0, rest = term; k < t.q; ++k, rest /= 3) {
      const int j = rest % 3;
      b[t.slot[k]] = j + t.offset[k];
      factor *= jac[(3 * t.position[k] + j) * n + x];
    }
    sum += factor * in[s.component(b) * n + x];
  }
  return sum;
}

}  // namespace

void diff_jac(core::Backend backend, const core::Array<double>& jacobian, Index points, int components,
              const core::Array<double>& in, core::Array<double>& out) {
  const core::Where w = core::where(backend);
  const double* J = jacobian.read(w);
  const double* u = in.read(w);
  double* v = out.write(w);
  const Index n = points;
  const int ne = components;
  // eq. 8: one thread per point, all components and derivative directions
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index x) {
    const double j00 = J[0 * n + x], j01 = J[1 * n + x], j02 = J[2 * n + x];
    const double j10 = J[3 * n + x], j11 = J[4 * n + x], j12 = J[5 * n + x];
    const double j20 = J[6 * n + x], j21 = J[7 * n + x], j22 = J[8 * n + x];
    for (int c = 0; c < ne; ++c) {
      const double d0 = u[(0 * ne + c) * n + x], d1 = u[(1 * ne + c) * n + x], d2 = u[(2 * ne + c) * n + x];
      v[(0 * ne + c) * n + x] = j00 * d0 + j01 * d1 + j02 * d2;
      v[(1 * ne + c) * n + x] = j10 * d0 + j11 * d1 + j12 * d2;
      v[(2 * ne + c) * n + x] = j20 * d0 + j21 * d1 + j22 * d2;
    }
  });
}

void spatial_coord_jac(core::Backend backend, const core::Array<double>& jacobian, const Tensor& in, Tensor& out) {
  LOOM_REQUIRE(in.points == out.points && in.components() == out.components(),
               "spatial_coord_jac: input and output shapes differ");
  const core::Where w = core::where(backend);
  const double* J = jacobian.read(w);
  const double* u = in.data.read(w);
  double* v = out.data.write(w);
  const TensorShape s = in.shape;
  const Index n = in.points;
  const int ne = s.components();
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index x) {
    for (int c = 0; c < ne; ++c) v[c * n + x] = coord_jac_component(s, c, u, J, n, x);
  });
}

perf::Work diff_jac_work(Index points, int components) {
  constexpr double d = 3;
  return {8.0 * points * (2.0 * components + d) * d, double(points) * components * (2 * d - 1) * d};
}

perf::Work spatial_coord_jac_work(const TensorShape& shape, Index points) {
  double words = 9, flops = 0;
  for (int c = 0; c < shape.components(); ++c) {
    int idx[3] = {0, 0, 0};
    shape.indices(c, idx);
    const int q = transformed_slots(shape, idx).q;
    if (q == 0) continue;
    int terms = 1;
    for (int k = 0; k < q; ++k) terms *= 3;
    words += 2;
    flops += terms * (q + 1) - 1;
  }
  return {8.0 * words * points, flops * points};
}

}  // namespace loom::spectral
