// `loom bh`'s run lifecycle (docs/architecture.md, "Run lifecycle"), as gpe and hit have it: the checkpoint is
// checksummed (a corrupted one is refused with exit 2 and one line) and SIGINT/SIGTERM stop the run after its
// step with a readable checkpoint at the series' last time, the outputs, and the exit code 128 + signal.
#include <gtest/gtest.h>

#include <csignal>
#include <nlohmann/json.hpp>

#include "apps/run_directory_check.hpp"
#include "io/corrupt_file.hpp"
#include "loom/io/checkpoint_file.hpp"

namespace loom::test {
namespace {

const std::string small = "bh --grid.extents 5,5,10 --quiet --output.plots false";

// The time stored in a bh checkpoint, read through the checksum check.
double checkpoint_time(const std::filesystem::path& file) {
  double t = -1;
  io::read_checkpoint_file(file, "initial.file", "loom bh checkpoint 1", "loom bh",
                           [&](const io::Hdf5Reader& h5) { t = h5.attribute_double("/", "time"); });
  return t;
}

TEST(BhLifecycle, CorruptedCheckpointIsRefusedWithExit2) {
  TempDir dir;
  ASSERT_EQ(run_loom(small + " --time.t_end 0.1 --output.dir " + (dir / "a").string()).code, 0);
  const auto file = dir / "a" / "checkpoint.h5";
  EXPECT_NEAR(checkpoint_time(file), 0.1, 1e-12);
  invert_middle_bytes(file);
  const RunResult r = run_loom(small + " --time.t_end 0.2 --initial.type checkpoint --initial.file " +
                               file.string() + " --output.dir " + (dir / "b").string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("error: initial.file = \"" + file.string() + "\": corrupted", 0), 0u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "b"));
}

void stop_by(int sig) {
  TempDir dir;
  const auto run = dir / "run";
  LoomChild child(small + " --time.t_end 1000 --output.fields_every 0.05 --output.every 0.05 --output.dir " +
                      run.string(),
                  dir.path());
  ASSERT_TRUE(child.wait_until([&] { return std::filesystem::exists(run / "fields_0003.h5"); })) << child.err();
  child.signal(sig);
  EXPECT_EQ(child.wait(), 128 + sig) << child.err();
  EXPECT_NE(child.err().find(std::string("bh: stopped by ") + (sig == SIGINT ? "SIGINT" : "SIGTERM")),
            std::string::npos)
      << child.err();
  EXPECT_TRUE(unreadable_files(run).empty()) << joined(unreadable_files(run));
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  EXPECT_EQ(summary["stopped_by"], sig == SIGINT ? "SIGINT" : "SIGTERM");
  EXPECT_EQ(last_row(run / "series.csv").at(0), checkpoint_time(run / "checkpoint.h5"));
  EXPECT_EQ(summary["t"].get<double>(), checkpoint_time(run / "checkpoint.h5"));
  EXPECT_GE(line_count(slurp(run / "series.csv")), 4u);
}

TEST(BhLifecycle, SigintStopsAfterTheStepWithCheckpointAndOutputs) { stop_by(SIGINT); }
TEST(BhLifecycle, SigtermStopsAfterTheStepWithCheckpointAndOutputs) { stop_by(SIGTERM); }

}  // namespace
}  // namespace loom::test
