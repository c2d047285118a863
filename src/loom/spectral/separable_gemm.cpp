// The GEMM route of the separable shell gradient (separable_gemm.hpp): its five steps written once, run by
// cuBLAS on the device or by the plain loops below on the host (the CPU tests' check of the layouts).
#include "loom/spectral/separable_gemm.hpp"

#include <algorithm>

#include "loom/core/error.hpp"

namespace loom::spectral {

namespace cpu {

namespace {

// Element (i, j) of op(X), X column-major with leading dimension ld.
double at(const double* x, Index ld, bool trans, Index i, Index j) { return trans ? x[j + ld * i] : x[i + ld * j]; }

void one(bool trans_a, bool trans_b, Index m, Index n, Index k, const double* a, Index lda, const double* b, Index ldb,
         double* c, Index ldc) {
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < m; ++i) {
      double sum = 0;
      for (Index l = 0; l < k; ++l) sum += at(a, lda, trans_a, i, l) * at(b, ldb, trans_b, l, j);
      c[i + ldc * j] = sum;
    }
}

}  // namespace

void gemm(const StridedGemm& g) {
  for (Index b = 0; b < g.count; ++b)
    one(g.trans_a, g.trans_b, g.m, g.n, g.k, g.a + b * g.stride_a, g.lda, g.b + b * g.stride_b, g.ldb,
        g.c + b * g.stride_c, g.ldc);
}

void gemm(const ListedGemm& g) {
  for (Index b = 0; b < g.count; ++b) one(false, g.trans_b, g.m, g.n, g.k, g.a[b], g.lda, g.b[b], g.ldb, g.c[b], g.ldc);
}

}  // namespace cpu

namespace {

void run(const StridedGemm& g, core::Where w) { w == core::Where::host ? cpu::gemm(g) : gpu::gemm(g); }
void run(const ListedGemm& g, core::Where w) { w == core::Where::host ? cpu::gemm(g) : gpu::gemm(g); }

// A phi DFT matrix M (stored column-major, n_phi x n_phi) on `count` components: out_c = in_c M^T, each
// (lines x n_phi) with the lines fastest (steps 1 and 3).
StridedGemm dft(const sweep::Separable& s, const double* in, const double* matrix, double* out, Index count) {
  StridedGemm f;
  f.trans_b = true;
  f.m = s.lines();
  f.n = f.k = s.n_phi;
  f.a = in;
  f.lda = f.ldc = s.lines();
  f.stride_a = f.stride_c = s.points();
  f.b = matrix;
  f.ldb = s.n_phi;
  f.c = out;
  f.count = count;
  return f;
}

// Step 4 for tensor t: D_{0,c} = R U_c for all its components at once (R stored row-major: op T).
StridedGemm radial(const sweep::Separable& s, const sweep::ComponentMap& map, int t, double* d) {
  StridedGemm f;
  f.trans_a = true;
  f.m = f.k = s.n_r;
  f.n = (map.first[t + 1] - map.first[t]) * s.points() / s.n_r;
  f.a = s.radial;
  f.lda = s.n_r;
  f.b = map.in[t];
  f.ldb = s.n_r;
  f.c = d + map.first[t] * s.points();
  f.ldc = s.n_r;
  return f;
}

}  // namespace

// Step 2's lists: entry (t C + c) n_phi + q reads X = G + c N + q lines and A_{t,q}, writes H at its own index.
void SeparableGemm::prepare(const sweep::Separable& s, Index components, core::Where w) const {
  const Index n = s.points(), lines = s.lines(), count = 2 * components * s.n_phi;
  if (buffer_.size() < static_cast<std::size_t>(3 * components * n))
    buffer_ = core::Array<double>(static_cast<std::size_t>(3 * components * n));
  double* g = buffer_.write(w);
  const double* key[3] = {g, s.per_q[0], s.per_q[1]};
  if (components == components_ && w == side_ && std::equal(key, key + 3, lists_for_)) return;
  a_ = core::Array<const double*>(static_cast<std::size_t>(count));
  b_ = core::Array<const double*>(static_cast<std::size_t>(count));
  c_ = core::Array<double*>(static_cast<std::size_t>(count));
  const double** a = a_.write(core::Where::host);
  const double** b = b_.write(core::Where::host);
  double** c = c_.write(core::Where::host);
  double* h = g + components * n;
  for (Index i = 0; i < count; ++i) {
    const Index q = i % s.n_phi, c_index = i / s.n_phi % components, t = i / (s.n_phi * components);
    a[i] = g + c_index * n + q * lines;
    b[i] = s.per_q[t] + q * s.n_theta * s.n_theta;
    c[i] = h + i * lines;
  }
  std::copy(key, key + 3, lists_for_);
  components_ = components;
  side_ = w;
}

ListedGemm SeparableGemm::per_q_step(const sweep::Separable& s, Index components, core::Where w) const {
  ListedGemm l;
  l.trans_b = true;
  l.m = s.n_r;
  l.n = l.k = s.n_theta;
  l.lda = l.ldc = s.n_r;
  l.ldb = s.n_theta;
  l.a = a_.read(w);
  l.b = b_.read(w);
  l.c = c_.read(w);
  l.count = 2 * components * s.n_phi;
  return l;
}

void SeparableGemm::gradient(const sweep::Separable& s, const sweep::ComponentMap& map, const double* jacobian,
                             double* d, core::Where w) const {
  LOOM_REQUIRE(!s.filter, "separable GEMM route: a gradient plan is needed");
  const Index components = map.components(), n = s.points();
  prepare(s, components, w);
  double* g = buffer_.write(w);
  for (int t = 0; t < map.parts; ++t)
    run(dft(s, map.in[t], s.forward, g + map.first[t] * n, map.first[t + 1] - map.first[t]), w);
  run(per_q_step(s, components, w), w);
  const double* h = g + components * n;
  for (int t = 0; t < 2; ++t)
    run(dft(s, h + t * components * n, s.inverse[t], d + (1 + t) * components * n, components), w);
  for (int t = 0; t < map.parts; ++t) run(radial(s, map, t, d), w);
  if (!jacobian) return;
  if (w == core::Where::device) return gpu::chain_rule(n, map, jacobian, d);
  for (Index c = 0; c < components; ++c)
    for (Index p = 0; p < n; ++p)
      sweep::chain_rule(jacobian, n, p, c, map, d[c * n + p], d[(components + c) * n + p],
                        d[(2 * components + c) * n + p]);
}

}  // namespace loom::spectral
