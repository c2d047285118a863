// The GH evolution of a Kerr-Schild hole on nested spherical shells (issue 19): the shells' grids and fixed fields
// (coordinates, inverse Jacobians, quadrature weights, damping, the gauge source and its gradient, the exact
// state), and the operations a time step needs, each on the chosen backend: the right-hand side with its
// boundary treatment, the filter, the excision check and the constraint and error norms.
//
// Boundaries: the inner surface of the first shell lies inside the horizon (excision: every characteristic speed
// must point into the hole, checked, never imposed). Shell interfaces couple in penalty (SAT) form by default:
// each shell keeps its values and the rate of every characteristic field entering it is pulled towards the other
// side's value (penalty_merge); or by characteristic upwinding of the time derivatives (each mode from the side it
// comes from, zero-speed modes averaged, both shells then carrying identical values at the shared points). The
// outer surface imposes the analytic solution on the incoming characteristic fields in penalty form, or freezes
// them (their rates set to 0, their values reset after each filter), or applies the Bjorhus conditions to the
// rates (OuterBoundary).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "loom/core/array.hpp"
#include "loom/core/backend.hpp"
#include "loom/gr/damping.hpp"
#include "loom/gr/kerr_schild.hpp"
#include "loom/spectral/apply.hpp"
#include "loom/spectral/operations.hpp"
#include "loom/spectral/spin_filter.hpp"
#include "loom/spectral/topology.hpp"

namespace loom::gr {

using State = std::vector<core::Array<double>>;  // one 50 N array per shell

// Seconds spent per module of the paper's Fig. 3 (Jacobian = DiffJac, Deriv = the logical derivatives).
struct ModuleTimes {
  double jacobian = 0, deriv = 0, filter = 0, gh_eqns = 0, apply_bcs = 0, other = 0;
  double total() const { return jacobian + deriv + filter + gh_eqns + apply_bcs + other; }
};

// Volume RMS norms over all shells (quadrature-weighted, each over the unique components) of C_a, C_iab and the
// errors; `normalized` = sqrt((|C_a|^2 + |C_iab|^2) / |d u|^2), the constraints over the derivatives of all 50
// fields (LSKOR's normalised constraint, eq. 71, with the Euclidean component sum).
struct Norms {
  double gauge = 0, three_index = 0, normalized = 0, psi_error = 0, pi_error = 0, phi_error = 0;
};

// The outer boundary condition: the incoming characteristic fields frozen to the analytic solution, or the
// constraint-preserving Bjorhus conditions on u^psi, u^0 and the gauge-constraint part of u^-, the rest of u^-
// frozen (bjorhus.hpp; both of these act on the rates and reset the incoming values after the filter:
// frozen, bjorhus), or in penalty form: the incoming modes' rates pulled towards the analytic solution's values
// (penalty_merge in characteristics.hpp), the values never reset.
enum class OuterBoundary { frozen, bjorhus, penalty };

// The shell interface: the incoming characteristic rates replaced by the other side's (upwind; both shells then
// carry identical values there), or the penalty (SAT) form, each shell keeping its own values.
enum class InterfaceCoupling { upwind, penalty };

// What the filter (radial exponential and Y_lm truncation) acts on: the state after each full Runge-Kutta step
// (step; SpEC's filter and the default), the state of every stage before its right-hand side and after the step
// (stage), or the right-hand side of every stage (rates: d_t u = F L(u), before the boundary terms are added, so
// that the penalties stay pointwise). Filtering rates leaves a stationary state's own top modes alone: only the
// truncation residual L(u) is filtered, not the solution.
enum class FilterTarget { step, stage, rates };

struct GhGeometry {
  std::array<int, 3> extents{10, 19, 38};  // per shell: N_r, N_theta, N_phi = 2 N_theta
  std::vector<double> radii{1.62, 6, 12};  // shell boundaries, increasing
  OuterBoundary outer = OuterBoundary::penalty;
  Damping damping{};
  InterfaceCoupling interface = InterfaceCoupling::penalty;
  FilterTarget filter_target = FilterTarget::step;
  // The angular truncation: the tensor-consistent spin-weighted one (spin_filter.hpp; psi and Pi as T_aa, Phi as
  // T_iaa; the default as loom bh's filter.angular: docs/gr.md, "The tensor filter"), or each Cartesian
  // component's Y_lm (scalar).
  spectral::AngularFilter angular_filter = spectral::AngularFilter::tensor;

