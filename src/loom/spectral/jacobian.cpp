#include "loom/spectral/jacobian.hpp"

#include <map>
#include <memory>
#include <tuple>
#include <vector>

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

// Eqs. 9-11 as a table, built once per shape: output component c is the sum over terms t in
// [start[c], start[c+1]) of J[j0] J[j1] J[j2] u[in], each term 4 ints (in, j0, j1, j2) after the ne + 1 starts;
// slot 9 of J holds 1 for the factors a term has not (fewer than three transformed indices).
std::vector<int> coord_jac_table(const TensorShape& s) {
  const int ne = s.components();
  std::vector<int> starts(ne + 1, 0), terms;
  for (int c = 0; c < ne; ++c) {
    int idx[3] = {0, 0, 0};
    s.indices(c, idx);
    const Transformed t = transformed_slots(s, idx);
    int count = 1;
    for (int k = 0; k < t.q; ++k) count *= 3;
    for (int term = 0; term < count; ++term) {
      int b[3] = {idx[0], idx[1], idx[2]}, j[3] = {9, 9, 9};
      for (int k = 0, rest = term; k < t.q; ++k, rest /= 3) {
        b[t.slot[k]] = rest % 3 + t.offset[k];
        j[k] = 3 * t.position[k] + rest % 3;
      }
      terms.insert(terms.end(), {s.component(b), j[0], j[1], j[2]});
    }
    starts[c + 1] = starts[c] + count;
  }
  starts.insert(starts.end(), terms.begin(), terms.end());
  return starts;
}

// The table of a shape, kept for the run (its device copy is made once). Never destroyed: its device blocks
// would otherwise be returned at exit to a device pool that may already be gone.
const core::Array<int>& cached_table(const TensorShape& s) {
  static auto* tables = new std::map<std::tuple<int, int, int, int, bool>, std::unique_ptr<core::Array<int>>>;
  auto& entry = (*tables)[{s.rank, s.dim[0], s.dim[1], s.dim[2], s.symmetric}];
  if (!entry) entry = std::make_unique<core::Array<int>>(core::Array<int>::from(coord_jac_table(s)));
  return *entry;
}

constexpr int max_components = 64;

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
  const double* jac = jacobian.read(w);
  const double* u = in.data.read(w);
  double* v = out.data.write(w);
  const TensorShape s = in.shape;
  const Index n = in.points;
  const int ne = s.components();
  LOOM_REQUIRE(ne <= max_components, "spatial_coord_jac: too many components");
  const int* table = cached_table(s).read(w);
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index x) {
    double J[10], local[max_components];
    for (int k = 0; k < 9; ++k) J[k] = jac[k * n + x];
    J[9] = 1;
    for (int c = 0; c < ne; ++c) local[c] = u[c * n + x];
    const int* term = table + ne + 1;
    for (int c = 0; c < ne; ++c) {
      double sum = 0;
      for (int t = table[c]; t < table[c + 1]; ++t)
        sum += J[term[4 * t + 1]] * J[term[4 * t + 2]] * J[term[4 * t + 3]] * local[term[4 * t]];
      v[c * n + x] = sum;
    }
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
