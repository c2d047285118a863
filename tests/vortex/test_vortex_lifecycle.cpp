// `loom vortex`'s run lifecycle (docs/architecture.md, "Run lifecycle"; issue 17) as gpe and hit have it: the
// checkpoint carries a checksum, so a corrupted one is refused with exit 2 naming the key; SIGINT/SIGTERM stop the
// run after its step with a checkpoint that restarts and outputs that read.
#include <gtest/gtest.h>

#include <csignal>
#include <nlohmann/json.hpp>

#include "apps/run_directory_check.hpp"
#include "io/corrupt_file.hpp"
#include "loom/vortex/checkpoint.hpp"

namespace loom::test {
namespace {

const std::string ring = "vortex --ring.core 0.2 --ring.spacing 0.1 --time.dt 0.04 --quiet --output.plots false --backend cpu";

TEST(VortexLifecycle, CorruptedCheckpointIsRefusedWithExit2) {
  TempDir dir;
  ASSERT_EQ(run_loom(ring + " --time.t_end 0.08 --output.dir " + (dir / "a").string()).code, 0);
  const auto file = dir / "a" / "checkpoint.h5";
  invert_middle_bytes(file);  // 64 bytes inside the data
  const RunResult r = run_loom(ring + " --time.t_end 0.2 --initial.type checkpoint --initial.file " + file.string() +
                               " --output.dir " + (dir / "b").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("error: initial.file = \"" + file.string() + "\": corrupted", 0), 0u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "b"));
}

void stop_by(int sig) {
  TempDir dir;
  const auto run = dir / "run";
  // hundreds of steps (minutes), a snapshot every step to see it running
  LoomChild child(ring + " --time.t_end 40 --output.fields_every 1 --output.every 1 --output.dir " + run.string(),
                  dir.path());
  ASSERT_TRUE(child.wait_until([&] { return std::filesystem::exists(run / "particles_0003.h5"); })) << child.err();
  child.signal(sig);
  EXPECT_EQ(child.wait(), 128 + sig) << child.err();
  EXPECT_NE(child.err().find(std::string("vortex: stopped by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM")),
            std::string::npos)
      << child.err();
  EXPECT_TRUE(unreadable_files(run).empty()) << joined(unreadable_files(run));
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  EXPECT_EQ(summary["stopped_by"], sig == SIGINT ? "SIGINT" : "SIGTERM");
  const auto c = vortex::read_checkpoint(run / "checkpoint.h5");  // restartable, at the series' last time
  EXPECT_EQ(last_row(run / "series.csv").at(0), c.time);
  EXPECT_GT(c.step, 2);
  EXPECT_LT(c.time, 40.0);
}

TEST(VortexLifecycle, SigintStopsAfterTheStepWithCheckpointAndOutputs) { stop_by(SIGINT); }
TEST(VortexLifecycle, SigtermStopsAfterTheStepWithCheckpointAndOutputs) { stop_by(SIGTERM); }

}  // namespace
}  // namespace loom::test
