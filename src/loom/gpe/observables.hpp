// What a GPE run measures (DEC-GPE paper, section 5.1), as sums over dual vertices weighted by each vertex's own
// cell volume |B_i| (the discrete Hodge star of a 0-form: one volume for all would be wrong on FCC, A15, C15, Z).
#pragma once

#include "loom/core/backend.hpp"
#include "loom/gpe/model/hamiltonian.hpp"

namespace loom::gpe {

struct Observables {
  double norm = 0;         // sum |B_i| |psi_i|^2
  double kinetic = 0;      // (1/2) sum |B_i| Re conj(psi_i) (-Lap psi)_i
  double potential = 0;    // sum |B_i| V_i |psi_i|^2
  double interaction = 0;  // (g/2) sum |B_i| |psi_i|^4
  double max_abs = 0;      // max_i |psi_i|
  double energy() const { return kinetic + potential + interaction; }
  double mu() const { return (kinetic + potential + 2 * interaction) / norm; }  // <psi, M psi> / <psi, psi>
};

// The vertices [first, first + count) of a lattice: a rank's owned part of its slab (slab_observables.hpp).
struct VertexRange {
  Index first = 0, count = 0;
};

Observables measure(core::Backend backend, const Hamiltonian& h, const Complex* psi);
Observables measure(core::Backend backend, const Hamiltonian& h, const Complex* psi, VertexRange vertices);

// <a, b> = sum |B_i| conj(a_i) b_i.
Complex inner_product(core::Backend backend, const Hamiltonian& h, const Complex* a, const Complex* b);
Complex inner_product(core::Backend backend, const Hamiltonian& h, const Complex* a, const Complex* b,
                      VertexRange vertices);

// sqrt(1/m sum_i |phase reference_i - psi_i|^2): the paper's RMSE against the evolving exact solution.
double rms_difference(core::Backend backend, Index n, const Complex* psi, const Complex* reference, Complex phase);
// The sum under that root over some vertices.
double squared_difference(core::Backend backend, VertexRange vertices, const Complex* psi, const Complex* reference,
                          Complex phase);

// Multiplies psi by `factor` in place (normalisation).
void scale(core::Backend backend, Index n, Complex* psi, double factor);

}  // namespace loom::gpe
