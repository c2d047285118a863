// `loom hit` in slabs over MPI ranks (issue 20, item 4): the solver on every rank of the job, connected by FFTW's
// MPI transforms (HitSlabs) or by the transposes of MPI_Alltoall between FFTW's 2D and 1D transforms, the GPU's
// algorithm run on the CPU (HitAlltoall), against the one-rank solver run on each rank alone: Taylor-Green and
// the random field (2/3 and phase-shift dealiasing, RK4 and RK2, Courant steps whose length needs the speed of all
// ranks, the low-shell forcing) equal to rounding in the energy, enstrophy, skewness, flatness, spectrum and the
// fields themselves; the alltoall transform itself against FFTW's 3D transform of the whole grid and FFTW's MPI
// transform. HitAlltoallGpu: the same algorithm on the GPU, ranks sharing one device, against one rank (skips
// without a device). Run under mpiexec with 2, 3 (uneven slabs of 32) and 4 ranks (label mpi).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "hit/hit_fields.hpp"
#include "io/temp_dir.hpp"
#include "loom/comm/rank_device.hpp"
#include "loom/hit/forcing.hpp"
#include "loom/hit/observables.hpp"
#include "loom/hit/slab_fields.hpp"
#include "loom/hit/snapshot.hpp"
#include "loom/hit/transforms_slabs.hpp"
#include "loom/io/hdf5_file.hpp"

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

hit::SolverOptions with_slabs(hit::SolverOptions o, hit::SlabTransform slabs) {
  o.slabs = slabs;
  return o;
}

// A snapshot written plane by plane from the slabs (snapshot.cpp) holds, bit for bit, the fields gathered whole
// on rank 0 and interleaved here: velocity and vorticity (x fastest, components last) and |omega|.
void expect_snapshot_as_gathered(hit::SlabTransform slabs) {
  const auto world = comm::Communicator::world();
  hit::Solver s(core::Backend::cpu, {16}, with_slabs({0.01}, slabs), world);
  s.set_modes(hit::random_solenoidal(s, hit::SpectrumShape::exponential, 3, 0.5, 7));
  TempDir dir;
  const auto path = dir.path() / "fields.h5";
  hit::write_field_snapshot(path, s);
  const std::vector<double> r = hit::gather_points(s, hit::velocity_and_vorticity(s), 6);
  if (!world.is_root()) return;
  const io::Hdf5Reader h5(path);
  const auto velocity = h5.read_double("fields/velocity"), vorticity = h5.read_double("fields/vorticity"),
             magnitude = h5.read_double("fields/vorticity_magnitude");
  const std::size_t N = 16 * 16 * 16;
  ASSERT_EQ(velocity.size(), 3 * N);
  ASSERT_EQ(magnitude.size(), N);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t c = 0; c < 3; ++c)
      differ += (velocity[3 * i + c] != r[c * N + i]) + (vorticity[3 * i + c] != r[(3 + c) * N + i]);
    const double w2 = r[3 * N + i] * r[3 * N + i] + r[4 * N + i] * r[4 * N + i] + r[5 * N + i] * r[5 * N + i];
    differ += magnitude[i] != std::sqrt(w2);
  }
  EXPECT_EQ(differ, 0u);
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "fields.xdmf"));
}

// The slabs tile z (points) and, transposed, jy (modes): each begins where the previous ends, the last ends at n.
void expect_slabs_tile_the_grid(hit::SlabTransform slabs) {
  const auto world = comm::Communicator::world();
  hit::Solver s(core::Backend::cpu, {32}, with_slabs({0.01}, slabs), world);
  const hit::SlabLayout& l = s.layout();
  EXPECT_GE(l.nz, 1);
  EXPECT_EQ(world.max(double(l.z0 + l.nz)), 32);
  EXPECT_EQ(world.sum(std::int64_t(l.nz)), 32);
  EXPECT_EQ(world.sum(std::int64_t(l.z0 == 0 ? 1 : 0)), 1);
  if (world.size() == 1) return;
  if (slabs == hit::SlabTransform::fftw_mpi) {
    EXPECT_EQ(l.pitch, 2 * 17);  // FFTW's padded rows
    return;
  }
  EXPECT_EQ(l.pitch, 32);
  EXPECT_EQ(world.max(double(l.y0 + l.ny)), 32);
  EXPECT_EQ(world.sum(std::int64_t(l.ny)), 32);
  EXPECT_EQ(world.sum(std::int64_t(l.modes())), 17 * 32 * 32);
}

void expect_taylor_green_as_one_rank(core::Backend backend, hit::SlabTransform slabs) {
  const hit::SpectralGrid g{32};
  const hit::SolverOptions o = with_slabs({1.0 / 1600, Scheme::rk4, Dealiasing::two_thirds}, slabs);
  hit::Solver alone(backend, g, o), many(backend, g, o, comm::Communicator::world());
  alone.set_velocity(hit::taylor_green(g, 1));
  many.set_velocity(hit::taylor_green(g, 1));
  expect_same_runs(alone, many, 5, {0.01});
}

