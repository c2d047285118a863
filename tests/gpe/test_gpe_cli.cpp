// `loom gpe` as a user meets it: bad input rejected with one line naming the key (exit 2, no run directory
// left behind), a short run's outputs, a restart from its checkpoint that continues exactly, and the written
// input.toml re-running to the same result.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "apps/run_loom.hpp"
#include "loom/gpe/run/checkpoint.hpp"
#include "loom/io/parameters.hpp"

namespace loom::test {
namespace {

// A small, fast problem: kappa = 1 vortex on a coarse BCC lattice.
const std::string small =
    "--grid.points_per_wavelength 5 --physics.g 50 --initial.kappa 1 --quiet --output.plots false";

TEST(GpeCli, BadInputIsRejectedBeforeAnythingIsWritten) {
  TempDir dir;
  const std::string out = (dir / "run").string();
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--grid.type hex", "error: grid.type = \"hex\": expected one of cubic, fcc, bcc, a15, c15, z\n"},
      {"--initial.kappa 1.5", "error: initial.kappa = 1.5: expected an integer in [-100, 100]\n"},
      {"--physics.lambda 0", "error: physics.lambda = 0.0: expected a number > 0\n"},
      {"/nonexistent/run.toml", "error: input file \"/nonexistent/run.toml\": no such file\n"},
      {"--initial.type ground --initial.kappa 2", ""},
      {"--time.dt 1.0", ""},
      {"--initial.type checkpoint", ""},
  };
  for (const Case& c : cases) {
    const RunResult r = run_loom("gpe " + small + " --output.dir " + out + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << c.args << ": " << r.err;
    if (!c.message.empty()) {
      EXPECT_EQ(r.err, c.message);
    }
    EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
  }
  const RunResult dt = run_loom("gpe " + small + " --output.dir " + out + " --time.dt 1.0");
  EXPECT_NE(dt.err.find("time.dt = 1"), std::string::npos) << dt.err;
  EXPECT_NE(dt.err.find("stability bound"), std::string::npos) << dt.err;
}

TEST(GpeCli, ShortRunWritesEveryOutput) {
  TempDir dir;
  const auto run = dir / "run";
  const RunResult r = run_loom("gpe " + small + " --time.t_end 0.2 --output.dir " + run.string());
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"input.toml", "series.csv", "summary.json", "psi.xdmf", "psi_0000.h5", "psi_0001.h5",
                        "checkpoint.h5", "slice_z0_initial.csv", "slice_z0_final.csv"})
    EXPECT_TRUE(std::filesystem::exists(run / f)) << f;
  const std::string series = slurp(run / "series.csv");
  EXPECT_EQ(series.rfind("t,norm,energy,mu,E,RMSE,max_abs_psi,", 0), 0u) << series.substr(0, 80);
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  for (const char* key : {"chemical_potential", "initial", "final", "steps", "dt", "dof", "grid", "backend"})
    EXPECT_TRUE(summary.contains(key)) << key;
  EXPECT_NEAR(summary["initial"]["norm"].get<double>(), 1.0, 1e-12);
  EXPECT_LT(std::abs(summary["energy_drift"].get<double>()), 1e-2);  // 5 edges per wavelength: coarse
  EXPECT_EQ(summary["grid"], "bcc");
  // mu of kappa = 1, g = 50, lambda = 1 from the continuum solver, between the g = 0 value and Thomas-Fermi.
  EXPECT_GT(summary["chemical_potential"].get<double>(), 2.5);
}

TEST(GpeCli, RestartContinuesExactly) {
  TempDir dir;
  const auto straight = dir / "straight", first = dir / "first", second = dir / "second";
  ASSERT_EQ(run_loom("gpe " + small + " --time.t_end 0.3 --output.dir " + straight.string()).code, 0);
  ASSERT_EQ(run_loom("gpe " + small + " --time.t_end 0.15 --output.dir " + first.string()).code, 0);
  const RunResult r = run_loom("gpe " + small + " --time.t_end 0.3 --initial.type checkpoint --initial.checkpoint " +
                               (first / "checkpoint.h5").string() + " --output.dir " + second.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto a = gpe::read_checkpoint(straight / "checkpoint.h5"), b = gpe::read_checkpoint(second / "checkpoint.h5");
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.time, b.time);
  ASSERT_EQ(a.current.size(), b.current.size());
  for (std::size_t i = 0; i < a.current.size(); ++i) {
    ASSERT_EQ(a.current[i].re, b.current[i].re) << i;
    ASSERT_EQ(a.current[i].im, b.current[i].im) << i;
  }
  // A mismatched physics value is refused.
  const RunResult bad = run_loom("gpe " + small + " --physics.g 60 --initial.type checkpoint --initial.checkpoint " +
                                 (first / "checkpoint.h5").string() + " --output.dir " + (dir / "bad").string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("physics.g = 60.0"), std::string::npos) << bad.err;
}

