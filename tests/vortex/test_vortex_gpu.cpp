// The vortex method on the CUDA FMM against the CPU's: a ring advanced a few AB2 steps with the velocity and the
// stretching from each backend (the GPU's kernels in single precision, error ~1e-7 relative per evaluation) ends
// at the same particles. Skips without a device.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

#include "backends.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/core/cuda_api.hpp"
#include "loom/core/timer.hpp"
#include "loom/vortex/device_stepper.hpp"
#include "loom/vortex/integrator.hpp"
#include "loom/vortex/ring.hpp"
#include "loom/vortex/run.hpp"
#include "loom/vortex/statistics.hpp"
#include "vortex/moved_lattice.hpp"
#include "vortex/series_energy.hpp"

namespace loom::test {
namespace {

vortex::Particles advanced_ring(core::Backend backend, fmm::Precision precision, int steps,
                                bool tree_on_backend = false) {
  fmm::Options o;
  o.backend = backend;
  o.precision = precision;
  o.tree_on_backend = tree_on_backend;
  vortex::RateEvaluator rates(o, vortex::StretchingForm::classical);
  vortex::Integrator integrator(vortex::TimeScheme::ab2, 1e-3, vortex::Domain{});
  vortex::Particles p = vortex::vortex_ring({1.0, 1.0, 0.1}, 0.025, 1.0);
  for (int s = 0; s < steps; ++s)
    integrator.step(p, 0.01, [&](const vortex::Particles& q, vortex::Rates& r) { rates.evaluate(q, r); });
  return p;
}

double relative_difference(const std::vector<vortex::Vec3d>& a, const std::vector<vortex::Vec3d>& b) {
  double d = 0, n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d += fmm::norm2(a[i] - b[i]), n += fmm::norm2(b[i]);
  return std::sqrt(d / n);
}

class VortexGpu : public ::testing::Test {
  void SetUp() override { test::skip_unless_available(core::Backend::cuda); }
};

TEST_F(VortexGpu, RingStepsAgreeWithTheCpu) {
  const int steps = 5;
  const vortex::Particles cpu = advanced_ring(core::Backend::cpu, fmm::Precision::double_, steps);
  for (const fmm::Precision precision : {fmm::Precision::double_, fmm::Precision::single}) {
    const vortex::Particles gpu = advanced_ring(core::Backend::cuda, precision, steps);
    ASSERT_EQ(gpu.size(), cpu.size());
    // Double: the same tree, lists and expansions, so rounding only. Single: the velocity's ~1e-6 relative error
    // over 5 steps of 0.01 moves positions (|x| ~ 1, |u| < 3) by < 2e-7; the strengths change at the stretching
    // rate |alpha| |grad u| (|grad u| < 30), so by < 2e-6 |alpha|.
    const bool exact = precision == fmm::Precision::double_;
    EXPECT_LT(relative_difference(gpu.x, cpu.x), exact ? 1e-10 : 1e-6) << fmm::to_string(precision);
    EXPECT_LT(relative_difference(gpu.alpha, cpu.alpha), exact ? 1e-9 : 1e-5) << fmm::to_string(precision);
    EXPECT_EQ(gpu.sigma, cpu.sigma);
  }
}

// The same with the tree and lists built on the GPU (fmm::Options::tree_on_backend): the ring's particles share
// coordinates, so the cells may differ from the host's where ties split differently; the results then differ by
// the FMM's error (~1e-6 relative at p = 10), the single-precision bounds above.
TEST_F(VortexGpu, RingStepsWithTheTreeBuiltOnTheGpuAgreeWithTheCpu) {
  const int steps = 5;
  const vortex::Particles cpu = advanced_ring(core::Backend::cpu, fmm::Precision::double_, steps);
  const vortex::Particles gpu = advanced_ring(core::Backend::cuda, fmm::Precision::double_, steps, true);
  ASSERT_EQ(gpu.size(), cpu.size());
  EXPECT_LT(relative_difference(gpu.x, cpu.x), 1e-6);
  EXPECT_LT(relative_difference(gpu.alpha, cpu.alpha), 1e-5);
}

// The device stepper (particles, rates and the FMM's tree resident on the GPU, the tree re-fitted between
// evaluations) against its CPU form: 5 AB2 steps of 32^3 random particles in the periodic box end at the same
// particles to the single-precision kernels' error (bodies without ties: the same cells on both sides), and no
// body-sized copy crossed the bus inside the steps.
vortex::Particles stepped_on(core::Backend b, const vortex::Particles& p0, fmm::BusTraffic* bus) {
  const double period = 2 * 3.14159265358979323846;
  fmm::Options o;
  o.backend = b;
  o.periodic = true;
  o.period = period;
  vortex::DeviceStepper s(o, 0.01, vortex::Domain{true, 0, period}, 1.3);
  s.upload(p0);
  for (int k = 0; k < 5; ++k) s.step(0.05);
  vortex::Particles p;
  s.download(p);
  if (bus != nullptr) *bus = s.fmm().bus();
  return p;
}

TEST_F(VortexGpu, DeviceStepperAgreesWithItsCpuForm) {
  const Index n = 32 * 32 * 32;
  const double period = 2 * 3.14159265358979323846, h = period / 32;
  vortex::Particles p0;
  p0.x = fmm::make_uniform_vectors(n, 0, period, 1);
  p0.alpha = fmm::make_uniform_vectors(n, -1, 1, 2);
  vortex::Vec3d mean{};
  for (const auto& a : p0.alpha) mean += a;
  for (auto& a : p0.alpha) a = (h * h * h) * (a - (1.0 / double(n)) * mean);
  p0.sigma.assign(static_cast<std::size_t>(n), 1.5 * h);
  fmm::BusTraffic bus;
  const vortex::Particles gpu = stepped_on(core::Backend::cuda, p0, &bus);
  const vortex::Particles cpu = stepped_on(core::Backend::cpu, p0, nullptr);
  EXPECT_LT(relative_difference(gpu.x, cpu.x), 1e-6);
  EXPECT_LT(relative_difference(gpu.alpha, cpu.alpha), 1e-5);
  EXPECT_EQ(gpu.sigma, cpu.sigma);
  // No body-sized copy: any per-body array of doubles is n * 8 bytes. What does cross is fixed in size: the far
  // images' terms of the top cells, 192720 bytes on the H200 both here (n = 32768) and in test_fmm_resident_gpu
  // (n = 300000).
  EXPECT_LT(bus.largest, static_cast<std::size_t>(n) * sizeof(double));
}

}  // namespace
}  // namespace loom::test

