// The separable shell gradient as three batched cuBLAS calls and two kernels instead of hand-written passes
// (docs/spectral.md, "the GEMM route"): the batched strategy's form of the separable S2 route. Every step treats
// all components of all tensors at once, so each is as FMA- or bandwidth-bound as cuBLAS makes it, and the
// launches depend neither on the Fourier coefficients (the step-by-step batched route made one call per m
// block) nor on the number of tensors:
//   1. phi DFT        G_c = U_c F^T                 (lines x n_phi) per component
//   2. per-q theta    H_{t,c,q} = X_{c,q} A_{t,q}^T  (n_r x n_theta) per (sequence t, component c, q)
//   3. inverse DFT    D_{1+t,c} = H_{t,c} B_t^T     per (sequence, component)
//   4. radial         D_{0,c} = R U_c               (n_r x n_theta n_phi) per component
//   5. chain rule     out_i = sum_j J_ij D_j        (eq. 8) per point, one kernel
// Steps 1, 3 and 4 are pointer-list batches (cublasDgemmBatched: each tensor is its own array, so the operands
// of one batch are not equally spaced); step 2's tiny products are a hand-written kernel (separable_per_q.hpp:
// cuBLAS took 28 us for them at the production shell). All matrices are the fused plan's (each stored
// column-major: the cache's transposed form). On the host the same lists and tasks run through plain loops,
// which the CPU tests check against the FFT reference.
#pragma once

#include <vector>

#include "loom/core/array.hpp"
#include "loom/spectral/shell_separable.hpp"

namespace loom::spectral {

// Column-major C_b = op(A_b) op(B_b) for b < count, each operand's pointer from a list (host or device memory, as
// the side).
struct ListedGemm {
  bool trans_a = false, trans_b = false;
  Index m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
  const double* const* a = nullptr;
  const double* const* b = nullptr;
  double* const* c = nullptr;
  Index count = 0;
};

namespace cpu {
void gemm(const ListedGemm& g);
}  // namespace cpu

namespace gpu {
// cuBLAS on the default stream (device pointers, the lists in device memory).
void gemm(const ListedGemm& g);
// Step 5 for every point of every component of `map` (jacobian null: the logical gradient).
void chain_rule(Index n, const sweep::ComponentMap& map, const double* jacobian, const double* d);
}  // namespace gpu

// The route's state between calls: G and H (3 C N values) and the pointer lists, rebuilt only when a pointer or
// the component count changes (a system calling it every step with the same arrays builds them once). Not
// thread-safe (as Differentiator).
class SeparableGemm {
 public:
  // The gradient of every component of `map` on side w into the map's outputs (the logical d_j when jacobian is
  // null); d holds 3 C N values (the logical derivatives [(j C + c) N + p]).
  void gradient(const sweep::Separable& s, const sweep::ComponentMap& map, const double* jacobian, double* d,
                core::Where w) const;

 private:
  void prepare(const sweep::Separable& s, const sweep::ComponentMap& map, double* d, core::Where w) const;

  mutable core::Array<double> buffer_;  // G [c][q][l], then H [t][c][q][l]
  mutable core::Array<const double*> a_, b_;
  mutable core::Array<double*> c_;
  mutable std::vector<const void*> key_;  // what the lists point into
  mutable core::Where side_ = core::Where::host;
};

}  // namespace loom::spectral
