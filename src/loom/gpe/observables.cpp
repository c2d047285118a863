// Compiled by nvcc in CUDA builds (loom_backend_sources): the reductions run on the data's own side.
#include "loom/gpe/observables.hpp"

#include <cmath>

#include "loom/core/parallel_for.hpp"

namespace loom::gpe {

Observables measure(core::Backend backend, const Hamiltonian& h, const Complex* psi) {
  const Index n = h.lattice.size();
  const double g = h.g;
  Observables o;
  o.norm = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index i) { return h.volume(i) * core::norm2(psi[i]); });
  o.kinetic = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
    const Complex minus_laplacian = -dec::laplacian(h.stencil, h.lattice, psi, i);
    return 0.5 * h.volume(i) * (core::conj(psi[i]) * minus_laplacian).re;
  });
  o.potential = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
    return h.volume(i) * h.potential(i) * core::norm2(psi[i]);
  });
  o.interaction = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
    const double rho = core::norm2(psi[i]);
    return 0.5 * g * h.volume(i) * rho * rho;
  });
  o.max_abs = std::sqrt(core::parallel_max(backend, n, [=] LOOM_HOST_DEVICE(Index i) { return core::norm2(psi[i]); }));
  return o;
}

Complex inner_product(core::Backend backend, const Hamiltonian& h, const Complex* a, const Complex* b) {
  const Index n = h.lattice.size();
  const double re = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
    return h.volume(i) * (core::conj(a[i]) * b[i]).re;
  });
  const double im = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
    return h.volume(i) * (core::conj(a[i]) * b[i]).im;
  });
  return {re, im};
}

double rms_difference(core::Backend backend, Index n, const Complex* psi, const Complex* reference, Complex phase) {
  const double sum = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index i) {
    return core::norm2(phase * reference[i] - psi[i]);
  });
  return std::sqrt(sum / double(n));
}

void scale(core::Backend backend, Index n, Complex* psi, double factor) {
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index i) { psi[i] = factor * psi[i]; });
}

}  // namespace loom::gpe
