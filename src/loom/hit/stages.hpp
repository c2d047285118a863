// Integrating-factor Runge-Kutta stages (Rogallo 1981; Canuto et al., "Spectral Methods", section 4.4): with
// v = e^{nu k^2 t} u_hat the viscous term is integrated exactly and the explicit scheme sees the nonlinear term
// N(u) only. Each stage ends with the per-mode update written below, fused into the kernel that finishes N.
#pragma once

#include <array>

#include "loom/core/host_device.hpp"
#include "loom/hit/model.hpp"

namespace loom::hit {

enum class Scheme { rk4, rk2 };

// out = from_acc acc + from_u E^{halves_u} u + from_k E^{halves_k} N, with E = e^{-nu k^2 h/2} the viscous
// factor over half a step: every factor a stage needs is E^0, E^1 or E^2, so a mode needs one exponential per stage.
struct StageTerm {
  double from_acc = 0, from_u = 0;
  int halves_u = 0;
  double from_k = 0;
  int halves_k = 0;
};

// One stage: N is evaluated at the stage's input (u for the first stage, w after); then acc (the running
// combination of the step) and the next input are updated. The last stage writes u itself.
struct Stage {
  StageTerm to_acc, to_next;
  bool writes_acc = false, last = false;
};

struct StageTable {
  std::array<Stage, 4> stage{};
  int count = 0;
  double h = 0;  // the step
};

LOOM_HOST_DEVICE inline double half_step_power(double e_half, int halves) {
  return halves == 0 ? 1.0 : halves == 1 ? e_half : e_half * e_half;
}

LOOM_HOST_DEVICE inline Complex stage_value(const StageTerm& t, double e_half, const Complex* acc, Complex u,
                                            Complex n) {
  Complex out = (t.from_u * half_step_power(e_half, t.halves_u)) * u +
                (t.from_k * half_step_power(e_half, t.halves_k)) * n;
  if (t.from_acc != 0) out += t.from_acc * *acc;  // acc is unset before the first stage writes it
  return out;
}

// The stages of a step of length h. RK4: the classical scheme in the integrating-factor frame,
//   u1 = E(h) u + h/6 [E(h) k1 + 2 E(h/2) (k2 + k3) + k4],  k1 = N(u), k2 = N(E(h/2)(u + h/2 k1)),
//   k3 = N(E(h/2) u + h/2 k2), k4 = N(E(h) u + h E(h/2) k3),  E(tau) = e^{-nu k^2 tau};
// RK2: Heun's scheme, u1 = E(h) u + h/2 [E(h) k1 + k2], k2 = N(E(h) (u + h k1)).
inline StageTable if_rk_stages(Scheme scheme, double h) {
  StageTable t;
  t.h = h;
  if (scheme == Scheme::rk4) {
    t.count = 4;
    t.stage[0] = {{0, 1, 2, h / 6, 2}, {0, 1, 1, h / 2, 1}, true, false};
    t.stage[1] = {{1, 0, 0, h / 3, 1}, {0, 1, 1, h / 2, 0}, true, false};
    t.stage[2] = {{1, 0, 0, h / 3, 1}, {0, 1, 2, h, 1}, true, false};
    t.stage[3] = {{}, {1, 0, 0, h / 6, 0}, false, true};
  } else {
    t.count = 2;
    t.stage[0] = {{0, 1, 2, h / 2, 2}, {0, 1, 2, h, 2}, true, false};
    t.stage[1] = {{}, {1, 0, 0, h / 2, 0}, false, true};
  }
  return t;
}

}  // namespace loom::hit