TEST(GpeCli, EffectiveInputReRunsToTheSameResult) {
  if (!io::toml_supported()) GTEST_SKIP() << "built without toml++";
  TempDir dir;
  const auto a = dir / "a", b = dir / "b";
  ASSERT_EQ(run_loom("gpe " + small + " --time.t_end 0.1 --grid.type c15 --output.dir " + a.string()).code, 0);
  const RunResult r = run_loom("gpe " + (a / "input.toml").string() + " --output.dir " + b.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto sa = nlohmann::json::parse(slurp(a / "summary.json")),
             sb = nlohmann::json::parse(slurp(b / "summary.json"));
  EXPECT_EQ(sb["grid"], "c15");
  EXPECT_EQ(sa["final"]["energy"], sb["final"]["energy"]);
  EXPECT_EQ(sa["dof"], sb["dof"]);
}

// `loom bench gpe` on the CPU: one row per kernel with a positive rate and the 48-byte traffic model; bad soa launch
// choices are usage errors.
TEST(GpeBenchCli, TimesEveryCpuKernelAndRejectsBadSoaChoices) {
  TempDir dir;
  const auto json = dir / "bench.json";
  const RunResult r =
      run_loom("bench gpe --backend cpu --grids bcc --dof 3000 --repeats 1 --warmup 0 --json " + json.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json));
  std::vector<std::string> variants;
  for (const auto& row : j["results"]) {
    variants.push_back(row["variant"]);
    EXPECT_GT(row["dof_updates_per_s"].get<double>(), 0) << row.dump();
    EXPECT_EQ(row["bytes_per_dof"].get<double>(), 48);
    EXPECT_EQ(row["dof"].get<long long>(), 12 * 6 * 6 * 6);  // (3000 / 12)^(1/3) rounds to 6 structures per edge
  }
  EXPECT_EQ(variants, (std::vector<std::string>{"plain", "soa"}));
  for (const std::string bad :
       {"--soa_vertices 3", "--soa_band_rows -1", "--soa_band_rows x", "--soa_columns -2", "--soa_order fast",
        "--march_ahead 3", "--march_rows wide", "--lattices 5x4", "--lattices 5x0x3", "--lattices 5x4x3x2"}) {
    const RunResult e = run_loom("bench gpe --backend cpu --grids bcc --dof 3000 " + bad);
    EXPECT_EQ(e.code, 2) << bad;
    EXPECT_EQ(line_count(e.err), 1u) << bad << ": " << e.err;
  }
}

// `--lattices` times boxes of nx x ny x nz structures after the cubes of --dof.
TEST(GpeBenchCli, TimesBoxesOfStructures) {
  TempDir dir;
  const auto json = dir / "bench.json";
  const RunResult r = run_loom(
      "bench gpe --backend cpu --grids bcc --kernels soa --dof 3000 --lattices 5x4x3,2x3x7 "
      "--repeats 1 --warmup 0 --json " +
      json.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json));
  std::vector<std::vector<int>> boxes;
  for (const auto& row : j["results"]) {
    boxes.push_back(row["structures"].get<std::vector<int>>());
    const auto& n = boxes.back();
    EXPECT_EQ(row["dof"].get<long long>(), 12LL * n[0] * n[1] * n[2]);
  }
  EXPECT_EQ(boxes, (std::vector<std::vector<int>>{{6, 6, 6}, {5, 4, 3}, {2, 3, 7}}));
  EXPECT_NE(r.out.find("5x4x3"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace loom::test
