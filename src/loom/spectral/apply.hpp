// Applying an AxisOperator to a whole tensor (components consecutive, component-major), by strategy:
//   reference  the FFT-based line maps on the CPU (the specification)
//   blas       the traced matrix by OpenBLAS DGEMM on the CPU (all cores)
//   batched    the traced matrix by one cuBLAS strided-batched DGEMM for the whole tensor (the dense baseline)
//   streamed   cuBLAS per component, round-robin over CUDA streams (SpEC's way: one call per component)
//   fused      one CUDA kernel for the whole tensor, the matrix in shared memory (small extents), or per-block
//              matrices through the cache (the separable S2 route)
//   cluster    the separable shell gradient of every component in one launch of thread-block clusters
//              (cluster_route.hpp); no other operation
// Because the tensor is one contiguous array, the inner * n * outer slabs of all components are equally spaced:
// the whole tensor is one strided batch of (inner x n_in) * (n_in x n_out) products (one plain GEMM when inner
// is 1).
#pragma once

#include <string_view>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/perf/work.hpp"
#include "loom/spectral/axis_operator.hpp"
#include "loom/spectral/operator_cache.hpp"

namespace loom::spectral {

enum class Strategy { reference, blas, batched, streamed, fused, cluster };

std::string_view to_string(Strategy s);
// Parses a strategy name; UsageError naming `key` otherwise.
Strategy parse_strategy(std::string_view text, std::string_view key = "strategy");
core::Backend backend_of(Strategy s);
// Whether the strategy can apply this operator (fused: a single matrix must fit in shared memory; a matrix per
// block is read through the cache; cluster: none alone, only the whole shell gradient).
bool supports(Strategy s, const AxisOperator& op);
// Every strategy this build and machine can run (the GPU ones only with a device).
std::vector<Strategy> available_strategies();

// out = op(in) for `components` fields; in and out are pointers on backend_of(s)'s side.
void apply(Strategy s, OperatorCache& cache, const AxisOperator& op, Index components, const double* in,
           double* out);

// Minimal traffic and flops of one operator applied as a matrix to `components` fields (the paper's model,
// eqs. 25-26, for a whole tensor in one call: the matrix read once).
perf::Work matrix_work(const AxisOperator& op, Index components);

}  // namespace loom::spectral
