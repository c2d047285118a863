// The FMM's kernels as policy types. A kernel policy K says what the passes need to know about one sum:
//   K::id (Kernel), K::ncomp (strength components = expansions per cell), K::nout (outputs per body,
//   component-major), K::far_field (false: P2P only), K::guarded (the lists depend on the cells' core radii);
//   K::l2p(...) (one body's outputs from its leaf's local expansions; host and device), K::p2p_cpu(...) (one
//   target's near field from a range of sources, the CPU's vector loop).
// The evaluator's pipeline (evaluate.hpp) is one template over K; each engine (engine/pass_engine.hpp) has one
// overload of local_to_bodies and p2p per kernel, which is where the GPU's tuned kernels are chosen.
#pragma once

#include <string_view>

#include "loom/fmm/real.hpp"

namespace loom::fmm {

enum class Kernel { laplace, biot_savart };
std::string_view to_string(Kernel k);
Kernel parse_kernel(std::string_view text);  // "laplace", "biot-savart"; UsageError otherwise

// The CPU P2P's view of the bodies in tree order: coordinates split for the vector loops, strengths and outputs
// component-major (n bodies each).
struct P2pRows {
  Index n = 0;
  const double *x = nullptr, *y = nullptr, *z = nullptr;
  const double* strength = nullptr;
  const double* sigma = nullptr;      // per body (Biot-Savart, Gaussian)
  const double* inv_sigma = nullptr;  // 1/sigma per body (Biot-Savart)
  double* out = nullptr;
};

}  // namespace loom::fmm
