// The vortex method's time stepping: positions and strengths advanced together by the rates of rates.hpp, with
// second-order Adams-Bashforth (the paper's; started, and restarted after each reinitialisation, by the midpoint
// rule) or the classical third- and fourth-order Runge-Kutta methods; viscous diffusion by core spreading,
// sigma^2 += 2 nu dt (every stage sees the core of its own time).
#pragma once

#include <functional>
#include <string_view>

#include "loom/vortex/particles.hpp"
#include "loom/vortex/rates.hpp"

namespace loom::vortex {

enum class TimeScheme { ab2, rk3, rk4 };
std::string_view to_string(TimeScheme s);

using RateFunction = std::function<void(const Particles&, Rates&)>;

class Integrator {
 public:
  Integrator(TimeScheme scheme, double nu, Domain domain) : scheme_(scheme), nu_(nu), domain_(domain) {}

  void step(Particles& p, double dt, const RateFunction& rates);

  // AB2's rates of the previous step (empty before the first step and after forget()); kept in checkpoints.
  const Rates& previous() const { return previous_; }
  void set_previous(Rates r) { previous_ = std::move(r); }
  void forget() { previous_ = {}; }  // the particles were replaced (reinitialisation)
  TimeScheme scheme() const { return scheme_; }

 private:
  void runge_kutta(Particles& p, double dt, const RateFunction& rates, int order);
  void adams_bashforth(Particles& p, double dt, const RateFunction& rates);
  Particles advanced(const Particles& p, double dt, const std::vector<const Rates*>& k,
                     const std::vector<double>& weights) const;

  TimeScheme scheme_;
  double nu_;
  Domain domain_;
  Rates previous_;
};

}  // namespace loom::vortex
