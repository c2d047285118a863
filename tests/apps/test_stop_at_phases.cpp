// Commands without time steps stop at their phase boundaries (issue 17, docs/architecture.md "Run lifecycle"):
// `loom fmm` between set-up, evaluation, check and writing, `loom lattice dispersion` between blocks of
// directions. A first SIGINT/SIGTERM ends the run there with one line saying that nothing was written, exit
// 128 + signal, and no file left; a second signal ends it at once, again leaving nothing (tested on fmm, whose
// phases last seconds: a block of directions ends before a second signal could reliably arrive).
#include <gtest/gtest.h>

#include <csignal>

#include "apps/run_directory_check.hpp"

namespace loom::test {
namespace {

// Everything in `dir` but the child's own stdout and stderr files.
std::vector<std::string> left_in(const std::filesystem::path& dir) {
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name != "child.out" && name != "child.err") left.push_back(name);
  }
  return left;
}

// A CPU FMM of 200000 bodies: a second or more of evaluation after the set-up line, on any machine.
std::string long_fmm(const TempDir& dir) {
  return "fmm --n 200000 --backend cpu --output " + (dir / "out.csv").string() + " --json " +
         (dir / "out.json").string();
}

void fmm_stops_by(int sig) {
  TempDir dir;
  LoomChild child(long_fmm(dir), dir.path());
  ASSERT_TRUE(child.wait_until([&] { return child.out().find("loom fmm:") != std::string::npos; })) << child.err();
  child.signal(sig);
  EXPECT_EQ(child.wait(), 128 + sig) << child.err();
  const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
  EXPECT_NE(child.err().find("fmm: stopped by " + name + " after "), std::string::npos) << child.err();
  EXPECT_NE(child.err().find("; no output written\n"), std::string::npos) << child.err();
  EXPECT_TRUE(left_in(dir.path()).empty()) << joined(left_in(dir.path()));
}

TEST(StopAtPhases, FmmStopsOnSigintWithoutOutput) { fmm_stops_by(SIGINT); }
TEST(StopAtPhases, FmmStopsOnSigtermWithoutOutput) { fmm_stops_by(SIGTERM); }

// The start line is printed once the evaluation has begun (after the set-up's stop check), so both signals
// land inside it; order 16 makes it last many seconds (the run is killed at the second signal, so this costs
// nothing), a window no scheduling delay of a loaded machine closes.
TEST(StopAtPhases, FmmSecondSignalEndsAtOnce) {
  TempDir dir;
  LoomChild child(long_fmm(dir) + " --p 16", dir.path());
  ASSERT_TRUE(child.wait_until([&] { return child.out().find("loom fmm:") != std::string::npos; }, 300))
      << child.err();
  child.signal(SIGINT);
  ASSERT_TRUE(child.wait_until([&] { return child.err().find("loom: SIGINT") != std::string::npos; }, 300))
      << child.err();
  child.signal(SIGINT);
  EXPECT_EQ(child.wait(), -1);
  EXPECT_EQ(child.killed_by(), SIGINT);
  EXPECT_EQ(child.err().find("fmm: stopped by"), std::string::npos) << child.err();
  EXPECT_TRUE(left_in(dir.path()).empty()) << joined(left_in(dir.path()));
}

// Millions of directions of C15's Bloch matrices: minutes of sweep, stopped within a block.
std::string long_dispersion(const TempDir& dir) {
  return "lattice dispersion --grid.type c15 --dispersion.directions 3000000 --plot false --output.dir " +
         (dir / "run").string();
}

void dispersion_stops_by(int sig) {
  TempDir dir;
  LoomChild child(long_dispersion(dir), dir.path());
  ASSERT_TRUE(child.wait_until([&] { return child.err().find("directions on the c15 grid") != std::string::npos; }))
      << child.err();
  child.signal(sig);
  EXPECT_EQ(child.wait(), 128 + sig) << child.err();
  const std::string name = sig == SIGINT ? "SIGINT" : "SIGTERM";
  EXPECT_NE(child.err().find("lattice dispersion: stopped by " + name + " during the c15 sweep; nothing written\n"),
            std::string::npos)
      << child.err();
  EXPECT_TRUE(left_in(dir.path()).empty()) << joined(left_in(dir.path()));
}

TEST(StopAtPhases, DispersionStopsOnSigintWithoutOutput) { dispersion_stops_by(SIGINT); }
TEST(StopAtPhases, DispersionStopsOnSigtermWithoutOutput) { dispersion_stops_by(SIGTERM); }

}  // namespace
}  // namespace loom::test
