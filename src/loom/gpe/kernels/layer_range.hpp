// The structure layers [first, first + count) in z of a lattice: what one kernel launch updates. A rank's slab
// updates the layers it sends first and the rest while the halos travel (section 4.2 of the DEC-GPE paper).
#pragma once

#include "loom/core/error.hpp"
#include "loom/dec/structure_lattice.hpp"

namespace loom::gpe {

struct LayerRange {
  int first = 0, count = 0;
  bool empty() const { return count <= 0; }
  friend bool operator==(const LayerRange&, const LayerRange&) = default;
};
inline LayerRange all_layers(const dec::StructureLattice& lattice) { return {0, lattice.nz}; }
// Throws loom::Error unless the layers lie inside the lattice (the kernels' precondition).
inline void require_layers_inside(const dec::StructureLattice& lattice, LayerRange layers) {
  LOOM_REQUIRE(layers.first >= 0 && layers.first + layers.count <= lattice.nz,
               "leapfrog step: layers outside the lattice");
}

}  // namespace loom::gpe
