// One evaluation, the same order of passes for every kernel and backend: stage the lists and strengths, the
// upward pass (P2M, M2M), M2L (plus the periodic image levels), the downward pass (L2L, L2P: writes the far
// field), P2P (adds the near field); a P2P-only kernel (!K::far_field) runs P2P alone. Each phase is timed
// apart (device time on the GPU), so that no phase's time includes another's or a transfer. Extra sources
// (extra_sources.hpp; null: none) see the upward pass's multipoles before M2L, add their far field between M2L
// and L2L and their near field after P2P; those that arrive late (near_first) have the local P2P run before
// their far field is asked for, and the local L2P then added into the near field.
#pragma once

#include <memory>

#include "loom/core/timer.hpp"
#include "loom/fmm/engine/extra_sources.hpp"
#include "loom/fmm/engine/pass_engine.hpp"
#include "loom/fmm/engine/passes.hpp"
#include "loom/fmm/engine/periodic_images.hpp"

namespace loom::fmm::detail {

template <class K>
void evaluate(PassEngine& engine, const Options& o, const TreeData& t, const InteractionLists& lists,
              std::unique_ptr<StagedLists>& staged, const core::Array<double>& strength,
              const core::Array<double>& sigma, core::Array<double>& out, Timings& time,
              ExtraSources* extra = nullptr) {
  core::Stopwatch watch(o.backend);
  engine.stage(lists, staged, strength, sigma, time);
  if constexpr (!K::far_field) {
    watch.start();
    fill_zero(o.backend, out);
    engine.p2p(K{}, lists, strength, sigma, out);
    time.p2p = watch.stop();
    if (extra) extra->add_near(t, strength, sigma, out);
  } else {
    const std::size_t terms = t.tree.cells().size() * static_cast<std::size_t>(K::ncomp * term_count(o.order));
    core::Array<C> multipoles(terms), locals(terms);
    struct Ends {  // destroyed before the multipoles, also when an exception leaves
      ExtraSources* extra;
      ~Ends() {
        if (extra) extra->evaluation_ends();
      }
    } const ends{extra};
    watch.start();
    engine.upward(K::ncomp, strength, multipoles);
    time.upward = watch.stop();
    if (extra) extra->after_upward(t, lists, multipoles);

    watch.start();
    fill_zero(o.backend, locals);
    engine.m2l(K::ncomp, lists, multipoles, locals);
    if (o.periodic) add_periodic_far_field(o, t, K::ncomp, strength, locals);
    time.m2l = watch.stop();
    // Extra sources that arrive late (a rank's received LETs) are asked for their far field after the local
    // P2P: the near field goes first, and the far field's L2P is added to it instead of written.
    const bool near_first = extra && extra->near_first();
    if (near_first) {
      watch.start();
      fill_zero(o.backend, out);
      engine.p2p(K{}, lists, strength, sigma, out);
      time.p2p = watch.stop();
    }
    if (extra) extra->add_far(t, locals);

    watch.start();
    engine.local_to_local(K::ncomp, locals);
    if (near_first) {
      core::Array<double> fresh;
      core::Array<double>& far = extra->far_scratch(out.size(), fresh);
      engine.local_to_bodies(K{}, strength, locals, far);
      add_rows(o.backend, K::nout, t.n(), far, t.n(), out);
    } else {
      engine.local_to_bodies(K{}, strength, locals, out);
    }
    time.downward = watch.stop();

    if (!near_first) {
      watch.start();
      engine.p2p(K{}, lists, strength, sigma, out);
      time.p2p = watch.stop();
    }
    if (extra) extra->add_near(t, strength, sigma, out);
  }
}

}  // namespace loom::fmm::detail
