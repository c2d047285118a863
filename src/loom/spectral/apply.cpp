#include "loom/spectral/apply.hpp"

#include <cblas.h>

#include <utility>
#include <vector>

#include "loom/core/error.hpp"
#include "loom/io/parameters.hpp"
#include "loom/spectral/cluster_route.hpp"
#include "loom/spectral/gpu_apply.hpp"

namespace loom::spectral {

namespace {

constexpr std::pair<Strategy, std::string_view> names[] = {{Strategy::reference, "reference"},
                                                           {Strategy::blas, "blas"},
                                                           {Strategy::batched, "batched"},
                                                           {Strategy::streamed, "streamed"},
                                                           {Strategy::fused, "fused"},
                                                           {Strategy::cluster, "cluster"}};

// The row-major n_out x n_in matrix A, read column-major with leading dimension n_in, is A^T. With inner = 1 and
// one block the whole tensor is one GEMM, Out (n_out x outer*components) = A * In; otherwise each slab X
// (inner x n_in, column-major) gives X * A_b^T, A_b the matrix of the slab's block.
void apply_blas(const double* a, const AxisShape& s, Index blocks, Index components, const double* in, double* out) {
  const auto n_in = static_cast<int>(s.n_in), n_out = static_cast<int>(s.n_out);
  if (s.inner == 1 && blocks == 1) {
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, n_out, static_cast<int>(s.outer * components), n_in, 1.0, a,
                n_in, in, n_in, 0.0, out, n_out);
    return;
  }
  const auto inner = static_cast<int>(s.inner);
  for (Index b = 0; b < s.outer * components; ++b)
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, inner, n_out, n_in, 1.0, in + b * s.inner * s.n_in, inner,
                a + (b % s.outer % blocks) * s.n_in * s.n_out, n_in, 0.0, out + b * s.inner * s.n_out, inner);
}

}  // namespace

std::string_view to_string(Strategy s) {
  for (const auto& [strategy, name] : names)
    if (strategy == s) return name;
  return "?";
}

Strategy parse_strategy(std::string_view text, std::string_view key) {
  for (const auto& [strategy, name] : names)
    if (name == text) return strategy;
  throw UsageError(io::invalid_value_message(key, std::string(text),
                                            "one of reference, blas, batched, streamed, fused, cluster"));
}

core::Backend backend_of(Strategy s) {
  return s == Strategy::reference || s == Strategy::blas ? core::Backend::cpu : core::Backend::cuda;
}

bool supports(Strategy s, const AxisOperator& op) {
  if (s == Strategy::cluster) return false;
  return s != Strategy::fused || op.blocks > 1 || op.shape.n_in * op.shape.n_out <= gpu::fused_max_matrix;
}

std::vector<Strategy> available_strategies() {
  std::vector<Strategy> out;
  for (const auto& [strategy, name] : names)
    if (core::backend_available(backend_of(strategy)) && (strategy != Strategy::cluster || gpu::clusters_available()))
      out.push_back(strategy);
  return out;
}

void apply(Strategy s, OperatorCache& cache, const AxisOperator& op, Index components, const double* in,
           double* out) {
  if (s == Strategy::reference) return apply_reference(op, components, in, out);
  if (s == Strategy::cluster)
    throw UsageError("strategy = \"cluster\": runs only the shell gradient on the separable route, not operator " +
                     op.key);
  if (!supports(s, op))
    throw UsageError("strategy = \"" + std::string(to_string(s)) + "\": operator " + op.key + " of " +
                     std::to_string(op.shape.n_out) + " x " + std::to_string(op.shape.n_in) +
                     " does not fit in shared memory; use batched or streamed");
  const double* a = cache.matrix(op).read(core::where(backend_of(s)));
  switch (s) {
    case Strategy::blas: return apply_blas(a, op.shape, op.blocks, components, in, out);
    case Strategy::batched: return gpu::gemm_batched(a, op.shape, op.blocks, components, in, out);
    case Strategy::streamed: return gpu::gemm_streamed(a, op.shape, op.blocks, components, in, out);
    case Strategy::fused: return gpu::fused(a, op.shape, op.blocks, components, in, out);
    case Strategy::reference:
    case Strategy::cluster: break;
  }
}

perf::Work matrix_work(const AxisOperator& op, Index components) {
  const AxisShape& s = op.shape;
  const double lines = double(s.inner) * s.outer * components;
  return {8.0 * (lines * (s.n_in + s.n_out) + double(op.blocks) * s.n_in * s.n_out),
          lines * s.n_out * (2.0 * s.n_in - 1)};
}

}  // namespace loom::spectral
