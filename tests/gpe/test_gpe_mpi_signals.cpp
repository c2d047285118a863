// Stop signals under `mpiexec -n 2 loom gpe` (issue 17, docs/architecture.md "Run lifecycle"): a signal that reaches
// one rank only, as a batch system's may, stops every rank at their next agreed poll; rank 0 writes the checkpoint
// and outputs, every rank exits 128 + signal and mpiexec passes that on. Every file of the run directory parses
// and the restartable checkpoint holds the series' last state. Launches mpiexec itself (label mpi).
#include <gtest/gtest.h>

#include <csignal>
#include <nlohmann/json.hpp>

#include "apps/mpi_signals.hpp"
#include "apps/run_directory_check.hpp"
#include "loom/gpe/run/checkpoint.hpp"

namespace loom::test {
namespace {

// Minutes of steps on two ranks, with a snapshot every few steps: signalled a few snapshots in.
const std::string long_run =
    "gpe --grid.points_per_wavelength 5 --physics.g 50 --initial.kappa 1 --quiet --output.plots false "
    "--time.t_end 200 --output.fields_every 0.02 --output.every 0.02";

// SIGTERM to rank 1, which writes nothing itself: the stop must travel to rank 0 for the outputs to be written.
TEST(GpeMpiSignals, SignalToOneRankStopsEveryRankCleanly) {
  TempDir dir;
  const auto run = dir / "run";
  LoomChild child(long_run + " --output.dir " + run.string(), dir.path(), mpiexec_launcher(2));
  ASSERT_TRUE(child.wait_until([&] { return std::filesystem::exists(run / "psi_0003.h5"); }, 300)) << child.err();
  const auto ranks = ranks_of(child.pid());
  ASSERT_EQ(ranks.size(), 2u);
  ::kill(ranks.at(1), SIGTERM);
  EXPECT_EQ(child.wait(), 128 + SIGTERM) << child.err();
  EXPECT_NE(child.err().find("gpe: stopped by SIGTERM at step "), std::string::npos) << child.err();
  EXPECT_TRUE(unreadable_files(run).empty()) << joined(unreadable_files(run));
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  EXPECT_EQ(summary["stopped_by"], "SIGTERM");
  EXPECT_EQ(summary["ranks"], 2);
  const auto c = gpe::read_checkpoint(run / "checkpoint.h5");
  EXPECT_EQ(last_row(run / "series.csv").at(0), c.time);
  EXPECT_EQ(summary["steps"].get<std::int64_t>(), c.step);
  EXPECT_GE(line_count(slurp(run / "series.csv")), 4u);
}

}  // namespace
}  // namespace loom::test
