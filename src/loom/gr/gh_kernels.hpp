// The pointwise loops of the GH evolution on one shell, each one launch (an OpenMP loop on the CPU, one CUDA
// kernel on the GPU) over every point or every boundary point, from the formulas of gh_equations.hpp and
// characteristics.hpp. Fields are component-major ([component * N + point]); a shell's points run r fastest,
// so the boundary point of angular index q at radial index ir is ir + N_r q.
#pragma once

#include "loom/core/backend.hpp"
#include "loom/core/host_device.hpp"

namespace loom::gr {

// What the right-hand side reads on a shell of `points` points (pointers on the backend's side).
struct ShellFields {
  Index points = 0;
  const double* state = nullptr;     // 50 N
  const double* gradient = nullptr;  // d_k of the state, [(k 50 + c) N + p]
  const double* gauge = nullptr;     // H_a, 4 N
  const double* dgauge = nullptr;    // d_a H_b, [(4 a + b) N + p]
  const double* gamma0 = nullptr;    // N
  const double* gamma2 = nullptr;    // N
  double gamma1 = 0;
};

// rates = d_t state (LSKOR eqs. 35-37) at every point; one launch over all 50 components.
void gh_rhs_points(core::Backend b, const ShellFields& f, double* rates);

// Per point: sum_a C_a^2, sum C_iab^2, the squared derivatives of all 50 fields, and the squared errors of psi, Pi
// and Phi against `exact`, into out[q N + p] for q = 0..5.
inline constexpr int observable_count = 6;
void point_observables(core::Backend b, const ShellFields& f, const double* exact, double* out);

// A boundary sphere of a shell: radial index `ir` of a shell with n_r radial points and `points` points in all.
struct BoundarySlice {
  Index points = 0, angular = 0;
  int n_r = 0, ir = 0;
  const double* coords = nullptr;  // 3 N, Cartesian
  const double* gamma2 = nullptr;  // N
  double gamma1 = 0;               // for the characteristic speeds
};

// The shell interface: each characteristic mode from its upwind side into both shells' fields (values or rates);
// the normal and speeds from `frame_state` of the inner shell.
void merge_interface(core::Backend b, const BoundarySlice& inner, const BoundarySlice& outer, const double* frame_state,
                     double* inner_field, double* outer_field);
// The shell interface in penalty form (penalty_merge): the rates of both shells' interface points pulled towards
// the other side's incoming characteristic values; `weight_*` each side's radial end-point quadrature weight.
void penalty_interface(core::Backend b, const BoundarySlice& inner, const BoundarySlice& outer, const double* inner_state,
                       const double* outer_state, double* inner_rates, double* outer_rates, double weight_inner,
                       double weight_outer);
// The outer boundary in penalty form: the rates of the incoming modes pulled towards those of `data` (the
// analytic solution), d_t U_k += (|v_k| / weight) (U_k(data) - U_k).
void penalty_outer(core::Backend b, const BoundarySlice& outer, const double* state, const double* data, double* rates,
                   double weight);
// The outer boundary: incoming modes of `field` take those of `data` (nullptr: 0, for rates of the static solution);
// with `constraint_modes` false only u^+- (freeze_incoming).
void freeze_outer(core::Backend b, const BoundarySlice& outer, const double* frame_state, const double* data,
                  double* field, bool constraint_modes = true);
// The constraint-preserving (Bjorhus) outer boundary on rates (bjorhus.hpp): `rates` corrected at the outer
// surface's points from the fields the right-hand side read (ShellFields: the state, its Cartesian gradient, the
// gauge source and its gradient).
void bjorhus_outer(core::Backend b, const BoundarySlice& outer, const ShellFields& f, double* rates);
// The smallest characteristic speed at the inner boundary along the normal pointing into the hole (excision needs
// it >= 0 everywhere).
double slowest_excision_speed(core::Backend b, const BoundarySlice& inner, const double* state);

// out = base + dt sum_j c[j] k[j] over n values (the Runge-Kutta stages).
struct StageSum {
  int count = 0;
  double c[7] = {};
  const double* k[7] = {};
};
void stage_combine(core::Backend b, Index n, const double* base, double dt, const StageSum& s, double* out);

}  // namespace loom::gr
