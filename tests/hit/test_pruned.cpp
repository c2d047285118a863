// fft.pruned (kept_lines.hpp, transforms_pruned_*): the box of kept lines against every mode of the masks tested
// one by one; the pruned transforms against the plain 3D transforms of the same backend on dealiased fields (the
// inverse) and on any field at the kept modes (the forward), for n = 8 .. 48 with n/3 whole and not; a whole step
// through them against the plain step; on a GPU (skips without one) the cuFFT form against the plain GPU step and
// the CPU's. The transform model of traffic.hpp against the lines counted by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "hit/hit_fields.hpp"
#include "loom/hit/forcing.hpp"
#include "loom/hit/kept_lines.hpp"
#include "loom/hit/traffic.hpp"
#include "loom/hit/transforms.hpp"

namespace loom::test {
namespace {

using hit::Dealiasing;

const Index sizes[] = {8, 10, 12, 14, 18, 20, 24, 30, 48};
const Dealiasing masks[] = {Dealiasing::two_thirds, Dealiasing::phase_shift};
const hit::PrunedForm forms[] = {hit::PrunedForm::planes, hit::PrunedForm::columns};

bool in_low_or_high_block(const hit::KeptLines& k, Index j) { return j < k.low_rows() || j >= k.high_start(); }

TEST(HitPruned, BoxHoldsEveryKeptModeAndIsTight) {
  for (Index n : sizes)
    for (auto d : masks) {
      const hit::SpectralGrid g{n};
      const hit::KeptLines k = hit::kept_lines(g, d);
      bool edge_x = false, edge_y = false;
      for (Index m = 0; m < g.modes(); ++m) {
        const hit::Wavevector w = g.wavevector(m);
        if (!hit::retained(d, n, w)) continue;
        const Index kx = m % g.half(), jy = (m / g.half()) % n, jz = m / (g.half() * n);
        ASSERT_LT(kx, k.kx_count) << n;
        ASSERT_TRUE(in_low_or_high_block(k, jy) && in_low_or_high_block(k, jz)) << n << " " << m;
        edge_x = edge_x || kx == k.kx_count - 1;
        edge_y = edge_y || jy == k.high_start() || (k.high_rows() == 0 && jy == k.low_rows() - 1);
      }
      EXPECT_TRUE(edge_x && edge_y) << "the box is larger than the kept modes need, n = " << n;
    }
  // The 2/3 rule by hand: |k| < n/3, so kx_count = ceil(n/3): 4 at n = 12 (k = 3 the last), 5 at n = 14.
  EXPECT_EQ(hit::kept_lines({12}, Dealiasing::two_thirds).kx_count, 4);
  EXPECT_EQ(hit::kept_lines({14}, Dealiasing::two_thirds).kx_count, 5);
  EXPECT_EQ(hit::kept_lines({48}, Dealiasing::two_thirds).high_start(), 48 - 15);
}

// `count` components of a random real field on g (values in [-1, 1]).
core::Array<double> random_points(hit::SpectralGrid g, int count, unsigned seed) {
  core::Array<double> a(std::size_t(count * g.points()));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  double* v = a.write(core::Where::host);
  for (std::size_t i = 0; i < a.size(); ++i) v[i] = u(rng);
  return a;
}

double largest(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

// The modes of a random real field with the dropped modes zeroed: a dealiased field's spectrum.
core::Array<hit::Complex> dealiased_modes(hit::Transforms& plain, Dealiasing d, int count) {
  const hit::SpectralGrid g = plain.layout().grid;
  core::Array<double> points = random_points(g, count, 11);
  core::Array<hit::Complex> modes(std::size_t(count * g.modes()));
  plain.forward(points.host_mut().data(), modes.write(core::Where::host), count);
  auto s = modes.host_mut();
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!hit::retained(d, g.n, g.wavevector(Index(i) % g.modes()))) s[i] = {};
  return modes;
}

void expect_pruned_inverse_as_plain(core::Backend b, Index n, Dealiasing d, int count, hit::PrunedForm form) {
  const hit::SpectralGrid g{n};
  auto plain = hit::make_transforms(b, g, hit::FftPlanning::estimate);
  auto pruned = hit::make_pruned_transforms(b, g, d, hit::FftPlanning::estimate, form);
  const core::Array<hit::Complex> modes = dealiased_modes(*hit::make_transforms(core::Backend::cpu, g, {}), d, count);
  core::Array<hit::Complex> a = modes.clone(), c = modes.clone();
  core::Array<double> x(std::size_t(count * g.points())), y(std::size_t(count * g.points()));
  const auto where = core::where(b);
  plain->inverse(a.read_write(where), x.write(where), count);
  pruned->inverse(c.read_write(where), y.write(where), count);
  const auto xs = x.host(), ys = y.host();
  double diff = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) diff = std::max(diff, std::fabs(xs[i] - ys[i]));
  const double size = largest({xs.begin(), xs.end()});
  EXPECT_LE(diff, 1e-13 * size) << "n " << n << " mask " << int(d) << " count " << count << " form " << int(form);
  EXPECT_GT(size, 1.0) << "a field with some content";
}

void expect_pruned_forward_as_plain(core::Backend b, Index n, Dealiasing d, int count, hit::PrunedForm form) {
  const hit::SpectralGrid g{n};
  auto plain = hit::make_transforms(b, g, hit::FftPlanning::estimate);
  auto pruned = hit::make_pruned_transforms(b, g, d, hit::FftPlanning::estimate, form);
  core::Array<double> p = random_points(g, count, 5), q = p.clone();
  core::Array<hit::Complex> a(std::size_t(count * g.modes())), c(std::size_t(count * g.modes()));
  const auto where = core::where(b);
  plain->forward(p.read_write(where), a.write(where), count);
  pruned->forward(q.read_write(where), c.write(where), count);
  const auto as = a.host(), cs = c.host();
  double diff = 0, largest = 0;
  for (std::size_t i = 0; i < as.size(); ++i) {
    if (!hit::retained(d, n, g.wavevector(Index(i) % g.modes()))) continue;
    diff = std::max(diff, core::abs(as[i] - cs[i]));
    largest = std::max(largest, core::abs(as[i]));
  }
  EXPECT_LE(diff, 1e-13 * largest) << "n " << n << " mask " << int(d) << " count " << count << " form " << int(form);
}

// inverse_from_kept() against the plain inverse, from a work array full of NaN (whatever the later passes read and
// the z pass does not write must be zeroed), twice from the same kept input, which must stay as it was to the bit.
void expect_inverse_from_kept_as_plain(core::Backend b, Index n, Dealiasing d, int count, hit::PrunedForm form) {
  const hit::SpectralGrid g{n};
  auto plain = hit::make_transforms(b, g, hit::FftPlanning::estimate);
  auto pruned = hit::make_pruned_transforms(b, g, d, hit::FftPlanning::estimate, form);
  ASSERT_TRUE(pruned->reads_kept_input());
  const core::Array<hit::Complex> modes = dealiased_modes(*hit::make_transforms(core::Backend::cpu, g, {}), d, count);
  core::Array<hit::Complex> a = modes.clone(), kept = modes.clone();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  core::Array<hit::Complex> work(std::size_t(count * g.modes()), hit::Complex{nan, nan});
  core::Array<double> x(std::size_t(count * g.points())), y(std::size_t(count * g.points()));
  const auto where = core::where(b);
  plain->inverse(a.read_write(where), x.write(where), count);
  for (int pass = 0; pass < 2; ++pass) {
    pruned->inverse_from_kept(kept.read(where), work.read_write(where), y.write(where), count);
    const auto xs = x.host(), ys = y.host();
    double diff = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double e = std::fabs(xs[i] - ys[i]);
      if (!(e <= diff)) diff = e;  // a NaN read from the work array stays, and fails below
    }
    const double size = largest({xs.begin(), xs.end()});
    EXPECT_TRUE(diff <= 1e-13 * size) << "n " << n << " mask " << int(d) << " count " << count << " form "
                                      << int(form) << " pass " << pass << " diff " << diff;
    const auto ks = kept.host(), ms = modes.host();
    std::size_t changed = 0;
    for (std::size_t i = 0; i < ks.size(); ++i) changed += ks[i].re != ms[i].re || ks[i].im != ms[i].im ? 1 : 0;
    EXPECT_EQ(changed, 0u) << "the kept input was written, n " << n << " form " << int(form);
  }
}

