// `loom hit` as a user meets it: bad input rejected with one line naming the key (exit 2, nothing written), a
// short Taylor-Green run's outputs against the published reference, a restart from its checkpoint that continues
// exactly, and a run started from a field snapshot.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>

#include "apps/run_loom.hpp"
#include "loom/hit/checkpoint.hpp"

namespace loom::test {
namespace {

const std::string quiet = " --quiet --output.plots false";

TEST(HitCli, BadInputIsRejectedBeforeAnythingIsWritten) {
  TempDir dir;
  const std::string out = (dir / "run").string();
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--grid.n 33", "error: grid.n = 33: expected an even integer in [8, 1024]\n"},
      {"--grid.n 6", "error: grid.n = 6: expected an integer in [8, 1024]\n"},
      {"--grid.n 2048", "error: grid.n = 2048: expected an integer in [8, 1024]\n"},  // past the FFTs' int sizes
      {"--physics.nu 0", "error: physics.nu = 0.0: expected a number in (0, 1000]\n"},
      {"--physics.nu -1e-3", "error: physics.nu = -0.001: expected a number in (0, 1000]\n"},
      {"--scheme rk3", "error: scheme = \"rk3\": expected one of rk4, rk2\n"},
      {"--initial.type file", "error: initial.file = \"\": initial.type = file needs an HDF5 file\n"},
      {"--initial.type file --initial.file /nonexistent.h5",
       "error: initial.file = \"/nonexistent.h5\": no such file\n"},
      {"--time.dt 1.0", ""},
  };
  const std::string text = (dir / "text.h5").string();
  std::ofstream(text) << "not HDF5\n";
  const Case unreadable[] = {
      {"--initial.type file --initial.file " + text, "error: initial.file = \"" + text + "\": not a readable HDF5"},
      {"--initial.type checkpoint --initial.file " + text,
       "error: initial.file = \"" + text + "\": not a checkpoint of loom hit"},
  };
  for (const Case& c : unreadable) {
    const RunResult r = run_loom("hit --grid.n 16 --output.dir " + out + quiet + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind(c.message, 0), 0u) << r.err;
  }
  for (const Case& c : cases) {
    const RunResult r = run_loom("hit --grid.n 16 --output.dir " + out + quiet + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << c.args << ": " << r.err;
    if (!c.message.empty()) {
      EXPECT_EQ(r.err, c.message);
    }
    EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
  }
  const RunResult dt = run_loom("hit --grid.n 16 --output.dir " + out + quiet + " --time.dt 1.0");
  EXPECT_NE(dt.err.find("time.dt = 1"), std::string::npos) << dt.err;
  EXPECT_NE(dt.err.find("Courant limit"), std::string::npos) << dt.err;
  // The same step with the override runs.
  EXPECT_EQ(run_loom("hit --grid.n 16 --time.t_end 1 --output.fields false --output.dir " + out + quiet +
                     " --time.dt 1.0 --time.unsafe true")
                .code,
            0);
}

// A field that overflows (the largest amplitude allowed, stepped far above its Courant limit with time.unsafe)
// stops the run with exit 1 and one line naming the step and time; no non-finite value is written as a result.
TEST(HitCli, NonFiniteFieldStopsTheRun) {
  TempDir dir;
  const std::string out = (dir / "run").string();
  const RunResult r = run_loom("hit --grid.n 16 --quiet --output.plots false --output.fields false "
                               "--initial.amplitude 1e6 --time.unsafe true --time.dt 0.1 --time.t_end 10 "
                               "--output.dir " + out);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("not finite at step"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(out) / "summary.json"));
}

// The reference case through the command line: Taylor-Green, nu = 1/1600, 32^3, dt = 0.01, t = 0.1,
// against spectralDNS's published energy and enstrophy (see test_solver.cpp).
TEST(HitCli, TaylorGreenRunWritesEveryOutput) {
  TempDir dir;
  const auto run = dir / "run";
  const RunResult r = run_loom("hit --grid.n 32 --physics.nu 0.000625 --initial.type taylor_green --time.dt 0.01 "
                               "--time.t_end 0.1 --output.every 0.02 --output.dir " + run.string() + quiet);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"input.toml", "series.csv", "spectra.csv", "summary.json", "fields.xdmf", "fields_0000.h5",
                        "fields_0001.h5", "checkpoint.h5"})
    EXPECT_TRUE(std::filesystem::exists(run / f)) << f;
  const std::string series = slurp(run / "series.csv");
  EXPECT_EQ(series.rfind("t,step,dt,energy,enstrophy,dissipation,", 0), 0u) << series.substr(0, 80);
  EXPECT_NE(series.find(",skewness,"), std::string::npos);
  EXPECT_NE(series.find(",re_lambda,"), std::string::npos);
  EXPECT_EQ(line_count(series), 7u);  // header, t = 0 and five rows
  EXPECT_EQ(slurp(run / "spectra.csv").rfind("t,k,E\n", 0), 0u);
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  for (const char* key : {"energy", "enstrophy", "dissipation", "skewness", "re_lambda", "steps", "backend"})
    EXPECT_TRUE(summary.contains(key)) << key;
  EXPECT_NEAR(summary["energy"].get<double>(), 0.124953117517, 1e-11);
  EXPECT_NEAR(summary["enstrophy"].get<double>(), 0.375249930801, 1e-9);
  EXPECT_EQ(summary["steps"].get<int>(), 10);
  EXPECT_LT(summary["divergence_max"].get<double>(), 1e-13);
}

