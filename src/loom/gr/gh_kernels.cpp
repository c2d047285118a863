#include "loom/gr/gh_kernels.hpp"

#include <algorithm>
#include <cmath>

#include "loom/core/parallel_for.hpp"
#include "loom/gr/bjorhus.hpp"
#include "loom/gr/characteristics.hpp"
#include "loom/gr/gh_equations.hpp"

namespace loom::gr {

namespace {

LOOM_HOST_DEVICE inline void gather_input(const ShellFields& f, Index p, GhInput& in) {
  const Index n = f.points;
  for (int c = 0; c < pairs; ++c) {
    in.psi[c] = f.state[c * n + p];
    in.pi[c] = f.state[(pi_offset + c) * n + p];
    for (int k = 0; k < 3; ++k) {
      in.dpsi[k][c] = f.gradient[(k * state_size + c) * n + p];
      in.dpi[k][c] = f.gradient[(k * state_size + pi_offset + c) * n + p];
    }
  }
  for (int c = 0; c < 3 * pairs; ++c) {
    in.phi[c] = f.state[(phi_offset + c) * n + p];
    for (int k = 0; k < 3; ++k) in.dphi[k][c] = f.gradient[(k * state_size + phi_offset + c) * n + p];
  }
  for (int a = 0; a < 4; ++a) {
    in.gauge[a] = f.gauge[a * n + p];
    for (int b = 0; b < 4; ++b) in.dgauge[a][b] = f.dgauge[(4 * a + b) * n + p];
  }
  in.gamma0 = f.gamma0[p];
  in.gamma1 = f.gamma1;
  in.gamma2 = f.gamma2[p];
}

// The Cartesian unit radial direction at a boundary point, and its point index.
LOOM_HOST_DEVICE inline Index boundary_point(const BoundarySlice& s, Index q, double (&radial)[3]) {
  const Index p = s.ir + Index{s.n_r} * q;
  const double x = s.coords[p], y = s.coords[s.points + p], z = s.coords[2 * s.points + p];
  const double inv = 1 / std::sqrt(x * x + y * y + z * z);
  radial[0] = x * inv, radial[1] = y * inv, radial[2] = z * inv;
  return p;
}

// A loop over one boundary sphere's points (a few hundred): on the CPU one thread runs it, since waking the
// OpenMP team costs more than the ~1 ms of work it would share (docs/performance.md); one launch on the GPU.
template <class Body>
void boundary_for(core::Backend b, Index n, const Body& body) {
  if (b == core::Backend::cpu) {
    for (Index q = 0; q < n; ++q) body(q);
    return;
  }
  core::parallel_for(b, n, body);
}

LOOM_HOST_DEVICE inline void load(const double* field, Index n, Index p, double* u) {
  for (int c = 0; c < state_size; ++c) u[c] = field[c * n + p];
}

LOOM_HOST_DEVICE inline void store(const double* u, Index n, Index p, double* field) {
  for (int c = 0; c < state_size; ++c) field[c * n + p] = u[c];
}

}  // namespace

void gh_rhs_points(core::Backend b, const ShellFields& f, double* rates) {
  const Index n = f.points;
  core::parallel_for(b, n, [=] LOOM_HOST_DEVICE(Index p) {
    GhInput in;
    gather_input(f, p, in);
    double out[state_size];
    gh_rhs(in, out);
    for (int c = 0; c < state_size; ++c) rates[c * n + p] = out[c];
  });
}

void point_observables(core::Backend b, const ShellFields& f, const double* exact, double* out) {
  const Index n = f.points;
  core::parallel_for(b, n, [=] LOOM_HOST_DEVICE(Index p) {
    GhInput in;
    gather_input(f, p, in);
    double ca[4], ciab[3 * pairs];
    gh_constraints(in, ca, ciab);
    double sums[observable_count] = {};
    for (int a = 0; a < 4; ++a) sums[0] += ca[a] * ca[a];
    for (int c = 0; c < 3 * pairs; ++c) sums[1] += ciab[c] * ciab[c];
    for (int c = 0; c < 3 * state_size; ++c) sums[2] += f.gradient[c * n + p] * f.gradient[c * n + p];
    for (int c = 0; c < state_size; ++c) {
      const double e = f.state[c * n + p] - exact[c * n + p];
      sums[c < pi_offset ? 3 : c < phi_offset ? 4 : 5] += e * e;
    }
    for (int q = 0; q < observable_count; ++q) out[q * n + p] = sums[q];
  });
}

void merge_interface(core::Backend b, const BoundarySlice& inner, const BoundarySlice& outer, const double* frame_state,
                     double* inner_field, double* outer_field) {
  boundary_for(b, inner.angular, [=] LOOM_HOST_DEVICE(Index q) {
    double radial[3], metric[pairs], u_in[state_size], u_out[state_size];
    const Index pi = boundary_point(inner, q, radial), po = outer.ir + Index{outer.n_r} * q;
    for (int c = 0; c < pairs; ++c) metric[c] = frame_state[c * inner.points + pi];
    const BoundaryFrame frame = boundary_frame(metric, radial, inner.gamma1);
    load(inner_field, inner.points, pi, u_in);
    load(outer_field, outer.points, po, u_out);
    upwind_merge(u_in, u_out, frame, inner.gamma2[pi]);
    store(u_in, inner.points, pi, inner_field);
    store(u_out, outer.points, po, outer_field);
  });
}

void penalty_interface(core::Backend b, const BoundarySlice& inner, const BoundarySlice& outer, const double* inner_state,
                       const double* outer_state, double* inner_rates, double* outer_rates, double weight_inner,
                       double weight_outer) {
  boundary_for(b, inner.angular, [=] LOOM_HOST_DEVICE(Index q) {
    double radial[3], u_in[state_size], u_out[state_size], du_in[state_size], du_out[state_size];
    const Index pi = boundary_point(inner, q, radial), po = outer.ir + Index{outer.n_r} * q;
    load(inner_state, inner.points, pi, u_in);
    load(outer_state, outer.points, po, u_out);
    load(inner_rates, inner.points, pi, du_in);
    load(outer_rates, outer.points, po, du_out);
    const BoundaryFrame frame = boundary_frame(u_in, radial, inner.gamma1);
    penalty_merge(u_in, u_out, du_in, du_out, frame, inner.gamma2[pi], weight_inner, weight_outer);
    store(du_in, inner.points, pi, inner_rates);
    store(du_out, outer.points, po, outer_rates);
  });
}

void penalty_outer(core::Backend b, const BoundarySlice& outer, const double* state, const double* data, double* rates,
                   double weight) {
  boundary_for(b, outer.angular, [=] LOOM_HOST_DEVICE(Index q) {
    double radial[3], u[state_size], d[state_size], du[state_size], unused[state_size];
    const Index p = boundary_point(outer, q, radial);
    load(state, outer.points, p, u);
    load(data, outer.points, p, d);
    load(rates, outer.points, p, du);
    const BoundaryFrame frame = boundary_frame(u, radial, outer.gamma1);
    // The data as the far side of an interface whose own rates are discarded: only the modes entering the shell
    // (v < 0 along its outward normal) are penalised.
    for (int c = 0; c < state_size; ++c) unused[c] = 0;
    penalty_merge(u, d, du, unused, frame, outer.gamma2[p], weight, 1.0);
    store(du, outer.points, p, rates);
  });
}

void freeze_outer(core::Backend b, const BoundarySlice& outer, const double* frame_state, const double* data,
                  double* field, bool constraint_modes) {
  boundary_for(b, outer.angular, [=] LOOM_HOST_DEVICE(Index q) {
    double radial[3], metric[pairs], u[state_size], d[state_size] = {};
    const Index p = boundary_point(outer, q, radial);
    for (int c = 0; c < pairs; ++c) metric[c] = frame_state[c * outer.points + p];
    const BoundaryFrame frame = boundary_frame(metric, radial, outer.gamma1);
    load(field, outer.points, p, u);
    if (data != nullptr) load(data, outer.points, p, d);
    freeze_incoming(u, d, frame, outer.gamma2[p], constraint_modes);
    store(u, outer.points, p, field);
  });
}

void bjorhus_outer(core::Backend b, const BoundarySlice& outer, const ShellFields& f, double* rates) {
  boundary_for(b, outer.angular, [=] LOOM_HOST_DEVICE(Index q) {
    double radial[3], u[state_size], du[state_size], grad[3][state_size], h[4], dh[3][4];
    const Index n = outer.points, p = boundary_point(outer, q, radial);
    load(f.state, n, p, u);
    load(rates, n, p, du);
    for (int k = 0; k < 3; ++k) load(f.gradient + k * state_size * n, n, p, grad[k]);
    for (int a = 0; a < 4; ++a) {
      h[a] = f.gauge[a * n + p];
      for (int k = 0; k < 3; ++k) dh[k][a] = f.dgauge[(4 * (k + 1) + a) * n + p];
    }
    const BoundaryFrame frame = boundary_frame(u, radial, outer.gamma1);
    bjorhus_rates(du, u, grad, h, dh, frame, outer.gamma2[p]);
    store(du, n, p, rates);
  });
}

double slowest_excision_speed(core::Backend b, const BoundarySlice& inner, const double* state) {
  const auto negated_speed = [=] LOOM_HOST_DEVICE(Index q) {
    double radial[3], metric[pairs];
    const Index p = boundary_point(inner, q, radial);
    for (int i = 0; i < 3; ++i) radial[i] = -radial[i];
    for (int c = 0; c < pairs; ++c) metric[c] = state[c * inner.points + p];
    return -slowest(boundary_frame(metric, radial, inner.gamma1));
  };
  if (b == core::Backend::cpu) {  // serial, as boundary_for
    double m = -HUGE_VAL;
    for (Index q = 0; q < inner.angular; ++q) m = std::max(m, negated_speed(q));
    return -m;
  }
  return -core::parallel_max(b, inner.angular, negated_speed);
}

void stage_combine(core::Backend b, Index n, const double* base, double dt, const StageSum& s, double* out) {
  core::parallel_for(b, n, [=] LOOM_HOST_DEVICE(Index i) {
    double v = 0;
    for (int j = 0; j < s.count; ++j) v += s.c[j] * s.k[j][i];
    out[i] = base[i] + dt * v;
  });
}

}  // namespace loom::gr
