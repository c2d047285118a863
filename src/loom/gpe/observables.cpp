// Compiled by nvcc in CUDA builds (loom_backend_sources): the reductions run on the data's own side.
#include "loom/gpe/observables.hpp"

#include <cmath>

#include "loom/core/parallel_for.hpp"

namespace loom::gpe {

Observables measure(core::Backend backend, const Hamiltonian& h, const Complex* psi) {
  return measure(backend, h, psi, {0, h.lattice.size()});
}

Observables measure(core::Backend backend, const Hamiltonian& h, const Complex* psi, VertexRange vertices) {
  const Index n = vertices.count, first = vertices.first;
  const double g = h.physics.g;
  Observables o;
  o.norm = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index k) {
    const Index i = first + k;
    return h.volume(i) * core::norm2(psi[i]);
  });
  o.kinetic = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index k) {
    const Index i = first + k;
    const Complex minus_laplacian = -dec::laplacian(h.stencil, h.lattice, psi, i);
    return 0.5 * h.volume(i) * (core::conj(psi[i]) * minus_laplacian).re;
  });
  o.potential = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index k) {
    const Index i = first + k;
    return h.volume(i) * h.potential(i) * core::norm2(psi[i]);
  });
  o.interaction = core::parallel_sum(backend, n, [=] LOOM_HOST_DEVICE(Index k) {
    const double rho = core::norm2(psi[first + k]);
    return 0.5 * g * h.volume(first + k) * rho * rho;
  });
  o.max_abs = std::sqrt(
      core::parallel_max(backend, n, [=] LOOM_HOST_DEVICE(Index k) { return core::norm2(psi[first + k]); }));
  return o;
}

Complex inner_product(core::Backend backend, const Hamiltonian& h, const Complex* a, const Complex* b) {
  return inner_product(backend, h, a, b, {0, h.lattice.size()});
}

Complex inner_product(core::Backend backend, const Hamiltonian& h, const Complex* a, const Complex* b,
                      VertexRange vertices) {
  const Index first = vertices.first;
  const double re = core::parallel_sum(backend, vertices.count, [=] LOOM_HOST_DEVICE(Index k) {
    const Index i = first + k;
    return h.volume(i) * (core::conj(a[i]) * b[i]).re;
  });
  const double im = core::parallel_sum(backend, vertices.count, [=] LOOM_HOST_DEVICE(Index k) {
    const Index i = first + k;
    return h.volume(i) * (core::conj(a[i]) * b[i]).im;
  });
  return {re, im};
}

double rms_difference(core::Backend backend, Index n, const Complex* psi, const Complex* reference, Complex phase) {
  return std::sqrt(squared_difference(backend, {0, n}, psi, reference, phase) / double(n));
}

double squared_difference(core::Backend backend, VertexRange vertices, const Complex* psi, const Complex* reference,
                          Complex phase) {
  const Index first = vertices.first;
  return core::parallel_sum(backend, vertices.count, [=] LOOM_HOST_DEVICE(Index k) {
    return core::norm2(phase * reference[first + k] - psi[first + k]);
  });
}

void scale(core::Backend backend, Index n, Complex* psi, double factor) {
  core::parallel_for(backend, n, [=] LOOM_HOST_DEVICE(Index i) { psi[i] = factor * psi[i]; });
}

}  // namespace loom::gpe
