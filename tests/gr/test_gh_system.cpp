// The GH system on shells (gr/gh_system.hpp) with the exact Kerr-Schild data: the analytic Phi equals the
// spectral derivative of psi, and the right-hand side vanishes, both to truncation error that falls exponentially
// with resolution (the errors at four resolutions must fall by a factor that does not shrink, which an algebraic
// rate does not give).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "loom/gr/dormand_prince.hpp"
#include "loom/gr/gh_system.hpp"
#include "loom/gr/indices.hpp"

namespace loom::gr {
namespace {

const KerrSchild tilted{1.0, {0.2, 0.3, 0.4}};

GhGeometry geometry(int k, std::vector<spectral::RadialMap> maps = {}) {
  GhGeometry g{{4 + 2 * k, 5 + 2 * k, 10 + 4 * k}, {1.62, 6, 12}};
  g.maps = std::move(maps);
  return g;
}

// Largest |rate| over every point and component of both shells.
double largest_rate(GhSystem& system) {
  State u = system.exact_state(), du = system.exact_state();
  system.rhs(u, du);
  double m = 0;
  for (const auto& a : du) {
    const double* p = a.read(core::Where::host);
    for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(p[i]));
  }
  return m;
}

// The largest rate and |C_iab| of the exact data at the four resolutions, with the given radial maps; with
// `radial_only` the angular grid stays at the paper's 19 x 38 and only N_r = 4, 6, 8, 10 changes.
std::array<std::vector<double>, 2> truncation(const std::vector<spectral::RadialMap>& maps, bool radial_only = false) {
  std::vector<double> rhs, c3;
  for (int k = 0; k < 4; ++k) {
    GhGeometry g = geometry(k, maps);
    if (radial_only) g.extents = {4 + 2 * k, 19, 38};
    GhSystem system(tilted, g, {}, core::Backend::cpu);
    rhs.push_back(largest_rate(system));
    c3.push_back(system.norms(system.exact_state()).three_index);
  }
  for (int k = 0; k < 4; ++k) std::printf("k %d: max |rhs| %.3e, |C_iab| %.3e\n", k, rhs[k], c3[k]);
  return {rhs, c3};
}

TEST(GhSystem, ExactDataConvergesExponentially) {
  const auto [rhs, c3] = truncation({});
  // Exponential: every step of 2 points per direction divides the error by more than 3, and the factor does not
  // shrink (an algebraic rate N^-p, matched to the first factor, falls to 0.65 and 0.77 of it at these N).
  for (const auto* e : {&rhs, &c3})
    for (int k = 1; k < 4; ++k) {
      const double factor = (*e)[k - 1] / (*e)[k];
      EXPECT_GT(factor, 3.0) << "k " << k;
      if (k > 1) {
        EXPECT_GT(factor, 0.85 * (*e)[k - 2] / (*e)[k - 1]) << "k " << k;
      }
    }
}

// Both shells on the inverse radial map (points uniform in 1/r, in which Kerr-Schild is nearly linear), the
// angular grid held at 19 x 38, N_r = 4, 6, 8, 10 (measured: the largest rate 1.0e-2, 1.1e-4, 8.9e-7, 7.7e-7 and
// |C_iab| 9.9e-5 ... 1.2e-10, against the linear map's 0.32 ... 3.5e-3 and 2.3e-2 ... 1.0e-4): the residual falls
// exponentially until the angular truncation (~8e-7 in the largest rate) stops it, and at equal points it lies
// far below the linear map's.
TEST(GhSystem, ExactDataOnTheInverseMapIsResolvedBetter) {
  using spectral::RadialMap;
  const auto linear = truncation({}, true);
  const auto inverse = truncation({RadialMap::inverse, RadialMap::inverse}, true);
  for (int k = 0; k < 4; ++k) {
    if (k > 0 && k < 3) {
      EXPECT_GT(inverse[0][k - 1] / inverse[0][k], 30.0) << "k " << k;
    }
    if (k > 0) {
      EXPECT_GT(inverse[1][k - 1] / inverse[1][k], 20.0) << "k " << k;
    }
    EXPECT_LT(inverse[0][k], 0.1 * linear[0][k]) << "k " << k;
    EXPECT_LT(inverse[1][k], 1e-2 * linear[1][k]) << "k " << k;
  }
}

}  // namespace
}  // namespace loom::gr