TEST(HitPruned, InverseFromKeptInputEqualsThePlainInverseAndKeepsTheInput) {
  for (Index n : sizes)
    for (auto d : masks)
      for (auto form : forms)
        for (int count : {1, 3}) expect_inverse_from_kept_as_plain(core::Backend::cpu, n, d, count, form);
}

// The zeroed fractions by hand at n = 12 under the 2/3 rule: 7 kept rows of 12; 4 kx of 7.
TEST(HitPruned, ZeroedFractionCountsTheModesOutsideTheZPass) {
  const hit::KeptLines k = hit::kept_lines({12}, Dealiasing::two_thirds);
  EXPECT_DOUBLE_EQ(hit::zeroed_fraction(k, true), 5.0 / 12);
  EXPECT_DOUBLE_EQ(hit::zeroed_fraction(k, false), 1 - 4.0 * 7 / (7 * 12));
}

TEST(HitPruned, InverseOfDealiasedFieldsEqualsThePlainInverse) {
  for (Index n : sizes)
    for (auto d : masks)
      for (auto form : forms)
        for (int count : {1, 3}) expect_pruned_inverse_as_plain(core::Backend::cpu, n, d, count, form);
}

TEST(HitPruned, ForwardEqualsThePlainForwardOnTheKeptModes) {
  for (Index n : sizes)
    for (auto d : masks)
      for (auto form : forms)
        for (int count : {1, 3}) expect_pruned_forward_as_plain(core::Backend::cpu, n, d, count, form);
}

