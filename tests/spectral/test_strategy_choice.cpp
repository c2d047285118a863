// The per-shape strategy chosen by measurement: the chooser keeps the fastest candidate (told apart here by a
// known delay), times each key once, prints each choice once, reads a recorded choice back from its file, and
// the chosen strategy gives the same numbers as every fixed strategy (CPU here; the GPU ones with a device).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <thread>

#include "loom/core/backend.hpp"
#include "loom/spectral/cluster_route.hpp"
#include "loom/spectral/strategy_choice.hpp"

namespace loom::spectral {
namespace {

TEST(StrategyChoice, KeepsTheFastestTimesOnceAndPrintsOnce) {
  std::ostringstream log;
  StrategyChooser chooser(&log);
  auto run = [](Strategy s) {
    if (s == Strategy::blas) std::this_thread::sleep_for(std::chrono::milliseconds(3));
  };
  EXPECT_EQ(chooser.choose("shape A", {Strategy::blas, Strategy::reference}, run), Strategy::reference);
  const auto calls = chooser.timed_calls();
  EXPECT_EQ(calls, 2u * (1 + chooser.repeats));  // one warm-up and the repeats per candidate
  EXPECT_EQ(chooser.choose("shape A", {Strategy::blas, Strategy::reference}, run), Strategy::reference);
  EXPECT_EQ(chooser.timed_calls(), calls);
  auto slow_reference = [](Strategy s) {
    if (s == Strategy::reference) std::this_thread::sleep_for(std::chrono::milliseconds(3));
  };
  EXPECT_EQ(chooser.choose("shape B", {Strategy::blas, Strategy::reference}, slow_reference), Strategy::blas);
  const std::string text = log.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
  EXPECT_NE(text.find("shape A: reference"), std::string::npos) << text;
  EXPECT_NE(text.find("shape B: blas"), std::string::npos) << text;
}

TEST(StrategyChoice, ReadsRecordedChoicesBack) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("loom_choices_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".txt");
  std::filesystem::remove(file);
  auto run = [](Strategy s) {
    if (s == Strategy::reference) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  };
  {
    StrategyChooser first(nullptr, file.string());
    EXPECT_EQ(first.choose("shell 10x19x38 deriv", {Strategy::reference, Strategy::blas}, run), Strategy::blas);
  }
  StrategyChooser second(nullptr, file.string());
  auto never = [](Strategy) { FAIL() << "a recorded choice is not timed again"; };
  EXPECT_EQ(second.choose("shell 10x19x38 deriv", {Strategy::reference, Strategy::blas}, never), Strategy::blas);
  EXPECT_EQ(second.timed_calls(), 0u);
  std::filesystem::remove(file);
}

// The route chooser times every strategy with both angular methods on a shell (the dense method alone on a cube),
// records "strategy/angular", reads it back, and the chosen route gives the numbers of the fixed routes.
TEST(StrategyChoice, RouteCoversBothAngularMethodsOnAShell) {
  const auto file = std::filesystem::temp_directory_path() /
                    ("loom_routes_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".txt");
  std::filesystem::remove(file);
  const auto shell = make_topology("shell", {6, 7, 14}, {1, 3});
  const auto cube = make_topology("cube", {6, 6, 6}, {0, 0});
  std::ostringstream log;
  Route chosen;
  {
    StrategyChooser chooser(&log, file.string());
    chooser.repeats = 1;
    chosen = chooser.choose_route(shell.get(), shell->size(), {TensorKind::aa}, Operation::deriv,
                                  core::Backend::cpu, {});
    EXPECT_EQ(chooser.timed_calls(), 2u * 2u);  // blas with dense and with separable, a warm-up and one repeat
    const Route on_cube =
        chooser.choose_route(cube.get(), cube->size(), {TensorKind::aa}, Operation::deriv, core::Backend::cpu, {});
    EXPECT_EQ(to_string(on_cube), "blas/dense");  // the only candidate: not timed
    EXPECT_EQ(chooser.timed_calls(), 4u);
  }
  const std::string text = log.str();
  EXPECT_NE(text.find("blas/dense"), std::string::npos) << text;
  EXPECT_NE(text.find("blas/separable"), std::string::npos) << text;
  EXPECT_NE(text.find("cpu auto: " + to_string(chosen)), std::string::npos) << text;
  StrategyChooser again(nullptr, file.string());
  const Route read = again.choose_route(shell.get(), shell->size(), {TensorKind::aa}, Operation::deriv,
                                        core::Backend::cpu, {});
  EXPECT_EQ(again.timed_calls(), 0u);
  EXPECT_EQ(to_string(read), to_string(chosen));
  std::filesystem::remove(file);
}

// Auto on a backend gives the numbers of each fixed strategy it chose from: the Cartesian gradient of the GH
// components (one call) on a shell, compared with the FFT reference.
void expect_auto_equals_fixed(core::Backend backend, AngularMethod angular) {
  const auto shell = make_topology("shell", {12, 14, 28}, {1, 3});
  const std::vector<TensorKind> kinds{TensorKind::aa, TensorKind::iaa, TensorKind::aa};
  StrategyChooser chooser;
  const Strategy chosen = chooser.choose(shell.get(), shell->size(), kinds, Operation::deriv, backend, {}, angular);
  EXPECT_EQ(backend_of(chosen), backend);
  Workload picked(shell.get(), 0, kinds, Operation::deriv, chosen, {}, angular);
  picked.run();
  for (auto s : available_strategies()) {
    if (backend_of(s) != backend && s != Strategy::reference) continue;
    if (!Workload::supported(shell.get(), Operation::deriv, s, {}, angular)) continue;
    Workload fixed(shell.get(), 0, kinds, Operation::deriv, s, {}, angular);
    fixed.run();
    for (std::size_t t = 0; t < kinds.size(); ++t) {
      const double *a = picked.result(t).read(core::Where::host), *b = fixed.result(t).read(core::Where::host);
      double e = 0, scale = 0;
      for (std::size_t i = 0; i < picked.result(t).size(); ++i) {
        e = std::max(e, std::abs(a[i] - b[i]));
        scale = std::max(scale, std::abs(b[i]));
      }
      EXPECT_LT(e, 1e-12 * scale) << to_string(s) << " vs auto " << to_string(chosen) << ", tensor " << t;
    }
  }
  EXPECT_LT(picked.error(), 1e-5);  // and the chosen one is right: against the exact gradient (1.2e-6 here)
}

TEST(StrategyChoice, AutoGivesTheNumbersOfEachFixedStrategyCpu) {
  for (auto m : {AngularMethod::dense, AngularMethod::separable}) expect_auto_equals_fixed(core::Backend::cpu, m);
}

TEST(StrategyChoice, AutoGivesTheNumbersOfEachFixedStrategyGpu) {
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device";
  for (auto m : {AngularMethod::dense, AngularMethod::separable}) expect_auto_equals_fixed(core::Backend::cuda, m);
}

// The largest difference between two workloads' results, relative to the second's largest value.
double relative_difference(Workload& a, Workload& b, std::size_t tensors) {
  double e = 0, scale = 0;
  for (std::size_t t = 0; t < tensors; ++t) {
    const double *x = a.result(t).read(core::Where::host), *y = b.result(t).read(core::Where::host);
    for (std::size_t i = 0; i < a.result(t).size(); ++i) {
      e = std::max(e, std::abs(x[i] - y[i]));
      scale = std::max(scale, std::abs(y[i]));
    }
  }
  return e / scale;
}

// The cluster route needs thread-block clusters (an sm_90 device and a build for it). Without them (the test
// stands in for an older device with disable_clusters) it is no strategy the chooser sees, the auto route on
// SpEC's shell never picks it, and an explicit request runs the fused passes (their numbers).
TEST(StrategyChoice, NeverPicksTheClusterRouteWithoutClusters) {
  const auto listed = [] {
    const auto a = available_strategies();
    return std::find(a.begin(), a.end(), Strategy::cluster) != a.end();
  };
  EXPECT_EQ(listed(), gpu::clusters_available());
  struct Disabled {
    Disabled() { gpu::disable_clusters(true); }
    ~Disabled() { gpu::disable_clusters(false); }
  } disabled;
  EXPECT_FALSE(gpu::clusters_available());
  EXPECT_FALSE(listed());
  if (!core::backend_available(core::Backend::cuda)) GTEST_SKIP() << "no CUDA device for the route choice";
  const auto shell = make_topology("shell", {10, 19, 38}, {1.62, 6});
  const std::vector<TensorKind> kinds{TensorKind::aa, TensorKind::iaa, TensorKind::aa};
  StrategyChooser chooser;
  chooser.repeats = 1;
  const Route r = chooser.choose_route(shell.get(), shell->size(), kinds, Operation::deriv, core::Backend::cuda, {});
  EXPECT_NE(r.strategy, Strategy::cluster) << to_string(r);
  Workload asked(shell.get(), 0, kinds, Operation::deriv, Strategy::cluster, {}, AngularMethod::separable);
  Workload fused(shell.get(), 0, kinds, Operation::deriv, Strategy::fused, {}, AngularMethod::separable);
  asked.run();
  fused.run();
  EXPECT_LT(relative_difference(asked, fused, kinds.size()), 1e-14);
}

}  // namespace
}  // namespace loom::spectral
