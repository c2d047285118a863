// The GEMM route of the separable shell gradient (separable_gemm.hpp): its steps written once, run by cuBLAS and
// one kernel on the device or by the plain loops below on the host (the CPU tests' check of the layouts).
#include "loom/spectral/separable_gemm.hpp"

#include <utility>

#include "loom/core/error.hpp"

namespace loom::spectral {

namespace cpu {

namespace {

void one(bool trans_b, Index m, Index n, Index k, const double* a, Index lda, const double* b, Index ldb, double* c,
         Index ldc) {
  for (Index j = 0; j < n; ++j)
    for (Index i = 0; i < m; ++i) {
      double sum = 0;
      for (Index l = 0; l < k; ++l) sum += a[i + lda * l] * (trans_b ? b[j + ldb * l] : b[l + ldb * j]);
      c[i + ldc * j] = sum;
    }
}

}  // namespace

void gemm(const ListedGemm& g) {
  for (Index b = 0; b < g.count; ++b) one(g.trans_b, g.m, g.n, g.k, g.a[b], g.lda, g.b[b], g.ldb, g.c[b], g.ldc);
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

// Step 2, a theta matrix A (n_theta x n_theta) on (n_r x n_theta) blocks: out = X A^T.
ListedGemm with_per_q_shape(ListedGemm l, const sweep::Separable& s) {
  l.m = l.lda = l.ldc = s.n_r;
  l.n = l.k = l.ldb = s.n_theta;
  return l;
}

}  // namespace

// The lists, entry by entry: step 1 (c): U_c, F, G_c; step 2 ((t C + c) n_phi + q): G_c + q lines, A_{t,q}, H at
// that index; step 3 (t C + c): H_{t,c}, B_t, D_{t,c}. Rebuilt only when a pointer or the count changes.
void SeparableGemm::prepare(const sweep::Separable& s, const sweep::ComponentMap& map, double* d, core::Where w) const {
  const Index components = map.components(), n = s.points(), count = components * (3 + 2 * s.n_phi);
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
  for (Index i = 0; i < 2 * components * s.n_phi; ++i) {
    const Index q = i % s.n_phi, component = i / s.n_phi % components, t = i / (s.n_phi * components);
    *a++ = g + component * n + q * s.lines(), *b++ = s.per_q[t] + q * s.n_theta * s.n_theta, *c++ = h + i * s.lines();
  }
  for (Index i = 0; i < 2 * components; ++i) *a++ = h + i * n, *b++ = s.inverse[i / components], *c++ = d + i * n;
  key_ = std::move(key);
  side_ = w;
}

void SeparableGemm::gradient(const sweep::Separable& s, const sweep::ComponentMap& map, const double* jacobian,
                             double* d, core::Where w) const {
  LOOM_REQUIRE(!s.filter, "separable GEMM route: a gradient plan is needed");
  const Index components = map.components(), n = s.points();
  prepare(s, map, d, w);
  run(with_dft_shape(listed(a_, b_, c_, 0, components, w), s), w);
  run(with_per_q_shape(listed(a_, b_, c_, components, 2 * components * s.n_phi, w), s), w);
  run(with_dft_shape(listed(a_, b_, c_, components * (1 + 2 * s.n_phi), 2 * components, w), s), w);
  if (w == core::Where::device) return gpu::radial_chain_rule(s.radial, s.n_r, n, map, jacobian, d);
  for (Index t = 0; t < components * n; ++t)
    sweep::radial_gradient_point(s.radial, s.n_r, n, components, jacobian, map, d, t);
}

}  // namespace loom::spectral