// Steps of both schemes and masks through the pruned transforms against the plain ones, from the same field, the
// low shells forced between two of them (a change of the modes between steps: fused, the fields must follow).
void expect_pruned_steps_as_plain(core::Backend b, Index n, hit::PrunedForm form) {
  for (auto scheme : {hit::Scheme::rk4, hit::Scheme::rk2})
    for (auto d : masks) {
      hit::SolverOptions o{0.005, scheme, d};
      o.pruned_form = form;
      o.pruning = hit::Pruning::off;
      hit::Solver plain = random_solver(b, n, o);
      o.pruning = hit::Pruning::on;
      hit::Solver pruned = random_solver(b, n, o);
      ASSERT_TRUE(pruned.pruned());
      ASSERT_FALSE(plain.pruned());
      // The kept fields wherever the transforms take them; the stages fused under the 2/3 rule.
      const bool kept = b == core::Backend::cpu || form == hit::PrunedForm::columns;
      ASSERT_EQ(pruned.writes_kept_fields(), kept);
      ASSERT_EQ(pruned.fuses_stages(), kept && d == Dealiasing::two_thirds);
      ASSERT_FALSE(plain.writes_kept_fields() || plain.fuses_stages());
      const hit::ShellEnergyForcing force_plain(plain, 2), force_pruned(pruned, 2);
      for (int i = 0; i < 4; ++i) {
        if (i == 2) {
          const double added = force_plain.apply(plain);
          ASSERT_NE(added, 0.0);
          ASSERT_NEAR(force_pruned.apply(pruned), added, 1e-10 * std::fabs(added));
        }
        const double h_plain = plain.step({0, 0.5}), h_pruned = pruned.step({0, 0.5});
        ASSERT_NEAR(h_pruned, h_plain, 1e-13 * h_plain) << i;
      }
      EXPECT_LE(max_difference(plain.modes(), pruned.modes()), 1e-13 * max_abs(plain.modes()))
          << "n " << n << " scheme " << int(scheme) << " mask " << int(d) << " form " << int(form);
    }
}

TEST(HitPruned, StepEqualsThePlainStep) {
  expect_pruned_steps_as_plain(core::Backend::cpu, 18, hit::PrunedForm::planes);
  expect_pruned_steps_as_plain(core::Backend::cpu, 20, hit::PrunedForm::columns);
}

TEST(HitPruned, AutomaticPrunesOneRankUnderTheTwoThirdsRuleOnly) {
  hit::SolverOptions o{0.005};
  EXPECT_TRUE(hit::uses_pruned_transforms(core::Backend::cuda, o, 1));
  EXPECT_FALSE(hit::uses_pruned_transforms(core::Backend::cuda, o, 2));
  EXPECT_TRUE(hit::uses_pruned_transforms(core::Backend::cpu, o, 1));
  EXPECT_FALSE(hit::uses_pruned_transforms(core::Backend::cpu, o, 2));
  o.dealiasing = Dealiasing::phase_shift;
  EXPECT_FALSE(hit::uses_pruned_transforms(core::Backend::cpu, o, 1));
  EXPECT_FALSE(hit::uses_pruned_transforms(core::Backend::cuda, o, 1));
  o.dealiasing = Dealiasing::two_thirds;
  o.pruning = hit::Pruning::on;
  EXPECT_TRUE(hit::uses_pruned_transforms(core::Backend::cpu, o, 1));
  EXPECT_FALSE(hit::uses_pruned_transforms(core::Backend::cpu, o, 3));  // several ranks: the plain slabs
  o.callbacks = true;
  EXPECT_FALSE(hit::uses_pruned_transforms(core::Backend::cuda, o, 1));
}

