// The separable shell gradient as a few large cuBLAS calls instead of hand-written passes (docs/spectral.md,
// "the GEMM route"): the batched strategy's form of the separable S2 route. Every step is a GEMM over all
// components at once, so each is as FMA- or bandwidth-bound as cuBLAS makes it, and the launches do not grow
// with the number of Fourier coefficients (the step-by-step batched route made one call per m block):
//   1. phi DFT        G_c = U_c F^T            (lines x n_phi) per component: one strided batch per tensor
//   2. per-q theta    H_{t,c,q} = X_{c,q} A_{t,q}^T   (n_r x n_theta) for every (sequence, component, q): one
//                     pointer-list batch (the q's matrix differs, so no single stride reaches it)
//   3. inverse DFT    D_{1+t,c} = H_{t,c} B_t^T   per sequence: one strided batch each
//   4. radial         D_{0,c} = R U_c          one plain GEMM per tensor (its components are contiguous)
//   5. chain rule     out_i = sum_j J_ij D_j   (eq. 8), one kernel; skipped for the logical gradient
// All matrices are the fused plan's (each stored column-major: the cache's transposed form). The same steps run
// on the CPU by plain loops (gemm_cpu), which the CPU tests check against the FFT reference.
#pragma once

#include "loom/core/array.hpp"
#include "loom/spectral/shell_separable.hpp"

namespace loom::spectral {

// Column-major C_b = op(A_b) op(B_b) for b < count, operand X_b = x + b stride_x.
struct StridedGemm {
  bool trans_a = false, trans_b = false;
  Index m = 0, n = 0, k = 0;
  const double* a = nullptr;
  Index lda = 0, stride_a = 0;
  const double* b = nullptr;
  Index ldb = 0, stride_b = 0;
  double* c = nullptr;
  Index ldc = 0, stride_c = 0;
  Index count = 1;
};

// Column-major C_b = A_b op(B_b) with each operand's pointer from a list (host or device memory, as the side).
struct ListedGemm {
  bool trans_b = false;
  Index m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
  const double* const* a = nullptr;
  const double* const* b = nullptr;
  double* const* c = nullptr;
  Index count = 0;
};

namespace cpu {
void gemm(const StridedGemm& g);
void gemm(const ListedGemm& g);
}  // namespace cpu

namespace gpu {
// cuBLAS on the default stream (device pointers; the lists in device memory); chain_rule: step 5 as one kernel.
void gemm(const StridedGemm& g);
void gemm(const ListedGemm& g);
void chain_rule(Index n, const sweep::ComponentMap& map, const double* jacobian, const double* d);
}  // namespace gpu

// The route's state between calls: G and H (3 C N values) and step 2's pointer lists, rebuilt only when the
// component count, the side or the matrices change. Not thread-safe (as Differentiator).
class SeparableGemm {
 public:
  // The gradient of every component of `map` on side w: the logical derivatives into d [(j C + c) N + p]
  // (3 C N values), then, when jacobian is not null, the chain rule into the map's outputs.
  void gradient(const sweep::Separable& s, const sweep::ComponentMap& map, const double* jacobian, double* d,
                core::Where w) const;

 private:
  void prepare(const sweep::Separable& s, Index components, core::Where w) const;
  ListedGemm per_q_step(const sweep::Separable& s, Index components, core::Where w) const;

  mutable core::Array<double> buffer_;  // G [c][q][l], then H [t][c][q][l]
  mutable core::Array<const double*> a_, b_;
  mutable core::Array<double*> c_;
  mutable const double* lists_for_[3] = {};  // the buffer and the two per-q matrices the lists point into
  mutable Index components_ = -1;
  mutable core::Where side_ = core::Where::host;
};

}  // namespace loom::spectral
