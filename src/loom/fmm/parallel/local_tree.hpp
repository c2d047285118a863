// A rank's tree as the local essential tree needs it on both sides: the tree's host arrays (TreeData, for the
// passes), strengths and core radii in tree order, each cell's largest core radius, and every cell's multipoles
// (the upward pass of the local FMM, on the given backend: with the CUDA backend the device computes them and
// they come back to the host when the LET selection reads them, instead of a host pass over every body).
#pragma once

#include <span>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/fmm/engine/tree_data.hpp"
#include "loom/fmm/parallel/let.hpp"

namespace loom::fmm::parallel {

struct LocalTree {
  detail::TreeData t;
  int order = 0, ncomp = 1;
  core::Array<double> strength;  // tree order, component-major
  std::vector<double> sigma;     // tree order; empty without core radii
  std::vector<double> cell_sigma;
  core::Array<detail::C> multipoles;
  LetSource source() const;
};

// strength: ncomp values per body in the caller's order; sigma: one per body or empty.
LocalTree local_tree(const Tree& tree, int order, int ncomp, std::span<const double> strength,
                     std::span<const double> sigma, core::Backend backend = core::Backend::cpu);

}  // namespace loom::fmm::parallel