  // The radial map: one for every shell, or one per shell from the innermost (shells past the list linear; none:
  // all linear). The default as `loom bh`'s grid.map (docs/gr.md, "The radial map").
  std::vector<spectral::RadialMap> maps{spectral::RadialMap::inverse};
};

// The radial map of shell s (a single map: every shell's; linear past a longer list or with none), and every
// shell's as "inverse,linear".
spectral::RadialMap shell_map(const GhGeometry& g, std::size_t s);
std::string map_names(const GhGeometry& g);

class GhSystem {
 public:
  GhSystem(const KerrSchild& bh, const GhGeometry& geometry, const spectral::FilterSpec& filter,
           core::Backend backend);
  ~GhSystem();
  GhSystem(const GhSystem&) = delete;
  GhSystem& operator=(const GhSystem&) = delete;

  int shells() const { return static_cast<int>(shells_.size()); }
  Index points(int shell) const;
  Index total_points() const;
  core::Backend backend() const { return backend_; }
  FilterTarget filter_target() const { return filter_target_; }
  spectral::AngularFilter angular_filter() const { return angular_filter_; }
  spectral::Strategy strategy() const { return strategy_; }
  const spectral::Shell& shell(int s) const;
  // The exact Kerr-Schild state (a copy), and the Cartesian coordinates of a shell's points (3 N, host).
  State exact_state() const;
  std::vector<double> coordinates(int shell) const;

  // du = d_t u with the interface and outer-boundary treatment applied (the filter on the interior rates first
  // when filter_target() is rates).
  void rhs(const State& u, State& du);
  // The filter on every shell, then the interface merge and the outer freeze of the values.
  void filter(State& u);
  // The smallest characteristic speed into the hole on the excision surface (>= 0 when excision is valid);
  // timed as ApplyBCs.
  double slowest_excision_speed(const State& u);
  Norms norms(const State& u);
  // Per point of each shell, for snapshots (host): |C_a|, |C_iab| and the errors |psi|, |Pi|, |Phi| against the
  // exact data, in the order of point_field_names.
  static constexpr std::array<const char*, 5> point_field_names = {"gauge_constraint", "three_index_constraint",
                                                                   "psi_error", "pi_error", "phi_error"};
  std::vector<std::array<std::vector<double>, 5>> point_fields(const State& u);
  // The smallest distance between neighbouring points (radial, or r_inner times the polar spacing).
  double smallest_spacing() const;

  void set_profiling(bool on) { profiling_ = on; }
  const ModuleTimes& times() const { return times_; }
  void reset_times() { times_ = {}; }

 private:
  struct ShellData;
  void gradient(int s, const core::Array<double>& u);
  // Every shell's gradient of u: the shells on the cluster route in one launch (of the same extents;
  // Differentiator::cartesian_gradients), else gradient(s) per shell.
  void gradients(const State& u);
  void observe(const State& u, std::vector<core::Array<double>>& out);
  void apply_boundaries(const State& frame, State& field, bool values);
  void filter_fields(State& field);

  core::Backend backend_;
  spectral::Strategy strategy_;
  KerrSchild bh_;
  OuterBoundary outer_;
  InterfaceCoupling interface_;
  FilterTarget filter_target_;
  spectral::AngularFilter angular_filter_;
  bool radial_filter_;  // alpha > 0
  double gamma1_;
  mutable spectral::OperatorCache cache_;
  std::vector<std::unique_ptr<ShellData>> shells_;
  std::vector<spectral::ShellGradient> batch_;  // gradients()'s list, kept between calls
  bool profiling_ = false;
  ModuleTimes times_;
};

}  // namespace loom::gr
