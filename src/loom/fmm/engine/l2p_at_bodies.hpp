// L2P at every body from its leaf's local expansion (K::l2p), on the backend: one pass for the CPU engine's trees
// (TreeData) and the resident evaluator's device-built trees (gpu::BackendTree), which hold the same arrays.
#pragma once

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/core/parallel_for.hpp"
#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/expansions/operators.hpp"

namespace loom::fmm::detail {

template <class K, class Tree>
void l2p_at_bodies(core::Backend backend, int p, Index n, const Tree& t, const core::Array<double>& strength_a,
                   const core::Array<C>& locals, core::Array<double>& out_a) {
  const auto where = core::where(backend);
  const int nt = term_count(p);
  const Cell* cells = t.cells.read(where);
  const int* leaf = t.leaf_of_body.read(where);
  const Vec3d* pos = t.pos.read(where);
  const double* strength = strength_a.read(where);
  const C* L = locals.read(where);
  double* out = out_a.write(where);
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
    const int c = leaf[i];
    K::l2p(p, pos[i] - cells[c].center, L + static_cast<Index>(c) * K::ncomp * nt, nt, strength, n, i, out);
  });
}

}  // namespace loom::fmm::detail
