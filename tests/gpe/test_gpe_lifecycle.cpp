// `loom gpe`'s run lifecycle (docs/architecture.md, "Run lifecycle"; issue 17): a non-finite state stops the run
// with exit 1 and writes no NaN; a corrupted checkpoint is refused with exit 2; the run ends at t_end exactly;
// SIGINT/SIGTERM stop it with a checkpoint and readable outputs; a run directory in use is refused and an
// overwritten one keeps nothing of the old run.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/run_directory_check.hpp"
#include "io/corrupt_file.hpp"
#include "loom/gpe/run/checkpoint.hpp"

namespace loom::test {
namespace {

const std::string small =
    "--grid.points_per_wavelength 5 --physics.g 50 --initial.kappa 1 --quiet --output.plots false";
// Long enough to be signalled while it runs (about a minute on two cores), with a snapshot every few steps.
const std::string long_run = small + " --time.t_end 200 --output.fields_every 0.02 --output.every 0.02";

TEST(GpeLifecycle, NonFiniteStateStopsWithExit1AndNoNanWritten) {
  TempDir dir;
  const auto run = dir / "run";
  const RunResult r =
      run_loom("gpe " + small + " --time.unsafe true --time.dt 0.2 --time.t_end 40 --output.dir " + run.string());
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("gpe: the norm of psi is not finite at step "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(", t = "), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(run / "summary.json"));                  // no result is claimed
  EXPECT_TRUE(unreadable_files(run).empty()) << joined(unreadable_files(run));  // no nan in series.csv
  EXPECT_GE(line_count(slurp(run / "series.csv")), 2u);                         // the good rows are kept
}

TEST(GpeLifecycle, CorruptedCheckpointIsRefusedWithExit2) {
  TempDir dir;
  ASSERT_EQ(run_loom("gpe " + small + " --time.t_end 0.1 --output.dir " + (dir / "a").string()).code, 0);
  const auto file = dir / "a" / "checkpoint.h5";
  invert_middle_bytes(file);  // 64 bytes inside the data
  const RunResult r = run_loom("gpe " + small + " --time.t_end 0.2 --initial.type checkpoint --initial.checkpoint " +
                               file.string() + " --output.dir " + (dir / "b").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("error: initial.checkpoint = \"" + file.string() + "\": corrupted", 0), 0u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "b"));
}

TEST(GpeLifecycle, RunEndsAtTEndExactly) {
  TempDir dir;
  const double t_end = 0.1234567;  // not a whole number of steps
  const auto run = dir / "run";
  const RunResult r = run_loom("gpe " + small + " --time.t_end 0.1234567 --output.dir " + run.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  EXPECT_NEAR(summary["t_end"].get<double>(), t_end, 1e-14);
  EXPECT_NEAR(last_row(run / "series.csv").at(0), t_end, 1e-14);
  // The checkpoint holds the leapfrog pair of the last whole step, so that a restart continues on the dt grid.
  const auto c = gpe::read_checkpoint(run / "checkpoint.h5");
  EXPECT_LT(c.time, t_end);
  EXPECT_GT(c.time, t_end - c.dt);
  EXPECT_NEAR(c.time, double(c.step) * c.dt, 1e-12);
  EXPECT_EQ(summary["steps"].get<std::int64_t>(), c.step + 1);
}

void stop_by(int sig) {
  TempDir dir;
  const auto run = dir / "run";
  LoomChild child("gpe " + long_run + " --output.dir " + run.string(), dir.path());
  ASSERT_TRUE(child.wait_until([&] { return std::filesystem::exists(run / "psi_0003.h5"); })) << child.err();
  child.signal(sig);
  EXPECT_EQ(child.wait(), 128 + sig) << child.err();
  EXPECT_NE(child.err().find(std::string("gpe: stopped by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM")),
            std::string::npos)
      << child.err();
  EXPECT_TRUE(unreadable_files(run).empty()) << joined(unreadable_files(run));
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  EXPECT_EQ(summary["stopped_by"], sig == SIGINT ? "SIGINT" : "SIGTERM");
  const auto c = gpe::read_checkpoint(run / "checkpoint.h5");  // restartable, at the series' last time
  EXPECT_EQ(last_row(run / "series.csv").at(0), c.time);
  EXPECT_GE(line_count(slurp(run / "series.csv")), 4u);
}

TEST(GpeLifecycle, SigintStopsAfterTheStepWithCheckpointAndOutputs) { stop_by(SIGINT); }
TEST(GpeLifecycle, SigtermStopsAfterTheStepWithCheckpointAndOutputs) { stop_by(SIGTERM); }

TEST(GpeLifecycle, SecondSignalEndsAtOnceLeavingNoTemporaryFile) {
  TempDir dir;
  const auto run = dir / "run";
  LoomChild child("gpe " + long_run + " --output.dir " + run.string(), dir.path());
  ASSERT_TRUE(child.wait_until([&] { return std::filesystem::exists(run / "psi_0002.h5"); })) << child.err();
  child.signal(SIGINT);
  ASSERT_TRUE(child.wait_until([&] { return child.err().find("loom: SIGINT") != std::string::npos; }, 30));
  child.signal(SIGINT);  // while the first is being handled: no waiting for the checkpoint
  EXPECT_EQ(child.wait(), -1) << child.err();
  EXPECT_EQ(child.killed_by(), SIGINT);
  EXPECT_TRUE(unreadable_files(run).empty()) << joined(unreadable_files(run));  // no tmp file, no lock
}

TEST(GpeLifecycle, DirectoryInUseIsRefusedAndOverwriteReplacesItWhole) {
  TempDir dir;
  const auto run = dir / "run";
  LoomChild first("gpe " + long_run + " --output.dir " + run.string(), dir.path());
  ASSERT_TRUE(first.wait_until([&] { return std::filesystem::exists(run / "psi_0004.h5"); })) << first.err();
  const RunResult second =
      run_loom("gpe " + small + " --time.t_end 0.05 --output.overwrite true --output.dir " + run.string());
  EXPECT_EQ(second.code, 2) << second.err;
  EXPECT_EQ(line_count(second.err), 1u) << second.err;
  EXPECT_NE(second.err.find("output.dir = \"" + run.string() + "\": in use by another run"), std::string::npos)
      << second.err;
  first.signal(SIGTERM);
  EXPECT_EQ(first.wait(), 143) << first.err();
  const RunResult again = run_loom("gpe " + small + " --time.t_end 0.05 --output.dir " + run.string());
  EXPECT_EQ(again.code, 2) << again.err;  // not empty, no overwrite asked
  const RunResult replaced = run_loom("gpe " + small +
                                      " --time.t_end 0.05 --output.fields_every 0 "
                                      "--output.overwrite true --output.dir " +
                                      run.string());
  ASSERT_EQ(replaced.code, 0) << replaced.err;
  EXPECT_FALSE(std::filesystem::exists(run / "psi_0004.h5"));  // nothing of the old run stays
  EXPECT_TRUE(std::filesystem::exists(run / "psi_0001.h5"));   // the new run's initial and final fields
  EXPECT_TRUE(unreadable_files(run).empty()) << joined(unreadable_files(run));
}

}  // namespace
}  // namespace loom::test
