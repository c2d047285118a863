// `loom hit` in slabs over MPI ranks (issue 20, item 4): the solver on every rank of the job, connected by FFTW's
// MPI transforms, against the one-rank solver run on each rank alone: Taylor-Green and the random field (2/3 and
// phase-shift dealiasing, RK4 and RK2, Courant steps whose length needs the speed of all ranks, the low-shell
// forcing) equal to rounding in the energy, enstrophy, skewness, flatness, spectrum and the fields themselves.
// Run under mpiexec with 2, 3 (uneven slabs of 32) and 4 ranks (label mpi).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "hit/hit_fields.hpp"
#include "loom/hit/forcing.hpp"
#include "loom/hit/observables.hpp"
#include "loom/hit/slab_fields.hpp"

namespace loom::test {
namespace {

using hit::Dealiasing;
using hit::Scheme;
constexpr double tolerance = 1e-12;

double relative(double a, double b) { return std::fabs(a - b) / std::max(std::fabs(b), 1e-300); }

// The same run on one rank (`alone`) and on all (`slabs`), compared after every step.
void expect_same_runs(hit::Solver& alone, hit::Solver& slabs, int steps, const hit::StepRule& rule, double k_f = 0) {
  std::optional<hit::ShellEnergyForcing> force_alone, force_slabs;
  if (k_f > 0) force_alone.emplace(alone, k_f), force_slabs.emplace(slabs, k_f);
  for (int i = 0; i < steps; ++i) {
    const double h1 = alone.step(rule), hn = slabs.step(rule);
    EXPECT_LT(relative(hn, h1), tolerance) << "step " << i;
    if (k_f > 0) force_alone->apply(alone), force_slabs->apply(slabs);
  }
  const hit::Statistics a = hit::measure(alone), s = hit::measure(slabs);
  EXPECT_LT(relative(s.energy, a.energy), tolerance);
  EXPECT_LT(relative(s.enstrophy, a.enstrophy), tolerance);
  EXPECT_LT(relative(s.skewness, a.skewness), tolerance) << a.skewness;
  EXPECT_LT(relative(s.flatness, a.flatness), tolerance);
  EXPECT_LT(relative(s.integral_scale, a.integral_scale), tolerance);
  for (std::size_t k = 0; k < a.spectrum.size(); ++k)
    EXPECT_LE(std::fabs(s.spectrum[k] - a.spectrum[k]), tolerance * a.energy) << "shell " << k;
  EXPECT_LT(s.divergence_max, 1e-12 * std::sqrt(2 * a.enstrophy));
  // The fields: modes, and the velocity on the grid, assembled on rank 0.
  const std::vector<hit::Complex> modes = hit::gather_modes(slabs);
  const std::vector<double> velocity = hit::gather_points(slabs, slabs.velocity().read(core::Where::host), 3);
  if (!slabs.communicator()->is_root()) return;
  ASSERT_EQ(modes.size(), alone.modes().size());
  const auto expected = alone.modes().host();
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < modes.size(); ++i)
    diff = std::max(diff, core::abs(modes[i] - expected[i])), scale = std::max(scale, core::abs(expected[i]));
  EXPECT_LT(diff, tolerance * scale);
  const auto all = alone.velocity().host();  // u, v, w and work space
  const std::vector<double> u(all.begin(), all.begin() + std::ptrdiff_t(velocity.size()));
  ASSERT_EQ(velocity.size(), 3 * std::size_t(alone.grid().points()));
  diff = scale = 0;
  for (std::size_t i = 0; i < u.size(); ++i)
    diff = std::max(diff, std::fabs(velocity[i] - u[i])), scale = std::max(scale, std::fabs(u[i]));
  EXPECT_LT(diff, tolerance * scale);
}

TEST(HitSlabs, SlabsCoverTheGridInRankOrder) {
  const auto world = comm::Communicator::world();
  hit::Solver s(core::Backend::cpu, {32}, {0.01}, world);
  const hit::SlabLayout& l = s.layout();
  EXPECT_GE(l.nz, 1);
  // The slabs tile z: each begins where the previous ends, the last ends at n.
  const double end = world.max(double(l.z0 + l.nz));
  EXPECT_EQ(end, 32);
  EXPECT_EQ(world.sum(std::int64_t(l.nz)), 32);
  EXPECT_EQ(world.sum(std::int64_t(l.z0 == 0 ? 1 : 0)), 1);
  if (world.size() > 1) {
    EXPECT_EQ(l.pitch, 2 * 17);  // FFTW's padded rows
  }
}

TEST(HitSlabs, TaylorGreenEqualsOneRank) {
  const hit::SpectralGrid g{32};
  const hit::SolverOptions o{1.0 / 1600, Scheme::rk4, Dealiasing::two_thirds};
  hit::Solver alone(core::Backend::cpu, g, o), slabs(core::Backend::cpu, g, o, comm::Communicator::world());
  alone.set_velocity(hit::taylor_green(g, 1));
  slabs.set_velocity(hit::taylor_green(g, 1));
  expect_same_runs(alone, slabs, 5, {0.01});
}

TEST(HitSlabs, RandomFieldEqualsOneRank) {
  const hit::SpectralGrid g{32};
  for (Dealiasing d : {Dealiasing::two_thirds, Dealiasing::phase_shift}) {
    const hit::SolverOptions o{0.01, d == Dealiasing::two_thirds ? Scheme::rk4 : Scheme::rk2, d};
    const auto modes = hit::random_solenoidal(g, d, hit::SpectrumShape::exponential, 3, 0.5, 11);
    hit::Solver alone(core::Backend::cpu, g, o), slabs(core::Backend::cpu, g, o, comm::Communicator::world());
    alone.set_modes(modes.clone());
    slabs.set_modes(hit::restrict_modes(slabs.layout(), modes));
    // Courant steps (the speed of every rank decides the step) with the forcing of shells |k| <= 2.
    expect_same_runs(alone, slabs, 4, {0, 0.5}, 2.0);
  }
}

}  // namespace
}  // namespace loom::test