// The model's lines by hand at n = 12 under the 2/3 rule: kx < 4, |ky| < 4 (7 rows of 12), 7 kx in all.
TEST(HitPruned, TransformModelCountsTheLinesByHand) {
  hit::SolverOptions o{0.005};
  o.pruned_form = hit::PrunedForm::planes;
  const hit::TransformWork full = hit::transform_work({12}, o, false, false),
                           exact = hit::transform_work({12}, o, true, false),
                           planes = hit::transform_work({12}, o, true, true);
  o.pruned_form = hit::PrunedForm::columns;
  const hit::TransformWork columns_fftw = hit::transform_work({12}, o, true, false),
                           columns_cufft = hit::transform_work({12}, o, true, true);
  const double n = 12, line = 2 * 16 * n, real_line = 16 * 7 + 8 * n, per_step = 9 * 4;
  EXPECT_DOUBLE_EQ(full.bytes, per_step * ((84 + 84) * line + 144 * real_line));
  EXPECT_DOUBLE_EQ(exact.bytes, per_step * ((4 * 7 + 4 * 12) * line + 144 * real_line));
  EXPECT_DOUBLE_EQ(planes.bytes, per_step * ((4 * 12 + 4 * 12) * line + 144 * real_line));
  EXPECT_DOUBLE_EQ(columns_fftw.bytes, per_step * ((4 * 7 + 84) * line + 144 * real_line));
  EXPECT_DOUBLE_EQ(columns_cufft.bytes, per_step * ((7 * 7 + 84) * line + 144 * real_line));
  const double c = 5 * n * std::log2(n);
  EXPECT_DOUBLE_EQ(exact.flops, per_step * c * (4 * 7 + 4 * 12 + 0.5 * 144));
}

#define LOOM_SKIP_WITHOUT_CUDA() \
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device"

TEST(HitPrunedGpu, CufftFormEqualsThePlainCufftTransforms) {
  LOOM_SKIP_WITHOUT_CUDA();
  for (Index n : {Index(12), Index(14), Index(48), Index(64)})
    for (auto d : masks)
      for (auto form : forms)
        for (int count : {1, 6}) {
          expect_pruned_inverse_as_plain(core::Backend::cuda, n, d, count, form);
          expect_pruned_forward_as_plain(core::Backend::cuda, n, d, count, form);
        }
}

TEST(HitPrunedGpu, CufftColumnsFromKeptInputEqualThePlainInverse) {
  LOOM_SKIP_WITHOUT_CUDA();
  for (Index n : {Index(12), Index(14), Index(48), Index(64)})
    for (auto d : masks)
      for (int count : {1, 6}) expect_inverse_from_kept_as_plain(core::Backend::cuda, n, d, count, hit::PrunedForm::columns);
}

TEST(HitPrunedGpu, StepEqualsThePlainGpuStepAndTheCpu) {
  LOOM_SKIP_WITHOUT_CUDA();
  for (auto form : forms) expect_pruned_steps_as_plain(core::Backend::cuda, 48, form);
  hit::SolverOptions o{0.005};
  o.pruning = hit::Pruning::on;
  hit::Solver gpu = random_solver(core::Backend::cuda, 48, o);
  o.pruning = hit::Pruning::off;
  hit::Solver cpu = random_solver(core::Backend::cpu, 48, o);
  for (int i = 0; i < 5; ++i) {
    const double h_cpu = cpu.step({0, 0.5}), h_gpu = gpu.step({0, 0.5});
    ASSERT_NEAR(h_gpu, h_cpu, 1e-13 * h_cpu) << i;
  }
  EXPECT_LT(max_difference(cpu.modes(), gpu.modes()), 1e-12 * max_abs(cpu.modes()));
}

}  // namespace
}  // namespace loom::test
