// The characteristic fields of the first-order GH system at a boundary point (LSKOR 2006, eqs. 32-34) and their
// speeds, for a unit spatial normal n_i (n_i = s_i / sqrt(g^jk s_j s_k), n^i = g^ij n_j, s_i pointing out of the
// domain):
//   u^psi_ab  = psi_ab                                   speed -(1 + gamma1) N^k n_k
//   u^0_iab   = Phi_iab - n_i n^k Phi_kab                speed -N^k n_k
//   u^+-_ab   = Pi_ab +- n^k Phi_kab - gamma2 psi_ab     speed -N^k n_k +- N
// and back: psi = u^psi, Pi = (u^+ + u^-) / 2 + gamma2 u^psi, Phi_i = n_i (u^+ - u^-) / 2 + u^0_i.
// A speed < 0 is incoming (the field enters the domain and needs boundary data), > 0 outgoing. The same maps
// act on time derivatives (the Bjorhus form of boundary conditions: n and gamma2 frozen at the current state).
#pragma once

#include <cmath>

#include "loom/core/host_device.hpp"
#include "loom/gr/indices.hpp"
#include "loom/gr/spacetime.hpp"

namespace loom::gr {

// Modes in the order psi, zero, plus, minus.
enum Mode { mode_psi = 0, mode_zero = 1, mode_plus = 2, mode_minus = 3 };

struct BoundaryFrame {
  double n_down[3], n_up[3];
  double speed[4];  // per Mode
};

// The unit normal along s (a Cartesian direction out of the domain) for the metric `psi` (10 values), and the speeds.
LOOM_HOST_DEVICE inline BoundaryFrame boundary_frame(const double* psi, const double (&s)[3], double gamma1) {
  double g[4][4];
  unpack(psi, g);
  const ThreePlusOne t = three_plus_one(g);
  double norm2 = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) norm2 += t.inverse_spatial[i][j] * s[i] * s[j];
  BoundaryFrame f;
  const double inv = 1 / std::sqrt(norm2);
  double shift_n = 0;
  for (int i = 0; i < 3; ++i) f.n_down[i] = s[i] * inv;
  for (int i = 0; i < 3; ++i) {
    f.n_up[i] = 0;
    for (int j = 0; j < 3; ++j) f.n_up[i] += t.inverse_spatial[i][j] * f.n_down[j];
    shift_n += t.shift[i] * f.n_down[i];
  }
  f.speed[mode_psi] = -(1 + gamma1) * shift_n;
  f.speed[mode_zero] = -shift_n;
  f.speed[mode_plus] = -shift_n + t.lapse;
  f.speed[mode_minus] = -shift_n - t.lapse;
  return f;
}

// The 60 characteristic values of a 50-value state (or rate): u^psi (10), u^0 (30), u^+ (10), u^- (10).
struct CharacteristicFields {
  double psi[pairs], zero[3 * pairs], plus[pairs], minus[pairs];
};

LOOM_HOST_DEVICE inline CharacteristicFields to_characteristic(const double* u, const BoundaryFrame& f,
                                                               double gamma2) {
  CharacteristicFields c;
  for (int ab = 0; ab < pairs; ++ab) {
    double n_phi = 0;
    for (int k = 0; k < 3; ++k) n_phi += f.n_up[k] * u[phi_offset + k * pairs + ab];
    c.psi[ab] = u[ab];
    for (int i = 0; i < 3; ++i) c.zero[i * pairs + ab] = u[phi_offset + i * pairs + ab] - f.n_down[i] * n_phi;
    c.plus[ab] = u[pi_offset + ab] + n_phi - gamma2 * u[ab];
    c.minus[ab] = u[pi_offset + ab] - n_phi - gamma2 * u[ab];
  }
  return c;
}

LOOM_HOST_DEVICE inline void from_characteristic(const CharacteristicFields& c, const BoundaryFrame& f, double gamma2,
                                                 double* u) {
  for (int ab = 0; ab < pairs; ++ab) {
    u[ab] = c.psi[ab];
    u[pi_offset + ab] = 0.5 * (c.plus[ab] + c.minus[ab]) + gamma2 * c.psi[ab];
    for (int i = 0; i < 3; ++i)
      u[phi_offset + i * pairs + ab] = 0.5 * f.n_down[i] * (c.plus[ab] - c.minus[ab]) + c.zero[i * pairs + ab];
  }
}

// A speed this close to 0 counts as 0 (the psi mode with gamma1 = -1): neither side is upwind.
inline constexpr double zero_speed = 1e-12;

