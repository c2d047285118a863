// `mpiexec -n N loom vortex` (src/loom/vortex/ranks_run.hpp) against the one-process run: a ring's speed, its
// impulse and the particles' last velocities and stretching agree within the FMM's error on 2 and 3 ranks (the
// velocities differ only by how the ranks' trees cut the FMM's far field); a checkpoint written on 2 ranks
// continues on 3 as the one-process run goes on; bad input exits 2 with one line before anything is written.
#include "vortex/mpi_compare.hpp"

namespace loom::test {
namespace {

const std::string ring = "vortex --ring.core 0.2 --ring.spacing 0.1 --time.dt 0.04 --output.every 1 --quiet "
                         "--output.plots false --backend cpu";

// p 10, theta 0.4: the FMM's relative error is ~1e-7 (tests/fmm); a rank missing a share of the far field, or
// stepping with stale rates, is off by far more than 1e-5.
constexpr double fmm_bound = 1e-5;

TEST(VortexMpiCli, RingOnTwoAndThreeRanksEqualsOneProcess) {
  TempDir dir;
  const std::string args = ring + " --time.t_end 0.08";
  ASSERT_EQ(run_loom(args + " --output.dir " + (dir / "one").string()).code, 0);
  const nlohmann::json one = summary_of(dir / "one");
  for (int ranks : {2, 3}) {
    const auto out = dir / ("ranks" + std::to_string(ranks));
    const RunResult r = run_loom_on_ranks(ranks, args + " --output.dir " + out.string());
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = summary_of(out);
    EXPECT_EQ(j["ranks"], ranks);
    ASSERT_EQ(j["particles_per_rank"].size(), std::size_t(ranks));
    EXPECT_EQ(j["particles"], one["particles"]);
    EXPECT_EQ(j["steps"], one["steps"]);
    const double speed = one["ring_speed"].get<double>();
    EXPECT_NEAR(j["ring_speed"].get<double>(), speed, fmm_bound * speed) << ranks;
    const double impulse = one["invariants"]["final"]["impulse"][2].get<double>();
    EXPECT_NEAR(j["invariants"]["final"]["impulse"][2].get<double>(), impulse, fmm_bound * impulse) << ranks;
    expect_same_particles(out, dir / "one", fmm_bound);
    EXPECT_EQ(line_count(slurp(out / "series.csv")), line_count(slurp(dir / "one" / "series.csv")));
  }
}

TEST(VortexMpiCli, CheckpointOfTwoRanksContinuesOnThree) {
  TempDir dir;
  ASSERT_EQ(run_loom(ring + " --time.t_end 0.12 --output.dir " + (dir / "one").string()).code, 0);
  const RunResult first = run_loom_on_ranks(2, ring + " --time.t_end 0.04 --output.dir " + (dir / "a").string());
  ASSERT_EQ(first.code, 0) << first.err;
  const RunResult second =
      run_loom_on_ranks(3, ring + " --time.t_end 0.12 --initial.type checkpoint --initial.file " +
                               (dir / "a" / "checkpoint.h5").string() + " --output.dir " + (dir / "b").string());
  ASSERT_EQ(second.code, 0) << second.err;
  expect_same_particles(dir / "b", dir / "one", fmm_bound);
}

TEST(VortexMpiCli, BadInputExitsTwoWithOneLine) {
  TempDir dir;
  const std::string out = (dir / "run").string();
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--ring.core 0", "error: ring.core = 0.0: expected a number > 0\n"},
      {"--stretching transpose",
       "error: stretching = \"transpose\": expected \"classical\" under mpiexec (2 ranks): the transpose form's "
       "Gaussian sum runs in one process only\n"},
  };
  for (const Case& c : cases) {
    const RunResult r = run_loom_on_ranks(2, ring + " --output.dir " + out + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.err;
    // loom's one line first (rank 0's alone; mpiexec adds its own banner after it)
    EXPECT_EQ(r.err.substr(0, c.message.size()), c.message) << c.args;
    EXPECT_EQ(r.err.find("error:", 1), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
  }
}

}  // namespace
}  // namespace loom::test
