// The observables of a slab-decomposed state (section 4.2 of the DEC-GPE paper; observables.hpp): each rank sums
// over its owned vertices and the ranks' sums are added in rank order, so every rank holds the same bits and a
// run with N ranks repeats itself exactly; they equal the one-rank values to rounding. One rank: the one-rank
// functions themselves. Collective: every rank calls them.
#pragma once

#include "loom/gpe/observables.hpp"
#include "loom/gpe/parallel/slab_domain.hpp"

namespace loom::gpe {

// h: the slab's Hamiltonian (its local lattice); psi with valid halos (the kinetic term reads them).
Observables measure(const SlabDomain& slab, core::Backend backend, const Hamiltonian& h, const Complex* psi);
Complex inner_product(const SlabDomain& slab, core::Backend backend, const Hamiltonian& h, const Complex* a,
                      const Complex* b);
// Over the global number of vertices.
double rms_difference(const SlabDomain& slab, core::Backend backend, const Complex* psi, const Complex* reference,
                      Complex phase);

}  // namespace loom::gpe
