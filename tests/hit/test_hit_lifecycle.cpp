// `loom hit`'s run lifecycle (docs/architecture.md, "Run lifecycle"; issue 17): SIGINT/SIGTERM stop it with a
// checkpoint and readable outputs, a corrupted checkpoint is refused with exit 2, and the run ends at t_end
// exactly when time.dt does not divide it.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/run_directory_check.hpp"
#include "io/corrupt_file.hpp"
#include "loom/hit/checkpoint.hpp"

namespace loom::test {
namespace {

const std::string quiet = " --quiet --output.plots false";

void stop_by(int sig) {
  TempDir dir;
  const auto run = dir / "run";
  LoomChild child("hit --grid.n 32 --time.t_end 1000 --output.every 0.01 --output.fields_every 0.02 --output.dir " +
                      run.string() + quiet,
                  dir.path());
  ASSERT_TRUE(child.wait_until([&] { return std::filesystem::exists(run / "fields_0003.h5"); })) << child.err();
  child.signal(sig);
  EXPECT_EQ(child.wait(), 128 + sig) << child.err();
  const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
  EXPECT_NE(child.err().find("hit: stopped by " + name), std::string::npos) << child.err();
  EXPECT_TRUE(unreadable_files(run).empty()) << joined(unreadable_files(run));
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  EXPECT_EQ(summary["stopped_by"], name);
  const auto c = hit::read_checkpoint(run / "checkpoint.h5");
  EXPECT_EQ(last_row(run / "series.csv").at(0), c.time);  // the series ends where a restart begins
  EXPECT_GE(line_count(slurp(run / "series.csv")), 4u);
}

TEST(HitLifecycle, SigintStopsAfterTheStepWithCheckpointAndOutputs) { stop_by(SIGINT); }
TEST(HitLifecycle, SigtermStopsAfterTheStepWithCheckpointAndOutputs) { stop_by(SIGTERM); }

TEST(HitLifecycle, CorruptedCheckpointIsRefusedWithExit2) {
  TempDir dir;
  ASSERT_EQ(run_loom("hit --grid.n 16 --time.t_end 0.05 --output.dir " + (dir / "a").string() + quiet).code, 0);
  const auto file = dir / "a" / "checkpoint.h5";
  invert_middle_bytes(file);  // 64 bytes inside the data
  const RunResult r = run_loom("hit --time.t_end 0.1 --initial.type checkpoint --initial.file " + file.string() +
                               " --output.dir " + (dir / "b").string() + quiet);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("error: initial.file = \"" + file.string() + "\": corrupted", 0), 0u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "b"));
}

TEST(HitLifecycle, RunEndsAtTEndExactly) {
  TempDir dir;
  const auto run = dir / "run";
  const RunResult r = run_loom("hit --grid.n 16 --time.dt 0.03 --time.t_end 0.1 --output.dir " + run.string() + quiet);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto row = last_row(run / "series.csv");
  EXPECT_NEAR(row.at(0), 0.1, 1e-15);
  EXPECT_EQ(row.at(1), 4);              // three steps of 0.03 and one of 0.01
  EXPECT_NEAR(row.at(2), 0.01, 1e-15);  // the last dt
}

}  // namespace
}  // namespace loom::test
