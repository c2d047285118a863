// The late burst of issue 19 as a linear stability question of the semi-discrete scheme (docs/gr.md, "The late
// burst: a mode of the excision surface"): the exact Kerr-Schild state and the same state plus a random
// perturbation of 1e-8 evolved side by side; their difference follows the linearised scheme about the stationary
// hole, so its norm grows as e^(lambda t) once the perturbation's decaying parts have gone, lambda the largest
// growth rate of the scheme's modes. On the H200 the paper's case had such a mode seeded by roundoff, growing at
// ~0.2 per m to a burst at t ~ 150 (10 x 19 x 38 and 12 x 23 x 46 alike); on 8 x 11 x 22 the same probe finds it
// at the excision surface (largest difference at the first two radial points), growing at ~0.07 per m from t ~ 20
// without a radial filter. The radial filter of the top Chebyshev modes removes it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "loom/gr/config.hpp"
#include "loom/gr/dormand_prince.hpp"
#include "loom/gr/gh_system.hpp"
#include "loom/gr/indices.hpp"

namespace loom::gr {
namespace {

// The RMS over all points and components of a - b; per shell and radial index the largest |a - b| (printed: where
// the growing mode lives).
double difference(const GhSystem& system, const State& a, const State& b) {
  double sum = 0;
  Index count = 0;
  for (int s = 0; s < system.shells(); ++s) {
    const Index n = system.points(s);
    const int n_r = system.shell(s).extents()[0];
    const double* x = a[s].read(core::Where::host);
    const double* y = b[s].read(core::Where::host);
    std::vector<double> largest(n_r, 0.0);
    for (int c = 0; c < state_size; ++c)
      for (Index p = 0; p < n; ++p) {
        const double d = x[c * n + p] - y[c * n + p];
        sum += d * d;
        largest[p % n_r] = std::max(largest[p % n_r], std::abs(d));
      }
    count += state_size * n;
    std::printf("   shell %d, largest per radial index:", s);
    for (double v : largest) std::printf(" %.1e", v);
    std::printf("\n");
  }
  return std::sqrt(sum / double(count));
}

// The growth rate per m of the difference between t_end / 2 and t_end, on 8 x 11 x 22 shells with `c`'s
// filter and boundaries.
double perturbation_growth(const BhConfig& c, double t_end) {
  GhGeometry g = c.geometry;
  g.extents = {8, 11, 22};
  const spectral::FilterSpec& filter = c.filter;
  GhSystem system(c.hole, g, filter, core::Backend::cpu);
  State u = system.exact_state(), v = system.exact_state();
  std::mt19937_64 rng(19);
  std::uniform_real_distribution<double> noise(-1, 1);
  for (auto& shell : v) {
    double* p = shell.read_write(core::Where::host);
    for (std::size_t i = 0; i < shell.size(); ++i) p[i] += 1e-8 * noise(rng);
  }
  system.filter(u);  // both filtered, so that the difference starts as the filtered perturbation alone
  system.filter(v);
  DormandPrince stepper(system);
  const double dt = c.time.cfl * system.smallest_spacing(), every = 5;
  const int steps = int(t_end / dt + 0.5);
  std::vector<std::pair<double, double>> samples;
  double next = 0;
  for (int step = 0; step <= steps; ++step) {
    if (step > 0) stepper.step(u, dt), stepper.step(v, dt);
    const double t = step * dt;
    if (t + 0.5 * dt < next && step < steps) continue;
    next += every;
    samples.emplace_back(t, difference(system, u, v));
    std::printf("t = %6.2f: |difference| %.3e\n", t, samples.back().second);
    std::fflush(stdout);
  }
  const auto& a = samples[samples.size() / 2];
  const auto& b = samples.back();
  const double rate = std::log(b.second / a.second) / (b.first - a.first);
  std::printf("alpha %g, order %d: growth rate over t = %.1f..%.1f: %.4f per m\n", filter.alpha, filter.half_order,
              a.first, b.first, rate);
  return rate;
}

// The defaults: no growing mode (the difference at most flat: the scheme's neutral modes, a nearby stationary
// hole, keep their part of the perturbation).
TEST(GhLinearStability, PerturbedHoleHasNoGrowingMode) {
  EXPECT_LT(perturbation_growth(make_bh_config(bh_parameters()), 30), 0.02);
}

// The contrast, session 9's defaults (no radial filter, upwind interface, frozen outer boundary): the excision
// surface's mode grows (0.055 per m over t = 15..30).
TEST(GhLinearStability, SessionNineDefaultsHaveTheExcisionMode) {
  io::Parameters p = bh_parameters();
  p.set_text("filter.alpha", "0", io::ParamSource::flag);
  p.set_text("boundary.interface", "upwind", io::ParamSource::flag);
  p.set_text("boundary.outer", "frozen", io::ParamSource::flag);
  EXPECT_GT(perturbation_growth(make_bh_config(p), 30), 0.04);
}

}  // namespace
}  // namespace loom::gr
