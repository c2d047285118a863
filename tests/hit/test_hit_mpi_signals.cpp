// Stop signals under `mpiexec -n 2 loom hit` (issue 17, docs/architecture.md "Run lifecycle"). Open MPI 4.1's
// mpiexec answers a SIGINT or SIGTERM of its own by sending SIGCONT to every rank, SIGTERM odls_base_sigkill_timeout
// seconds later (1 by default) and SIGKILL as long again after it; it then exits 1 whatever the ranks returned. A batch system's signal
// reaches the ranks themselves, perhaps only some of them. Either way the ranks agree on the stop at their next
// step (the largest signal number of any rank), write the checkpoint and outputs, and exit 128 + signal, which
// mpiexec passes on when it was not signalled itself. Every file of the run directory parses afterwards.
// Launches mpiexec itself (label mpi).
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>

#include "apps/mpi_signals.hpp"
#include "apps/run_directory_check.hpp"
#include "loom/hit/checkpoint.hpp"

namespace loom::test {
namespace {

std::string long_hit(const std::filesystem::path& run) {
  return "hit --grid.n 32 --time.t_end 1000 --output.every 0.01 --output.fields_every 0.02 --quiet "
         "--output.plots false --output.dir " + run.string();
}

// The run directory after the stop: every file parses, nothing is left beside it (no lock), and the series ends at
// the checkpoint's time.
void expect_clean_stop(const std::filesystem::path& run, const std::string& signal_name) {
  EXPECT_TRUE(unreadable_files(run).empty()) << joined(unreadable_files(run));
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  EXPECT_EQ(summary["stopped_by"], signal_name);
  const auto c = hit::read_checkpoint(run / "checkpoint.h5");
  EXPECT_EQ(last_row(run / "series.csv").at(0), c.time);
}

// A signal to one rank only (as a batch system that signals some processes first): both ranks stop.
TEST(HitMpiSignals, SignalToOneRankStopsEveryRankCleanly) {
  for (const int sig : {SIGINT}) {
    TempDir dir;
    const auto run = dir / "run";
    LoomChild child(long_hit(run), dir.path(), mpiexec_launcher(2));
    ASSERT_TRUE(child.wait_until([&] { return std::filesystem::exists(run / "fields_0002.h5"); })) << child.err();
    const auto ranks = ranks_of(child.pid());
    ASSERT_EQ(ranks.size(), 2u);
    ::kill(ranks.at(1), sig);  // not the rank that writes
    EXPECT_EQ(child.wait(), 128 + sig) << child.err();
    const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    EXPECT_NE(child.err().find("hit: stopped by " + name), std::string::npos) << child.err();
    expect_clean_stop(run, name);
  }
}

// A SIGINT to mpiexec: the ranks get SIGTERM and have odls_base_sigkill_timeout seconds to stop cleanly.
TEST(HitMpiSignals, SigintToMpiexecStopsTheRanksWithinTheKillTimeout) {
  TempDir dir;
  const auto run = dir / "run";
  LoomChild child(long_hit(run), dir.path(), mpiexec_launcher(2, "--mca odls_base_sigkill_timeout 20"));
  ASSERT_TRUE(child.wait_until([&] { return std::filesystem::exists(run / "fields_0002.h5"); })) << child.err();
  child.signal(SIGINT);
  EXPECT_EQ(child.wait(), 1) << child.err();  // Open MPI's own exit status after a signal
  EXPECT_NE(child.err().find("hit: stopped by SIGTERM"), std::string::npos) << child.err();
  expect_clean_stop(run, "SIGTERM");
}

}  // namespace
}  // namespace loom::test