void expect_random_field_as_one_rank(core::Backend backend, hit::SlabTransform slabs) {
  const hit::SpectralGrid g{32};
  for (Dealiasing d : {Dealiasing::two_thirds, Dealiasing::phase_shift}) {
    const hit::SolverOptions o =
        with_slabs({0.01, d == Dealiasing::two_thirds ? Scheme::rk4 : Scheme::rk2, d}, slabs);
    const auto modes = hit::random_solenoidal(g, d, hit::SpectrumShape::exponential, 3, 0.5, 11);
    hit::Solver alone(backend, g, o), many(backend, g, o, comm::Communicator::world());
    alone.set_modes(modes.clone());
    many.set_modes(hit::restrict_modes(many.layout(), modes));
    // Courant steps (the speed of every rank decides the step) with the forcing of shells |k| <= 2.
    expect_same_runs(alone, many, 4, {0, 0.5}, 2.0);
  }
}

// The largest difference of the solver's modes, gathered, from `whole` (3 components of the grid's modes), relative
// to the largest mode; on rank 0 (0 elsewhere).
double gathered_difference(const hit::Solver& s, const core::Array<hit::Complex>& whole) {
  const std::vector<hit::Complex> modes = hit::gather_modes(s);
  if (!s.communicator()->is_root()) return 0;
  const auto expected = whole.host();
  if (modes.size() != expected.size()) return 1;
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < modes.size(); ++i)
    diff = std::max(diff, core::abs(modes[i] - expected[i])), scale = std::max(scale, core::abs(expected[i]));
  return diff / scale;
}

// The initial fields each rank builds on its own slab (the random field from its planes of the noise stream)
// against the whole-grid fields of one rank: equal to rounding, 2/3 and phase-shift truncations.
void expect_slab_initial_fields_as_whole(hit::SlabTransform slabs) {
  const hit::SpectralGrid g{32};
  const auto world = comm::Communicator::world();
  for (Dealiasing d : {Dealiasing::two_thirds, Dealiasing::phase_shift}) {
    const hit::SolverOptions o = with_slabs({0.01, Scheme::rk4, d}, slabs);
    hit::Solver many(core::Backend::cpu, g, o, world);
    many.set_modes(hit::random_solenoidal(many, hit::SpectrumShape::von_karman, 3, 0.5, 9));
    EXPECT_LT(gathered_difference(many, hit::random_solenoidal(g, d, hit::SpectrumShape::von_karman, 3, 0.5, 9)),
              1e-13);
    hit::Solver alone(core::Backend::cpu, g, o);
    alone.set_velocity(hit::taylor_green(g, 2));
    many.set_local_velocity(hit::taylor_green_slab(many.layout(), 2));
    EXPECT_LT(gathered_difference(many, alone.modes()), 1e-13);
  }
}

TEST(HitSlabs, InitialFieldsBuiltPerSlabEqualTheWholeOnes) {
  expect_slab_initial_fields_as_whole(hit::SlabTransform::fftw_mpi);
}
TEST(HitAlltoall, InitialFieldsBuiltPerSlabEqualTheWholeOnes) {
  expect_slab_initial_fields_as_whole(hit::SlabTransform::alltoall);
}

TEST(HitSlabs, SnapshotsWrittenByPlanesHoldTheGatheredFields) {
  expect_snapshot_as_gathered(hit::SlabTransform::fftw_mpi);
}
TEST(HitAlltoall, SnapshotsWrittenByPlanesHoldTheGatheredFields) {
  expect_snapshot_as_gathered(hit::SlabTransform::alltoall);
}
TEST(HitSlabs, SlabsCoverTheGridInRankOrder) { expect_slabs_tile_the_grid(hit::SlabTransform::fftw_mpi); }
TEST(HitSlabs, TaylorGreenEqualsOneRank) {
  expect_taylor_green_as_one_rank(core::Backend::cpu, hit::SlabTransform::fftw_mpi);
}
TEST(HitSlabs, RandomFieldEqualsOneRank) {
  expect_random_field_as_one_rank(core::Backend::cpu, hit::SlabTransform::fftw_mpi);
}

TEST(HitAlltoall, SlabsCoverTheGridInRankOrder) { expect_slabs_tile_the_grid(hit::SlabTransform::alltoall); }
TEST(HitAlltoall, TaylorGreenEqualsOneRank) {
  expect_taylor_green_as_one_rank(core::Backend::cpu, hit::SlabTransform::alltoall);
}
TEST(HitAlltoall, RandomFieldEqualsOneRank) {
  expect_random_field_as_one_rank(core::Backend::cpu, hit::SlabTransform::alltoall);
}

// The largest difference between a rank's modes and the whole grid's at the same global wavevector, over ranks.
double largest_mode_difference(const hit::SlabLayout& L, const core::Array<hit::Complex>& local,
                               const core::Array<hit::Complex>& whole, int count) {
  const auto a = local.host(), b = whole.host();
  double diff = 0;
  for (Index c = 0; c < count; ++c)
    for (Index m = 0; m < L.modes(); ++m)
      diff = std::max(diff, core::abs(a[std::size_t(c * L.mode_stride + m)] -
                                      b[std::size_t(c * L.grid.modes() + L.global_mode(m))]));
  return comm::Communicator::world().max(diff);
}

