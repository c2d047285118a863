// `loom spectral` and `loom bench spectral` as a user meets them: a run prints a small error against the exact
// gradient, the time and the cache; bad input exits 2 with one line naming the key.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <nlohmann/json.hpp>
#include <string>

#include "apps/run_loom.hpp"

namespace loom::test {
namespace {

double number_after(const std::string& text, const std::string& key) {
  const auto at = text.find(key);
  if (at == std::string::npos) return std::nan("");
  return std::stod(text.substr(at + key.size()));
}

// Each (arguments, key): exit 2 with one line that names the key.
void expect_usage_errors(const std::string& command, std::span<const std::pair<const char*, const char*>> cases) {
  for (const auto& [args, key] : cases) {
    const RunResult r = run_loom(command + args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(line_count(r.err), 1u) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(key), std::string::npos) << args << "\n" << r.err;
  }
}

TEST(SpectralCli, ShellGradientPrintsErrorTimeAndCache) {
  const RunResult r = run_loom("spectral --topology shell --extents 14,20,40 --op deriv --tensor abb --backend cpu "
                               "--repeats 1 --warmup 0");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(number_after(r.out, "relative error vs the exact gradient: "), 1e-10) << r.out;
  EXPECT_NE(r.out.find("time: median"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("operator cache: 3 entries"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(chosen by measurement)"), std::string::npos) << r.out;
}

TEST(SpectralCli, CubeFilterAndJacobians) {
  const RunResult f = run_loom("spectral --topology cube --extents 20,20,20 --op filter --tensor a --strategy blas "
                               "--repeats 1 --filter.alpha 36 --filter.order 8");
  ASSERT_EQ(f.code, 0) << f.err;
  EXPECT_LT(number_after(f.out, "relative change of the analytic field: "), 1e-8) << f.out;
  const RunResult j = run_loom("spectral --op coordjac --tensor iaa --extents 6,6,12 --repeats 1");
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(number_after(j.out, "max difference vs the CPU kernel: "), 0.0) << j.out;
}

TEST(SpectralCli, BadInputExitsTwoWithOneLineNamingTheKey) {
  const std::pair<const char*, const char*> cases[] = {
      {"--extents 1,19,38", "extents"},       {"--extents 10,19,40", "extents"},
      {"--tensor abc", "tensor"},             {"--filter.order 0", "filter.order"},
      {"--op frob", "op"},                    {"--strategy fused --backend cpu", "strategy"},
      {"--topology cube --extents 8,1,8", "extents"},
      {"--tensor aa,frob", "tensor"},          {"--op diffjac --tensor aa,iaa", "tensor"},
      {"--calls 0", "calls"},                 {"--radii 1", "radii"},
      {"--angular auto --strategy blas", "angular"},
      {"--shells 0", "shells"},               {"--shells 2 --op filter", "shells"},
      {"--shells 2 --topology cube --extents 8,8,8", "shells"}};
  expect_usage_errors("spectral --repeats 1 ", cases);
}

TEST(SpectralCli, BenchBadListsExitTwoNamingTheKey) {
  const std::pair<const char*, const char*> cases[] = {
      {"--sweeps cubes", "sweeps"}, {"--strategies blas,frob", "strategies"}, {"--cube_n 8,x", "cube_n"},
      {"--tensor abb,q", "tensor"}, {"--cpu_threads -1", "cpu_threads"}};
  expect_usage_errors("bench spectral --quick --backend cpu ", cases);
}

// The GH state's three tensors in one call: 50 components, each against its exact gradient.
TEST(SpectralCli, SeveralTensorsInOneCall) {
  const RunResult r = run_loom("spectral --extents 12,14,28 --tensor aa,iaa,aa --angular separable --backend cpu "
                               "--strategy blas --repeats 1 --warmup 0 --calls 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("T_aa + T_iaa + T_aa (50 components, one call)"), std::string::npos) << r.out;
  EXPECT_LT(number_after(r.out, "relative error vs the exact gradient: "), 1e-5) << r.out;
  EXPECT_NE(r.out.find("of 2 back-to-back calls, per call"), std::string::npos) << r.out;
}

// Several copies of the shell in one call (--shells): the same error as one shell, the time per shell printed
// and in the JSON as the time per call over the shells.
TEST(SpectralCli, SeveralShellsInOneCall) {
  TempDir dir;
  const auto json = (dir / "r.json").string();
  const RunResult r = run_loom("spectral --extents 12,14,28 --tensor aa,iaa,aa --angular separable --backend cpu "
                               "--strategy blas --repeats 1 --warmup 0 --shells 3 --json " + json);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("shells: 3 in one call"), std::string::npos) << r.out;
  EXPECT_LT(number_after(r.out, "relative error vs the exact gradient: "), 1e-5) << r.out;
  EXPECT_NE(r.out.find("time per shell: median"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(json))["result"];
  EXPECT_EQ(j["shells"], 3);
  EXPECT_DOUBLE_EQ(j["median_per_shell_s"].get<double>() * 3, j["median_s"].get<double>());
}

// Strategy and angular method chosen together: the line names both, the JSON records the angular method.
TEST(SpectralCli, AutoRouteChoosesTheAngularMethodToo) {
  const RunResult r = run_loom("spectral --extents 12,14,28 --tensor a --backend cpu --angular auto --repeats 1 "
                               "--warmup 0");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("strategy for shell 12x14x28 deriv C=4 cpu auto: blas/"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(chosen by measurement)\n"), std::string::npos) << r.out;
  EXPECT_LT(number_after(r.out, "relative error vs the exact gradient: "), 1e-5) << r.out;
}

TEST(SpectralCli, BenchQuickRuns) {
  const RunResult r = run_loom("bench spectral --quick --backend cpu --sweeps bbh --cpu_threads 1 --tensor a");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("bbh"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("5x9x18"), std::string::npos) << r.out;  // k = 1: N_r = 5, N_theta = 9, N_phi = 18
}

}  // namespace
}  // namespace loom::test