TEST(HitCli, RestartContinuesExactly) {
  TempDir dir;
  const auto straight = dir / "straight", first = dir / "first", second = dir / "second";
  const std::string common = "hit --grid.n 16 --initial.type random --initial.seed 5 --physics.nu 0.01 "
                             "--time.dt 0.02 --output.fields false" + quiet;
  ASSERT_EQ(run_loom(common + " --time.t_end 0.2 --output.dir " + straight.string()).code, 0);
  ASSERT_EQ(run_loom(common + " --time.t_end 0.1 --output.dir " + first.string()).code, 0);
  const RunResult r = run_loom(common + " --time.t_end 0.2 --initial.type checkpoint --initial.file " +
                               (first / "checkpoint.h5").string() + " --output.dir " + second.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto a = hit::read_checkpoint(straight / "checkpoint.h5"), b = hit::read_checkpoint(second / "checkpoint.h5");
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.time, b.time);
  ASSERT_EQ(a.modes.size(), b.modes.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.modes.size(); ++i)
    differ += a.modes.host()[i].re != b.modes.host()[i].re || a.modes.host()[i].im != b.modes.host()[i].im;
  EXPECT_EQ(differ, 0u);
}

TEST(HitCli, StartsFromAFieldSnapshot) {
  TempDir dir;
  const auto first = dir / "first", second = dir / "second";
  ASSERT_EQ(run_loom("hit --grid.n 16 --initial.type random --time.t_end 0.05 --output.dir " + first.string() + quiet)
                .code,
            0);
  const RunResult r = run_loom("hit --initial.type file --initial.file " + (first / "fields_0000.h5").string() +
                               " --time.t_end 0.05 --output.dir " + second.string() + quiet);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto a = nlohmann::json::parse(slurp(first / "summary.json")), b = nlohmann::json::parse(slurp(second / "summary.json"));
  EXPECT_EQ(b["grid"]["n"], 16);  // from the file
  EXPECT_NEAR(b["initial"]["energy"].get<double>(), a["initial"]["energy"].get<double>(), 1e-14);
  EXPECT_NEAR(b["initial"]["enstrophy"].get<double>(), a["initial"]["enstrophy"].get<double>(), 1e-12);
  const RunResult wrong = run_loom("hit --grid.n 32 --initial.type file --initial.file " +
                                   (first / "fields_0000.h5").string() + " --output.dir " + (dir / "x").string() + quiet);
  EXPECT_EQ(wrong.code, 2);
  EXPECT_EQ(line_count(wrong.err), 1u) << wrong.err;
}

}  // namespace
}  // namespace loom::test

namespace loom::test {
namespace {

TEST(HitCli, BenchmarkWritesItsTable) {
  TempDir dir;
  const auto json = dir / "bench.json";
  const RunResult r =
      run_loom("bench hit --backend cpu --sizes 16,24 --repeats 1 --warmup 0 --json " + json.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("FFT floor ms"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(j["steps"].size(), 2u);
  EXPECT_EQ(j["steps"][1]["n"], 24);
  EXPECT_GT(j["steps"][0]["step_s"].get<double>(), 0);
  EXPECT_GT(j["steps"][0]["fft_floor_s"].get<double>(), 0);
  EXPECT_EQ(j["steps"][0]["evaluations_per_step"], 4);
  const RunResult bad = run_loom("bench hit --backend cpu --sizes 16,17");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err, "error: sizes = \"16,17\": expected a comma-separated list of even n in [8, 1024]\n");
}

}  // namespace
}  // namespace loom::test