namespace loom::test {
namespace {

// The reinitialisation where the particles live (device_reinit.hpp): the GPU's new particles produce on the nodes
// the field the CPU form's do (both solved to 1e-8); then the time of one reinitialisation of 128^3 particles.
TEST_F(VortexGpu, DeviceReinitialisationAgreesWithItsCpuForm) {
  const Index n = 32;
  const vortex::Particles p = vortex::test::moved_taylor_green(n);
  const vortex::Lattice l = vortex::periodic_lattice(vortex::test::box, n);
  vortex::ReinitOptions o;
  o.tolerance = 1e-8;
  std::vector<vortex::Vec3d> field[2];
  int b = 0;
  for (const core::Backend backend : {core::Backend::cpu, core::Backend::cuda}) {
    vortex::DeviceStepper stepper(vortex::test::periodic_fmm(backend), 0.01, vortex::test::box, 1.1);
    stepper.upload(p);
    EXPECT_TRUE(stepper.reinitialise(l, o).converged);
    vortex::Particles q;
    stepper.download(q);
    vortex::gaussian_lattice_sum(l, q.sigma[0], vortex::default_gaussian_cutoff, q.alpha, field[b++]);
  }
  EXPECT_LT(relative_difference(field[1], field[0]), 3e-8);

  const Index big = 128;
  vortex::DeviceStepper stepper(vortex::test::periodic_fmm(core::Backend::cuda), 0.01, vortex::test::box, 1.1);
  stepper.upload(vortex::test::moved_taylor_green(big));
  core::WallTimer timer;
  const vortex::CgResult cg = stepper.reinitialise(vortex::periodic_lattice(vortex::test::box, big), {});
  cuda::synchronize();
  std::printf("device reinit %lld^3: %.3f s, %d CG iterations to %.1e\n", static_cast<long long>(big),
              timer.seconds(), cg.iterations, cg.residual);
  EXPECT_TRUE(cg.converged);
}

// The statistics' measurement on the GPU's hit solver equals the CPU's (the same velocity at the grid points).
TEST_F(VortexGpu, StatisticsOnTheGpuEqualTheCpus) {
  const Index n = 16;
  const vortex::Particles p = vortex::test::moved_taylor_green(n);
  vortex::RateEvaluator rates(vortex::test::periodic_fmm(core::Backend::cpu), vortex::StretchingForm::classical);
  const hit::Statistics cpu = vortex::TurbulenceStatistics(n, 0.01, vortex::test::box.period).measure(rates, p, 0);
  const hit::Statistics gpu =
      vortex::TurbulenceStatistics(n, 0.01, vortex::test::box.period, core::Backend::cuda).measure(rates, p, 0);
  EXPECT_GT(cpu.energy, 0.05);
  EXPECT_NEAR(gpu.energy, cpu.energy, 1e-12 * cpu.energy);
  EXPECT_NEAR(gpu.dissipation, cpu.dissipation, 1e-12 * cpu.dissipation);
  EXPECT_NEAR(gpu.skewness, cpu.skewness, 1e-9);
}

// physics.spreading = reinit where the particles live (DeviceStepper::spread_cores, then the device's
// reinitialisation; the rows by the resident FMM and the GPU's statistics): the linear Taylor-Green run of
// test_vortex_cli (V0 1e-3, pure diffusion, E(t) = E(0) exp(-6 nu t) at every row; 1.2e-6 on the CPU), the kernels
// in double precision. Seconds on the device.
TEST_F(VortexGpu, SpreadingAtReinitialisationsDiffusesOnTime) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("loom-vortex-gpu-spreading-" + std::to_string(::getpid()));
  io::Parameters p = vortex::vortex_parameters();
  const std::pair<const char*, std::string> flags[] = {
      {"initial.type", "taylor_green"}, {"initial.amplitude", "0.001"}, {"particles.n", "16"},
      {"physics.nu", "0.1"},           {"time.dt", "0.05"},            {"time.t_end", "0.7"},
      {"reinit.every", "4"},           {"output.every", "4"},          {"physics.spreading", "reinit"},
      {"backend", "cuda"},             {"fmm.order", "6"},             {"fmm.theta", "0.6"},
      {"fmm.precision", "double"},     {"quiet", "true"},              {"output.plots", "false"},
      {"output.fields", "false"},      {"output.overwrite", "true"},   {"output.dir", dir.string()}};
  for (const auto& [key, text] : flags) p.set_text(key, text, io::ParamSource::flag);
  ASSERT_EQ(vortex::run_vortex(p), 0);
  const auto energies = vortex::test::series_energies(dir / "series.csv");
  ASSERT_EQ(energies.size(), 5u);  // t = 0, 0.2, 0.4, 0.6 and the end, 0.7
  for (const auto& [t, e] : energies) EXPECT_NEAR(e / energies.at(0) / std::exp(-0.6 * t), 1, 1e-5) << "t = " << t;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace loom::test
