#include "loom/gpe/parallel/slab_observables.hpp"

#include <array>
#include <cmath>

namespace loom::gpe {
namespace {
VertexRange owned(const SlabDomain& slab) { return {slab.owned_offset(), slab.owned_size()}; }
}  // namespace

Observables measure(const SlabDomain& slab, core::Backend backend, const Hamiltonian& h, const Complex* psi) {
  if (!slab.distributed()) return measure(backend, h, psi);
  const Observables mine = measure(backend, h, psi, owned(slab));
  std::array<double, 4> sums{mine.norm, mine.kinetic, mine.potential, mine.interaction};
  slab.comm().sum_in_rank_order(sums);
  Observables o;
  o.norm = sums[0];
  o.kinetic = sums[1];
  o.potential = sums[2];
  o.interaction = sums[3];
  o.max_abs = slab.comm().max(mine.max_abs);  // exact
  return o;
}

Complex inner_product(const SlabDomain& slab, core::Backend backend, const Hamiltonian& h, const Complex* a,
                      const Complex* b) {
  if (!slab.distributed()) return inner_product(backend, h, a, b);
  const Complex mine = inner_product(backend, h, a, b, owned(slab));
  std::array<double, 2> sums{mine.re, mine.im};
  slab.comm().sum_in_rank_order(sums);
  return {sums[0], sums[1]};
}

double rms_difference(const SlabDomain& slab, core::Backend backend, const Complex* psi, const Complex* reference,
                      Complex phase) {
  const Index n = slab.global().dof();
  if (!slab.distributed()) return rms_difference(backend, n, psi, reference, phase);
  std::array<double, 1> sum{squared_difference(backend, owned(slab), psi, reference, phase)};
  slab.comm().sum_in_rank_order(sum);
  return std::sqrt(sum[0] / double(n));
}

}  // namespace loom::gpe
