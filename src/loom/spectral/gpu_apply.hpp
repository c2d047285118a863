// The CUDA application strategies of apply.hpp on device pointers (apply_cuda.cu; apply_none.cpp throws in a
// build without CUDA). The matrix is n_out x n_in, row-major.
#pragma once

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

}  // namespace loom::spectral::gpu
