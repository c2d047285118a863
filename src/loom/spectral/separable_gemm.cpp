// The GEMM route of the separable shell gradient (separable_gemm.hpp): its steps written once, run by cuBLAS and
// one kernel on the device or by the plain loops below on the host (the CPU tests' check of the layouts).
#include "loom/spectral/separable_gemm.hpp"

#include <utility>

#include "loom/core/error.hpp"
#include "loom/spectral/separable_per_q.hpp"

namespace loom::spectral {

namespace cpu {

namespace {

// Element (i, j) of op(X), X column-major with leading dimension ld.
double at(const double* x, Index ld, bool trans, Index i, Index j) { return trans ? x[j + ld * i] : x[i + ld * j]; }

void one(const ListedGemm& g, Index b) {
  for (Index j = 0; j < g.n; ++j)
    for (Index i = 0; i < g.m; ++i) {
      double sum = 0;
      for (Index l = 0; l < g.k; ++l) sum += at(g.a[b], g.lda, g.trans_a, i, l) * at(g.b[b], g.ldb, g.trans_b, l, j);
      g.c[b][i + g.ldc * j] = sum;
    }
}

}  // namespace

void gemm(const ListedGemm& g) {
  for (Index b = 0; b < g.count; ++b) one(g, b);
}

}  // namespace cpu

namespace {

void run(const ListedGemm& g, core::Where w) { w == core::Where::host ? cpu::gemm(g) : gpu::gemm(g); }

// A batch of `count` products C_b = A_b op(B_b) from list entries [first, first + count), the shapes set later.
ListedGemm listed(const core::Array<const double*>& a, const core::Array<const double*>& b,
                  const core::Array<double*>& c, Index first, Index count, core::Where w) {
  ListedGemm l;
  l.trans_b = true;  // every matrix of the plan is stored column-major and applied from the right transposed
  l.a = a.read(w) + first;
  l.b = b.read(w) + first;
  l.c = c.read(w) + first;
  l.count = count;
  return l;
}

// Steps 1 and 3, a phi DFT matrix M (n_phi x n_phi) on (lines x n_phi) fields: out = in M^T.
ListedGemm with_dft_shape(ListedGemm l, const sweep::Separable& s) {
  l.m = l.lda = l.ldc = s.lines();
  l.n = l.k = l.ldb = s.n_phi;
  return l;
}

// Step 4, the radial matrix R (stored row-major: op T) on (n_r x n_theta n_phi) fields: out = R in.
ListedGemm with_radial_shape(ListedGemm l, const sweep::Separable& s) {
  l.trans_a = true;
  l.trans_b = false;
  l.m = l.k = l.lda = l.ldb = l.ldc = s.n_r;
  l.n = s.points() / s.n_r;
  return l;
}

// Step 2, H_{t,c,q} = X_{c,q} A_{t,q}^T (separable_per_q.hpp): the kernel, or its tasks one after the other.
void run_per_q(const sweep::Separable& s, Index components, double* g, core::Where w) {
  per_q::Step p;
  p.n_r = s.n_r;
  p.n_theta = s.n_theta;
  p.n_phi = s.n_phi;
  p.components = components;
  p.g = g;
  p.matrix[0] = s.per_q[0];
  p.matrix[1] = s.per_q[1];
  p.h = g + components * s.points();
  if (w == core::Where::device) return gpu::per_q_step(p);
  for (Index t = 0; t < 2; ++t)
    for (Index q = 0; q < s.n_phi; ++q)
      for (Index c0 = 0; c0 < components; c0 += per_q::group)
        for (Index k = 0; k < p.tasks(); ++k) per_q::task(p, p.matrix[t] + q * s.n_theta * s.n_theta, t, q, c0, k);
}

}  // namespace

// The lists, entry by entry: step 1 (c): U_c, F, G_c; step 3 (t C + c): H_{t,c}, B_t, D_{1+t,c}; step 4 (c): R,
// U_c, D_{0,c}. Rebuilt only when a pointer or the count changes.
void SeparableGemm::prepare(const sweep::Separable& s, const sweep::ComponentMap& map, double* d, core::Where w) const {
  const Index components = map.components(), n = s.points(), count = 4 * components;
  if (buffer_.size() < static_cast<std::size_t>(3 * components * n))
    buffer_ = core::Array<double>(static_cast<std::size_t>(3 * components * n));
  double* g = buffer_.write(w);
  std::vector<const void*> key = {g, d, s.forward, s.per_q[0], s.per_q[1], s.inverse[0], s.inverse[1]};
  for (Index c = 0; c < components; ++c) key.push_back(map.input(c, n));
  if (key == key_ && w == side_) return;
  a_ = core::Array<const double*>(static_cast<std::size_t>(count));
  b_ = core::Array<const double*>(static_cast<std::size_t>(count));
  c_ = core::Array<double*>(static_cast<std::size_t>(count));
  const double** a = a_.write(core::Where::host);
  const double** b = b_.write(core::Where::host);
  double** c = c_.write(core::Where::host);
  double* h = g + components * n;
  for (Index i = 0; i < components; ++i) *a++ = map.input(i, n), *b++ = s.forward, *c++ = g + i * n;
  for (Index i = 0; i < 2 * components; ++i)
    *a++ = h + i * n, *b++ = s.inverse[i / components], *c++ = d + (components + i) * n;
  for (Index i = 0; i < components; ++i) *a++ = s.radial, *b++ = map.input(i, n), *c++ = d + i * n;
  key_ = std::move(key);
  side_ = w;
}

void SeparableGemm::gradient(const sweep::Separable& s, const sweep::ComponentMap& map, const double* jacobian,
                             double* d, core::Where w) const {
  LOOM_REQUIRE(!s.filter, "separable GEMM route: a gradient plan is needed");
  const Index components = map.components(), n = s.points();
  prepare(s, map, d, w);
  run(with_dft_shape(listed(a_, b_, c_, 0, components, w), s), w);
  run_per_q(s, components, buffer_.write(w), w);
  run(with_dft_shape(listed(a_, b_, c_, components, 2 * components, w), s), w);
  run(with_radial_shape(listed(a_, b_, c_, 3 * components, components, w), s), w);
  if (w == core::Where::device) return gpu::chain_rule(n, map, jacobian, d);
  for (Index c = 0; c < components; ++c)
    for (Index p = 0; p < n; ++p)
      sweep::chain_rule(jacobian, n, p, c, map, d[c * n + p], d[(components + c) * n + p],
                        d[(2 * components + c) * n + p]);
}

}  // namespace loom::spectral
