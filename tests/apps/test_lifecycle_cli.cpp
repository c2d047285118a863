// The output rules of issue 17 on the commands that write files rather than run directories (`loom fmm`, the
// benchmarks' --json) and on `loom lattice`'s run directories (dispersion, VTK export): an existing output is
// refused unless overwriting is asked, the input is never an output, and an overwritten run directory keeps
// nothing of the old one.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/run_loom.hpp"

namespace loom::test {
namespace {

void write_bodies(const std::filesystem::path& path) {
  std::ofstream f(path);
  f << "x,y,z,q\n";
  for (int i = 0; i < 50; ++i) f << 0.01 * i << "," << 0.02 * (i % 7) << "," << -0.013 * (i % 5) << ",1\n";
}

TEST(FmmOutputs, InputIsNeverOverwrittenAndExistingOutputsNeedOverwrite) {
  TempDir dir;
  const auto bodies = dir / "b.csv", result = dir / "r.csv";
  write_bodies(bodies);
  const std::string original = slurp(bodies);
  const std::string base = "fmm --backend cpu --samples 10 --input " + bodies.string();
  for (const std::string& same : {bodies.string(), (dir / "." / "b.csv").string()}) {
    const RunResult r = run_loom(base + " --overwrite true --output " + same);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err, "error: output = \"" + same + "\": is the same file as input = \"" + bodies.string() +
                         "\"; choose another output file\n");
  }
  EXPECT_EQ(slurp(bodies), original);
  ASSERT_EQ(run_loom(base + " --output " + result.string()).code, 0);
  const RunResult again = run_loom(base + " --output " + result.string());
  EXPECT_EQ(again.code, 2) << again.err;
  EXPECT_EQ(again.err, "error: output = \"" + result.string() +
                           "\": exists; choose another name, or set overwrite = true to replace it\n");
  EXPECT_EQ(run_loom(base + " --output " + result.string() + " --overwrite true").code, 0);
  const RunResult json = run_loom(base + " --json " + result.string() + " --overwrite true");
  EXPECT_EQ(json.code, 0) << json.err;  // another run's CSV may be replaced by JSON when asked
  const RunResult both = run_loom(base + " --output " + (dir / "x").string() + " --json " + (dir / "x").string());
  EXPECT_EQ(both.code, 2) << both.err;
  EXPECT_NE(both.err.find("json = \"" + (dir / "x").string() + "\": is the same file as output"), std::string::npos)
      << both.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x"));
}

TEST(LatticeOutputs, OverwriteReplacesTheRunDirectoryWhole) {
  TempDir dir;
  const auto run = dir / "run";
  const std::string base = "lattice dispersion --grid.type bcc --dispersion.directions 20 --plot false";
  ASSERT_EQ(run_loom(base + " --output.dir " + run.string()).code, 0);
  std::ofstream(run / "psi_0002.h5") << "an old run's file";
  EXPECT_EQ(run_loom(base + " --output.dir " + run.string()).code, 2);
  ASSERT_EQ(run_loom(base + " --output.dir " + run.string() + " --output.overwrite true").code, 0);
  EXPECT_FALSE(std::filesystem::exists(run / "psi_0002.h5"));
  EXPECT_TRUE(std::filesystem::exists(run / "dispersion.csv"));
  std::vector<std::string> beside;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) beside.push_back(e.path().filename());
  EXPECT_EQ(beside, std::vector<std::string>{"run"});  // no lock, no old copy
}

// Every name in `dir`, sorted.
std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(BenchOutputs, ExistingJsonNeedsOverwriteAndIsReplacedWhole) {
  TempDir dir;
  const auto json = dir / "c.json";
  std::ofstream(json) << "an earlier measurement";
  const std::string base = "bench ceilings --quick --backend cpu --repeats 1 --warmup 0 --json " + json.string();
  const RunResult refused = run_loom(base);
  EXPECT_EQ(refused.code, 2) << refused.err;
  EXPECT_EQ(refused.err, "error: json = \"" + json.string() +
                             "\": exists; choose another name, or set overwrite = true to replace it\n");
  EXPECT_EQ(refused.out, "");  // refused before any timing
  EXPECT_EQ(slurp(json), "an earlier measurement");
  const RunResult replaced = run_loom(base + " --overwrite true");
  ASSERT_EQ(replaced.code, 0) << replaced.err;
  EXPECT_TRUE(nlohmann::json::parse(slurp(json)).contains("ceilings"));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"c.json"});  // no temporary file left
}

TEST(LatticeOutputs, ExportNeedsOverwriteAndLeavesNoTemporaryFile) {
  TempDir dir;
  const auto run = dir / "run";
  const std::string base = "lattice export --grid.type a15 --output.dir " + run.string();
  ASSERT_EQ(run_loom(base).code, 0);
  const std::vector<std::string> files = {"a15_dual.vtk", "a15_primal.vtk", "input.toml", "summary.json"};
  EXPECT_EQ(names_in(run), files);
  const std::string primal = slurp(run / "a15_primal.vtk");
  EXPECT_EQ(primal.rfind("# vtk DataFile", 0), 0u);
  const RunResult again = run_loom(base);
  EXPECT_EQ(again.code, 2) << again.err;
  EXPECT_NE(again.err.find("output.dir = \"" + run.string() + "\": directory exists and is not empty"),
            std::string::npos)
      << again.err;
  ASSERT_EQ(run_loom(base + " --export.equal_work true --output.overwrite true").code, 0);
  EXPECT_EQ(names_in(run), files);
  EXPECT_NE(slurp(run / "a15_primal.vtk"), primal);  // the equal-work scale: other coordinates
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"run"});
}

}  // namespace
}  // namespace loom::test