// The interface of two shells at one point: each mode is taken from the upwind side (`inner` for a speed > 0
// along the outward radial normal, `outer` for < 0) and averaged for a zero speed; both sides receive the result.
LOOM_HOST_DEVICE inline void upwind_merge(double* inner, double* outer, const BoundaryFrame& f, double gamma2) {
  const CharacteristicFields a = to_characteristic(inner, f, gamma2), b = to_characteristic(outer, f, gamma2);
  CharacteristicFields m;
  auto pick = [&](int mode, double x, double y) {
    const double v = f.speed[mode];
    return v > zero_speed ? x : v < -zero_speed ? y : 0.5 * (x + y);
  };
  for (int ab = 0; ab < pairs; ++ab) {
    m.psi[ab] = pick(mode_psi, a.psi[ab], b.psi[ab]);
    m.plus[ab] = pick(mode_plus, a.plus[ab], b.plus[ab]);
    m.minus[ab] = pick(mode_minus, a.minus[ab], b.minus[ab]);
    for (int i = 0; i < 3; ++i)
      m.zero[i * pairs + ab] = pick(mode_zero, a.zero[i * pairs + ab], b.zero[i * pairs + ab]);
  }
  from_characteristic(m, f, gamma2, inner);
  from_characteristic(m, f, gamma2, outer);
}

// The interface of two shells at one point in penalty (SAT) form: the shells keep their own values, and the rate
// of each characteristic field incoming to a side is pulled towards the other side's value,
//   d_t U_k += (|v_k| / w) (U_k(other side) - U_k(this side))   for v_k incoming to this side,
// w the side's radial quadrature weight of its end point (Legendre-Gauss-Lobatto, L / (N (N - 1)) for a shell of
// thickness L and N radial points). For the linearised symmetric-hyperbolic system this is the upwind flux of a
// discontinuous Galerkin method: the boundary terms of the energy estimate of both sides sum to -sum_k |v_k| w
// (U_k jump)^2 <= 0 (Carpenter, Gottlieb, Abarbanel; Hesthaven), where replacing the rates (upwind_merge) has no
// such estimate. Rates and values in the same layout; `values_*` are the states the rates were computed from.
LOOM_HOST_DEVICE inline void penalty_merge(const double* values_inner, const double* values_outer, double* rates_inner,
                                           double* rates_outer, const BoundaryFrame& f, double gamma2,
                                           double weight_inner, double weight_outer) {
  const CharacteristicFields a = to_characteristic(values_inner, f, gamma2), b = to_characteristic(values_outer, f, gamma2);
  CharacteristicFields da = to_characteristic(rates_inner, f, gamma2), db = to_characteristic(rates_outer, f, gamma2);
  // Along the outward normal of the inner shell: v < 0 enters the inner shell, v > 0 the outer one.
  auto penalise = [&](int mode, double x, double y, double& dx, double& dy) {
    const double v = f.speed[mode];
    if (v < -zero_speed) dx += -v / weight_inner * (y - x);
    if (v > zero_speed) dy += v / weight_outer * (x - y);
  };
  for (int ab = 0; ab < pairs; ++ab) {
    penalise(mode_psi, a.psi[ab], b.psi[ab], da.psi[ab], db.psi[ab]);
    penalise(mode_plus, a.plus[ab], b.plus[ab], da.plus[ab], db.plus[ab]);
    penalise(mode_minus, a.minus[ab], b.minus[ab], da.minus[ab], db.minus[ab]);
    for (int i = 0; i < 3; ++i) {
      const int k = i * pairs + ab;
      penalise(mode_zero, a.zero[k], b.zero[k], da.zero[k], db.zero[k]);
    }
  }
  from_characteristic(da, f, gamma2, rates_inner);
  from_characteristic(db, f, gamma2, rates_outer);
}

// An outer boundary point: every incoming mode (speed < 0) takes the value of `data` (the analytic solution's
// values, or its time derivative 0 when acting on rates); with `constraint_modes` false only u^+- (the modes the
// Bjorhus conditions, bjorhus.hpp, leave frozen).
LOOM_HOST_DEVICE inline void freeze_incoming(double* u, const double* data, const BoundaryFrame& f, double gamma2,
                                             bool constraint_modes = true) {
  CharacteristicFields c = to_characteristic(u, f, gamma2);
  const CharacteristicFields d = to_characteristic(data, f, gamma2);
  const double v_psi = constraint_modes ? f.speed[mode_psi] : 0, v_zero = constraint_modes ? f.speed[mode_zero] : 0;
  for (int ab = 0; ab < pairs; ++ab) {
    if (v_psi < -zero_speed) c.psi[ab] = d.psi[ab];
    if (f.speed[mode_plus] < -zero_speed) c.plus[ab] = d.plus[ab];
    if (f.speed[mode_minus] < -zero_speed) c.minus[ab] = d.minus[ab];
    if (v_zero < -zero_speed)
      for (int i = 0; i < 3; ++i) c.zero[i * pairs + ab] = d.zero[i * pairs + ab];
  }
  from_characteristic(c, f, gamma2, u);
}

// The smallest characteristic speed at a point (the excision boundary needs it >= 0). The psi mode's speed is
// (1 + gamma1) times the zero mode's (gamma1 >= -1), so it has that sign or is 0: the other three decide.
LOOM_HOST_DEVICE inline double slowest(const BoundaryFrame& f) {
  double v = f.speed[mode_zero];
  for (int m = mode_plus; m <= mode_minus; ++m) v = v < f.speed[m] ? v : f.speed[m];
  return v;
}

}  // namespace loom::gr
