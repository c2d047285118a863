// The vortex method's time stepping (src/loom/vortex/integrator.*) on rates with a known solution: positions
// rotating about z at a rate set by the strength, x' = alpha_z e_z x x, and strengths decaying, alpha' = -alpha.
// Each scheme's error at t = 1 falls by its order when dt halves (a lower order fails the bound); core spreading
// gives sigma^2 = sigma0^2 + 2 nu t exactly.
#include <gtest/gtest.h>

#include <cmath>

#include "loom/vortex/integrator.hpp"

namespace loom::test {
namespace {

using vortex::Particles;
using vortex::Rates;
using vortex::TimeScheme;
using vortex::Vec3d;

void rates(const Particles& p, Rates& r) {
  r.velocity.resize(p.x.size());
  r.stretching.resize(p.x.size());
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    const double w = p.alpha[i].z;  // the rotation rate
    r.velocity[i] = {-w * p.x[i].y, w * p.x[i].x, 0};
    r.stretching[i] = {-p.alpha[i].x, -p.alpha[i].y, -p.alpha[i].z};
  }
}

// alpha_z(t) = e^{-t}; the angle is int_0^t e^{-s} ds = 1 - e^{-t}.
double error_at_one(TimeScheme scheme, int steps) {
  Particles p;
  p.x = {{1, 0, 0.5}};
  p.alpha = {{0, 0, 1}};
  p.sigma = {0.1};
  vortex::Integrator integrator(scheme, 0.0, vortex::Domain{});
  for (int s = 0; s < steps; ++s) integrator.step(p, 1.0 / steps, rates);
  const double angle = 1 - std::exp(-1.0);
  const Vec3d exact{std::cos(angle), std::sin(angle), 0.5};
  return std::sqrt(fmm::norm2(p.x[0] - exact)) + std::fabs(p.alpha[0].z - std::exp(-1.0));
}

struct Case {
  TimeScheme scheme;
  int order;
};

TEST(VortexIntegrator, SchemesConvergeAtTheirOrder) {
  for (const Case c : {Case{TimeScheme::ab2, 2}, Case{TimeScheme::rk3, 3}, Case{TimeScheme::rk4, 4}}) {
    const double coarse = error_at_one(c.scheme, 20), fine = error_at_one(c.scheme, 40);
    const double observed = std::log2(coarse / fine);
    EXPECT_NEAR(observed, c.order, 0.25) << vortex::to_string(c.scheme) << ": " << coarse << " -> " << fine;
  }
}

TEST(VortexIntegrator, CoreSpreadingGrowsSigmaSquaredBy2NuT) {
  for (const TimeScheme scheme : {TimeScheme::ab2, TimeScheme::rk3, TimeScheme::rk4}) {
    Particles p;
    p.x = {{1, 0, 0}};
    p.alpha = {{0, 0, 1}};
    p.sigma = {0.1};
    vortex::Integrator integrator(scheme, 0.01, vortex::Domain{});
    for (int s = 0; s < 7; ++s) integrator.step(p, 0.1, rates);
    EXPECT_NEAR(p.sigma[0] * p.sigma[0], 0.01 + 2 * 0.01 * 0.7, 1e-14) << vortex::to_string(scheme);
  }
}

TEST(VortexIntegrator, PeriodicPositionsStayInTheBox) {
  Particles p;
  p.x = {{6.2, 0.05, 3}};
  p.alpha = {{0, 0, 0}};
  p.sigma = {0.1};
  auto drift = [](const Particles& q, Rates& r) {
    r.velocity.assign(q.x.size(), Vec3d{1, -1, 0});
    r.stretching.assign(q.x.size(), Vec3d{});
  };
  vortex::Integrator integrator(TimeScheme::rk4, 0, vortex::Domain{true, 0, 2 * M_PI});
  integrator.step(p, 0.1, drift);
  EXPECT_NEAR(p.x[0].x, 6.3 - 2 * M_PI, 1e-12);
  EXPECT_NEAR(p.x[0].y, 0.05 - 0.1 + 2 * M_PI, 1e-12);
}

}  // namespace
}  // namespace loom::test
