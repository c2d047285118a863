#include "loom/vortex/integrator.hpp"

#include <cmath>

#include "loom/vortex/update.hpp"

namespace loom::vortex {

std::string_view to_string(TimeScheme s) {
  switch (s) {
    case TimeScheme::rk3: return "rk3";
    case TimeScheme::rk4: return "rk4";
    default: return "ab2";
  }
}

void wrap_positions(const Domain& domain, std::vector<Vec3d>& x) {
  if (!domain.periodic) return;
  const double L = domain.period;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < x.size(); ++i)
    for (int d = 0; d < 3; ++d) x[i][d] = wrap_coordinate(x[i][d], domain.lower, L);
}

// p + dt sum_s weights_s k_s for x and alpha, sigma at the time p's plus c dt, c = sum weights (core spreading:
// sigma^2 grows by 2 nu c dt).
Particles Integrator::advanced(const Particles& p, double dt, const std::vector<const Rates*>& k,
                               const std::vector<double>& weights) const {
  Particles q = p;
  double c = 0;
  for (double w : weights) c += w;
  const double spread = 2 * nu_ * c * dt;
  const Index n = p.size();
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) {
    const auto j = static_cast<std::size_t>(i);
    for (std::size_t s = 0; s < k.size(); ++s)
      add_rates(q.x[j], q.alpha[j], weights[s] * dt, k[s]->velocity[j], k[s]->stretching[j]);
    q.sigma[j] = spread_core(p.sigma[j], spread);
  }
  wrap_positions(domain_, q.x);
  return q;
}

// The classical Runge-Kutta tableaux: order 3 is Kutta's (c = 0, 1/2, 1; b = 1/6, 2/3, 1/6), order 4 the
// classical one (Hairer, Norsett, Wanner I, table 1.2), order 2 the midpoint rule.
void Integrator::runge_kutta(Particles& p, double dt, const RateFunction& rates, int order) {
  struct Tableau {
    std::vector<std::vector<double>> a;
    std::vector<double> b;
  };
  static const Tableau midpoint{{{}, {0.5}}, {0, 1}};
  static const Tableau kutta3{{{}, {0.5}, {-1, 2}}, {1.0 / 6, 2.0 / 3, 1.0 / 6}};
  static const Tableau classical4{{{}, {0.5}, {0, 0.5}, {0, 0, 1}}, {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}};
  const Tableau& t = order == 2 ? midpoint : order == 3 ? kutta3 : classical4;
  std::vector<Rates> k(t.b.size());
  std::vector<const Rates*> used;
  for (std::size_t s = 0; s < t.b.size(); ++s) {
    used.clear();
    for (std::size_t j = 0; j < s; ++j) used.push_back(&k[j]);
    if (s == 0)
      rates(p, k[0]);
    else
      rates(advanced(p, dt, used, t.a[s]), k[s]);
  }
  used.clear();
  for (auto& r : k) used.push_back(&r);
  if (scheme_ == TimeScheme::ab2) previous_ = k[0];
  p = advanced(p, dt, used, t.b);
}

// x(n+1) = x(n) + dt (3/2 f(n) - 1/2 f(n-1)), the same for alpha (fixed dt).
void Integrator::adams_bashforth(Particles& p, double dt, const RateFunction& rates) {
  Rates now;
  rates(p, now);
  const Particles next = advanced(p, dt, {&now, &previous_}, {ab2_current, ab2_previous});
  previous_ = std::move(now);
  p = next;
}

void Integrator::step(Particles& p, double dt, const RateFunction& rates) {
  if (scheme_ == TimeScheme::rk3) return runge_kutta(p, dt, rates, 3);
  if (scheme_ == TimeScheme::rk4) return runge_kutta(p, dt, rates, 4);
  if (previous_.velocity.size() != p.x.size()) return runge_kutta(p, dt, rates, 2);
  adams_bashforth(p, dt, rates);
}

}  // namespace loom::vortex