namespace loom::gr {
namespace {

// The largest top radial Chebyshev coefficient over every line (angular point) and component of the inner shell.
std::vector<double> top_radial_modes(const GhSystem& system, const State& u) {
  const auto e = system.shell(0).extents();
  const Index n = system.points(0);
  const spectral::Basis1D& basis = system.shell(0).radial();
  std::vector<double> line(e[0]), c(e[0]), out;
  const double* p = u[0].read(core::Where::host);
  for (int comp = 0; comp < state_size; ++comp)
    for (Index q = 0; q < n / e[0]; ++q) {
      for (int i = 0; i < e[0]; ++i) line[i] = p[comp * n + q * e[0] + i];
      basis.to_spectral(line.data(), c.data());
      out.push_back(c.back());
    }
  return out;
}

// What filter.target changes, seen in the top radial mode of the exact hole after one Dormand-Prince step: the
// state's filter (step, stage) removes it (exp(-36)), the rates' filter leaves it nearly as it was: every stage's
// interior rate is filtered (its top mode exp(-36) of the residual's), and only the penalties at the shell ends,
// which vanish for the exact data and grow with the stages' departure from it, add a top mode, O(dt^2): 8.7e-4 of
// it at dt = 0.05, 2.0e-4 at dt / 2 (without the radial filter of the rates, 9% and 5%).
TEST(GhSystem, TheFilterOfTheRatesLeavesTheStatesTopModeAlone) {
  for (FilterTarget target : {FilterTarget::step, FilterTarget::stage, FilterTarget::rates}) {
    GhGeometry g = geometry(2);
    g.filter_target = target;
    spectral::FilterSpec filter;
    filter.alpha = 36, filter.half_order = 32;
    GhSystem system(tilted, g, filter, core::Backend::cpu);
    for (double dt : {0.05, 0.025}) {
      State u = system.exact_state();
      const std::vector<double> before = top_radial_modes(system, u);
      DormandPrince(system).step(u, dt);
      const std::vector<double> after = top_radial_modes(system, u);
      double top = 0, change = 0;
      for (std::size_t i = 0; i < before.size(); ++i)
        top = std::max(top, std::abs(before[i])), change = std::max(change, std::abs(after[i] - before[i]));
      std::printf("target %d, dt %g: largest top mode %.3e, its largest change in one step %.3e\n", int(target), dt,
                  top, change);
      if (target == FilterTarget::rates)
        EXPECT_LT(change, (dt == 0.05 ? 4e-3 : 1e-3) * top);
      else
        EXPECT_GT(change, 0.99 * top);
    }
  }
}


// The tensor filter (filter.angular tensor) on the GH variables: Schwarzschild in Kerr-Schild coordinates is
// spherically symmetric, so every triad component of psi_ab, Pi_ab and Phi_iab is constant on each sphere (degree
// 0) and the tensor filter leaves the state alone even at l_keep = 1, where the scalar truncation of each Cartesian
// component removes n_i n_j n_k's l = 3 part of Phi (and n_i n_j's l = 2 part of psi). For the tilted Kerr hole
// the tensor filter is a projection: applied twice it equals applied once. (Radial filter off, penalty boundaries:
// filter() is the angular filter alone.)
double largest_change(const State& a, const State& b) {
  double m = 0;
  for (std::size_t s = 0; s < a.size(); ++s) {
    const double *x = a[s].read(core::Where::host), *y = b[s].read(core::Where::host);
    for (std::size_t i = 0; i < a[s].size(); ++i) m = std::max(m, std::abs(x[i] - y[i]));
  }
  return m;
}

TEST(GhSystem, TheTensorFilterKeepsSchwarzschildAndIsAProjection) {
  spectral::FilterSpec filter;
  filter.alpha = 0;
  filter.l_keep = 1;
  GhGeometry g = geometry(1);
  for (auto angular : {spectral::AngularFilter::tensor, spectral::AngularFilter::scalar}) {
    g.angular_filter = angular;
    GhSystem system(KerrSchild{1.0, {0, 0, 0}}, g, filter, core::Backend::cpu);
    State u = system.exact_state();
    system.filter(u);
    const double change = largest_change(u, system.exact_state());
    std::printf("Schwarzschild, l_keep 1, %s filter: largest change %.2e\n", angular == spectral::AngularFilter::tensor ? "tensor" : "scalar", change);
    if (angular == spectral::AngularFilter::tensor)
      EXPECT_LT(change, 1e-13);
    else
      EXPECT_GT(change, 1e-2);
  }
  g.angular_filter = spectral::AngularFilter::tensor;
  filter.l_keep = 4;
  GhSystem system(tilted, g, filter, core::Backend::cpu);
  State once = system.exact_state();
  system.filter(once);
  State twice;
  for (const auto& a : once) twice.push_back(a.clone());
  system.filter(twice);
  const double first = largest_change(once, system.exact_state()), second = largest_change(twice, once);
  std::printf("tilted Kerr, l_keep 4: the filter changes the state by %.2e, a second time by %.2e\n", first, second);
  EXPECT_GT(first, 1e-6);
  EXPECT_LT(second, 1e-13);
}

}  // namespace
}  // namespace loom::gr
