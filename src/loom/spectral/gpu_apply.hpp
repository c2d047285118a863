// The CUDA application strategies of apply.hpp on device pointers (apply_cuda.cu; apply_none.cpp throws in a
// build without CUDA). The matrix is n_out x n_in, row-major.
#pragma once

#include <algorithm>

#include "loom/spectral/axis_operator.hpp"
#include "loom/spectral/shell_plan.hpp"

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

// The fused shell operations (shell_gradient_cuda.cu; the arithmetic in shell_sweep.hpp, the plan in
// shell_plan.hpp): the separable route's angular steps in shared memory per (radius, component), then the
// radial pass. The names below are the plan's, kept for callers of the first version.
using AngularStep = sweep::AngularStep;
using AngularSequence = sweep::AngularSequence;
using ShellGradientPlan = spectral::ShellGradientPlan;
constexpr Index shell_gradient_max_shared = shell_sweep_max_shared;
inline Index shell_gradient_buffer(const ShellGradientPlan& plan) { return shell_sweep_buffer(plan); }
inline bool shell_gradient_fits(const ShellGradientPlan& plan) { return shell_sweep_fits(plan); }

// The launch configuration of a plan on the current device (queries the device and raises the angular kernel's
// shared memory limit when needed): called once per plan, not per call.
ShellLaunch shell_launch(const ShellGradientPlan& plan);

// The gradient of every component of `map` in two launches: out block i of component c = sum_j J[(3 i + j) N +
// p] d_j u_c, or the logical d_j u_c when jacobian is null; scratch holds 2 C N values. Device pointers.
void shell_gradient(const ShellGradientPlan& plan, const ShellLaunch& launch, const sweep::ComponentMap& map,
                    const double* jacobian, double* scratch);
// The filter of every component of `map` in two launches (the output may be the input); scratch holds C N values.
void shell_filter(const ShellGradientPlan& plan, const ShellLaunch& launch, const sweep::ComponentMap& map,
                  double* scratch);

// The separable route's two kernels (shell_separable_cuda.cu): the gradient (jacobian as in shell_gradient), or
// the filter when s.filter (jacobian ignored); scratch holds sequences() C N values. allow_separable_shared
// raises the spectral kernel's shared-memory limit to `bytes` (once per plan, with shell_launch).
void separable_shell(const sweep::Separable& s, const sweep::ComponentMap& map, const double* jacobian,
                     double* scratch);
void allow_separable_shared(Index bytes);

// One contiguous tensor of `components` components: out [(i N_e + c) N + p] (the first version's entry point).
void shell_gradient(const ShellGradientPlan& plan, Index components, const double* jacobian, const double* in,
                    double* scratch, double* out);

}  // namespace loom::spectral::gpu
