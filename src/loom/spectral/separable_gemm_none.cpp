// The GEMM route's device side in a build without CUDA: every entry throws (no device to run on).
#include "loom/core/error.hpp"
#include "loom/spectral/separable_gemm.hpp"
#include "loom/spectral/separable_per_q.hpp"

namespace loom::spectral::gpu {

namespace {
[[noreturn]] void no_cuda() {
  throw Error("spectral: this build has no CUDA (the separable GEMM route's device side)");
}
}  // namespace

void gemm(const ListedGemm&) { no_cuda(); }
void per_q_step(const per_q::Step&) { no_cuda(); }
void chain_rule(Index, const sweep::ComponentMap&, const double*, const double*) { no_cuda(); }

}  // namespace loom::spectral::gpu
