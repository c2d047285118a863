// Sources other than the tree's own bodies whose field an evaluation adds (issue 22: the cells and bodies that
// other ranks send, fmm/parallel/received_sources.hpp). The pipeline (evaluate.hpp) hands them its own arrays:
// their M2L goes into the tree's locals before its one L2L and L2P, their P2P into its near field, and the one
// transfer back serves both, so that they run through the same passes as the local FMM instead of a second
// downward pass and a second set of transfers. Their time is their own: no phase of the local Timings holds it.
#pragma once

#include "loom/core/array.hpp"
#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/tree/traversal.hpp"

namespace loom::fmm::detail {

class ExtraSources {
 public:
  virtual ~ExtraSources() = default;
  // After the local upward pass, before its M2L: the tree's multipoles (on the options' backend) and the local
  // lists, for whoever needs them beside the evaluation (issue 22: a rank sends its LETs from here, with the
  // multipoles the evaluation computed, while its M2L runs). Nothing by default.
  virtual void after_upward(const TreeData& /*t*/, const InteractionLists& /*lists*/,
                            const core::Array<C>& /*multipoles*/) {}
  // When the evaluation's far-field part ends, normally or by an exception, while its multipoles still exist:
  // whoever reads them beside the evaluation (after_upward) must stop here. Nothing by default.
  virtual void evaluation_ends() noexcept {}
  // Whether the evaluation should run its local P2P before asking for the far field (add_far), so that sources
  // still in flight (a rank's LETs, written and sent while the local FMM runs) have the P2P's time longer.
  virtual bool near_first() const { return false; }
  // With near_first: the array the local L2P writes into before it is added to the near field (at least `size`
  // doubles, on the backend); by default a fresh one, held in `fresh`. A caller repeating evaluations keeps one.
  virtual core::Array<double>& far_scratch(std::size_t size, core::Array<double>& fresh) {
    fresh = core::Array<double>(size);
    return fresh;
  }
  // After the local M2L (and with near_first the local P2P): adds the extra sources' far field into `locals`
  // (ncomp * term_count(p) per cell of t, on the options' backend).
  virtual void add_far(const TreeData& t, core::Array<C>& locals) = 0;
  // After the local P2P: adds their near field into `out` (the kernel's nout rows of t's n bodies, tree order,
  // on the backend); strength and sigma are t's bodies' (tree order, on the backend; sigma may be empty).
  virtual void add_near(const TreeData& t, const core::Array<double>& strength, const core::Array<double>& sigma,
                        core::Array<double>& out) = 0;
};

}  // namespace loom::fmm::detail
