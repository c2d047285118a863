// The Dormand-Prince 5(4) Runge-Kutta method (Dormand & Prince 1980, J. Comp. Appl. Math. 6, 19; the fifth-order
// weights, no error control) with a fixed step, on the GH system: six right-hand sides per step, each with the
// boundary treatment, then the filter once per step as SpEC does (or on each stage's state or rates:
// GhSystem::filter_target).
#pragma once

#include "loom/gr/gh_system.hpp"

namespace loom::gr {

class DormandPrince {
 public:
  explicit DormandPrince(GhSystem& system);
  void step(State& u, double dt);

 private:
  GhSystem& system_;
  std::vector<State> k_;  // the six stage derivatives
  State stage_;
};

}  // namespace loom::gr