// Forward transforms of the same real field (2 components of random values, the same on every rank) by the
// alltoall slabs, FFTW's MPI slabs and FFTW's 3D transform of the whole grid; the alltoall inverse brings back
// n^3 times the field. n = 10 and 16: slabs of 5 | 4, 4, 2 | 3, 3, 3, 1 and 8 | 6, 6, 4 | 4 planes.
TEST(HitAlltoall, TransformEqualsFftwOfTheWholeGridAndFftwMpi) {
  const auto world = comm::Communicator::world();
  for (Index n : {10, 16}) {
    const hit::SpectralGrid g{n};
    const Index N = g.points(), G = g.modes();
    core::Array<double> field(2 * std::size_t(N));
    std::mt19937_64 random(5);
    std::uniform_real_distribution<double> uniform(-1, 1);
    double* values = field.write(core::Where::host);
    for (std::size_t i = 0; i < field.size(); ++i) values[i] = uniform(random);
    core::Array<hit::Complex> whole(2 * std::size_t(G));
    {
      core::Array<double> scratch = field.clone();
      hit::make_fftw_transforms(g, hit::FftPlanning::estimate)
          ->forward(scratch.read_write(core::Where::host), whole.write(core::Where::host), 2);
    }
    double scale = 0;
    for (const auto& v : whole.host()) scale = std::max(scale, core::abs(v));
    for (auto slabs : {hit::SlabTransform::alltoall, hit::SlabTransform::fftw_mpi}) {
      if (slabs == hit::SlabTransform::fftw_mpi && !LOOM_TEST_FFTW_MPI) continue;  // built without fftw3-mpi
      auto t = slabs == hit::SlabTransform::alltoall
                   ? hit::make_slab_transforms(core::Backend::cpu, g, hit::FftPlanning::estimate, world)
                   : hit::make_fftw_mpi_transforms(g, hit::FftPlanning::estimate, world);
      const hit::SlabLayout& L = t->layout();
      core::Array<double> points(2 * std::size_t(L.point_stride), 0.0);
      double* p = points.host_mut().data();
      const double* f = field.host().data();
      for (Index c = 0; c < 2; ++c)
        for (Index i = 0; i < L.points(); ++i)
          if (L.is_point(i)) p[c * L.point_stride + i] = f[c * N + L.global_point(i)];
      core::Array<hit::Complex> modes(2 * std::size_t(L.mode_stride), hit::Complex{});
      t->forward(p, modes.host_mut().data(), 2);
      EXPECT_LT(largest_mode_difference(L, modes, whole, 2), 1e-13 * scale) << "n = " << n;
      if (slabs != hit::SlabTransform::alltoall) continue;
      t->inverse(modes.host_mut().data(), p, 2);
      double diff = 0;
      for (Index c = 0; c < 2; ++c)
        for (Index i = 0; i < L.points(); ++i)
          diff = std::max(diff, std::fabs(p[c * L.point_stride + i] / double(N) - f[c * N + L.global_point(i)]));
      EXPECT_LT(world.max(diff), 1e-14) << "n = " << n;
    }
  }
}

// GTEST_SKIP in the test body itself: from a helper it would only leave the helper.
#define LOOM_SKIP_WITHOUT_CUDA() \
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device"

// The GPU's slabs, the ranks sharing the device (or one each): the runs above against the one-rank GPU solver,
// and steps that copy nothing between host and device but the exchange's staging (outside the solver's arrays).
TEST(HitAlltoallGpu, RanksSharingOneDeviceEqualOneRank) {
  LOOM_SKIP_WITHOUT_CUDA();
  comm::select_rank_device(comm::Communicator::world());
  expect_taylor_green_as_one_rank(core::Backend::cuda, hit::SlabTransform::alltoall);
  expect_random_field_as_one_rank(core::Backend::cuda, hit::SlabTransform::alltoall);
  hit::Solver s(core::Backend::cuda, {32}, {0.005}, comm::Communicator::world());
  s.set_modes(hit::restrict_modes(s.layout(), hit::random_solenoidal({32}, Dealiasing::two_thirds,
                                                                     hit::SpectrumShape::exponential, 3, 0.5, 7)));
  s.step({0.01});  // the first step puts the field on the device
  const auto before = s.modes().transfers();
  const auto physical = s.physical_work().transfers(), spectral = s.spectral_work().transfers();
  for (int i = 0; i < 3; ++i) s.step({0.01});
  EXPECT_EQ(s.modes().transfers().host_to_device, before.host_to_device);
  EXPECT_EQ(s.modes().transfers().device_to_host, before.device_to_host);
  EXPECT_EQ(s.physical_work().transfers().device_to_host, physical.device_to_host);
  EXPECT_EQ(s.spectral_work().transfers().device_to_host, spectral.device_to_host);
  EXPECT_FALSE(s.modes().valid_on(core::Where::host));
}

}  // namespace
}  // namespace loom::test
