// The CUDA application strategies of apply.hpp on device pointers (apply_cuda.cu; apply_none.cpp throws in a
// build without CUDA). The matrix is n_out x n_in, row-major.
#pragma once

#include <algorithm>

#include "loom/spectral/axis_operator.hpp"

namespace loom::spectral::gpu {

// Largest n_out * n_in the fused kernel keeps in shared memory (48 KiB of doubles).
constexpr Index fused_max_matrix = 6144;

// blocks: 1, or shape.outer matrices one after the other (one per outer index).
void gemm_batched(const double* matrix, const AxisShape& shape, Index blocks, Index components, const double* in,
                  double* out);
void gemm_streamed(const double* matrix, const AxisShape& shape, Index blocks, Index components, const double* in,
                   double* out);
// One launch for the whole tensor: the matrix in shared memory (blocks = 1, n_out n_in <= fused_max_matrix), or
// a matrix per outer index read through the cache (blocks = shape.outer).
void fused(const double* matrix, const AxisShape& shape, Index blocks, Index components, const double* in,
           double* out);

// y = C x by cuSPARSE SpMM: C in CSR (rows x cols, nonzeros, 32-bit indices), x and y row-major with `columns`.
void csr_spmm(Index rows, Index cols, Index nonzeros, const int* row_start, const int* column, const double* value,
              Index columns, const double* x, double* y);

// The shell's gradient in two launches (shell_gradient_cuda.cu): the separable route's angular steps of d_theta
// and d_phi in shared memory per (radius, component), then d_r and the chain rule. Each step's shape has
// inner = n_r * (lines of the faster angular axes); the angular matrices are on the device with each block
// transposed (OperatorCache::transposed), the radial one row-major.
struct AngularStep {
  const double* matrix = nullptr;
  AxisShape shape;
  Index blocks = 1;
};
struct AngularSequence {
  AngularStep steps[4];
  int count = 0;
};
struct ShellGradientPlan {
  const double* radial = nullptr;  // n_r x n_r
  Index n_r = 0, angular_points = 0;
  AngularSequence theta, phi;
  bool share_first = false;  // both sequences begin with the same step (the phi DFT): computed once
};

// Largest shared memory the angular kernel asks for (sm_80 and later allow more than this per block).
constexpr Index shell_gradient_max_shared = 96 * 1024;

// Doubles in each of the angular kernel's four buffers: the largest per-radius field of any step.
inline Index shell_gradient_buffer(const ShellGradientPlan& plan) {
  Index buffer = plan.angular_points;
  for (const AngularSequence* q : {&plan.theta, &plan.phi})
    for (int k = 0; k < q->count; ++k) buffer = std::max(buffer, q->steps[k].shape.output_size() / plan.n_r);
  return buffer;
}

inline bool shell_gradient_fits(const ShellGradientPlan& plan) {
  const Index word = sizeof(double);
  return 4 * shell_gradient_buffer(plan) * word <= shell_gradient_max_shared && plan.n_r * plan.n_r * word <= 48 * 1024;
}

// out [(i N_e + c) N + p] = sum_j J[(3 i + j) N + p] d_j u_c, or the logical d_j u_c when jacobian is null;
// scratch holds 2 N_e N values. Device pointers.
void shell_gradient(const ShellGradientPlan& plan, Index components, const double* jacobian, const double* in,
                    double* scratch, double* out);

}  // namespace loom::spectral::gpu
