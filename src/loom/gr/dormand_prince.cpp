#include "loom/gr/dormand_prince.hpp"

#include "loom/core/timer.hpp"
#include "loom/gr/gh_kernels.hpp"
#include "loom/gr/indices.hpp"

namespace loom::gr {

namespace {

// The Butcher tableau (rows a_ij of stages 2..6) and the fifth-order weights b_j.
constexpr double a[6][5] = {{},
                            {1.0 / 5},
                            {3.0 / 40, 9.0 / 40},
                            {44.0 / 45, -56.0 / 15, 32.0 / 9},
                            {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
                            {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656}};
constexpr double b[6] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84};

State allocate(const GhSystem& s) {
  State u;
  for (int i = 0; i < s.shells(); ++i) u.emplace_back(static_cast<std::size_t>(state_size * s.points(i)));
  return u;
}

}  // namespace

DormandPrince::DormandPrince(GhSystem& system) : system_(system), stage_(allocate(system)) {
  for (int j = 0; j < 6; ++j) k_.push_back(allocate(system));
}

void DormandPrince::step(State& u, double dt) {
  const core::Backend backend = system_.backend();
  const core::Where w = core::where(backend);
  const FilterTarget target = system_.filter_target();
  system_.rhs(u, k_[0]);
  for (int j = 1; j <= 6; ++j) {
    const double* row = j < 6 ? a[j] : b;
    for (int s = 0; s < system_.shells(); ++s) {
      StageSum sum;
      sum.count = j;
      for (int i = 0; i < j; ++i) sum.c[i] = row[i], sum.k[i] = k_[i][s].read(w);
      // the last combination is the new state, written over u (each value reads only its own base)
      double* out = j < 6 ? stage_[s].write(w) : u[s].read_write(w);
      stage_combine(backend, state_size * system_.points(s), u[s].read(w), dt, sum, out);
    }
    if (j < 6 && target == FilterTarget::stage) system_.filter(stage_);
    if (j < 6) system_.rhs(stage_, k_[j]);
  }
  if (target != FilterTarget::rates) system_.filter(u);  // rates: the filter acted inside rhs()
}

}  // namespace loom::gr
