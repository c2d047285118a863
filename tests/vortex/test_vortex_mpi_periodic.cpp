// `mpiexec -n 2 loom vortex` in the periodic box (Taylor-Green with viscosity and reinitialisation every 2 steps,
// so that the gather to rank 0, its reinitialisation and the partitioning afresh are crossed): the energy, the
// dissipation and the particles' last velocities agree with the one-process run within the FMM's error.
#include "vortex/mpi_compare.hpp"

namespace loom::test {
namespace {

// The cores spread at every step here: the run ends on an AB2 step whose rates the checkpoints compare.
TEST(VortexMpiPeriodic, TaylorGreenOnTwoRanksEqualsOneProcess) {
  TempDir dir;
  const std::string args = "vortex --initial.type taylor_green --particles.n 10 --physics.nu 0.01 --time.t_end 0.03 "
                           "--time.dt 0.01 --reinit.every 2 --fmm.order 6 --fmm.image_levels 2 --quiet "
                           "--physics.spreading steps --output.plots false --backend cpu --output.dir ";
  ASSERT_EQ(run_loom(args + (dir / "one").string()).code, 0);
  const RunResult r = run_loom_on_ranks(2, args + (dir / "two").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json one = summary_of(dir / "one"), two = summary_of(dir / "two");
  EXPECT_EQ(two["reinit"]["count"], 1);
  // p 6: the FMM's relative error is ~1e-5; a missing image or rank is off by far more than 1e-4
  for (const char* key : {"energy", "dissipation"}) {
    const double v = one["final"][key].get<double>();
    EXPECT_NEAR(two["final"][key].get<double>(), v, 1e-4 * v) << key;
  }
  expect_same_particles(dir / "two", dir / "one", 1e-4);
}

// The default spreading (reinit, as reinit.every > 0) on ranks: rank 0's run applies the halves at the
// reinitialisations between the ranks' steps (the first at t = 0, both at step 2, the last interval's end at step 3)
// and a row inside an interval (output.every 1) applies the pending half to a copy, as one process does.
TEST(VortexMpiPeriodic, SpreadingAtReinitialisationsOnTwoRanksEqualsOneProcess) {
  TempDir dir;
  const std::string args = "vortex --initial.type taylor_green --particles.n 10 --physics.nu 0.01 --time.t_end 0.03 "
                           "--time.dt 0.01 --reinit.every 2 --output.every 1 --fmm.order 6 --fmm.image_levels 2 "
                           "--quiet --output.plots false --backend cpu --output.dir ";
  ASSERT_EQ(run_loom(args + (dir / "one").string()).code, 0);
  const RunResult r = run_loom_on_ranks(2, args + (dir / "two").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json one = summary_of(dir / "one"), two = summary_of(dir / "two");
  EXPECT_EQ(one["spreading"], "reinit");
  EXPECT_EQ(two["reinit"]["count"], 4);
  EXPECT_EQ(one["reinit"]["count"], 4);
  for (const char* key : {"energy", "dissipation"}) {
    const double v = one["final"][key].get<double>();
    EXPECT_NEAR(two["final"][key].get<double>(), v, 1e-4 * v) << key;
  }
  const auto a = vortex::read_checkpoint(dir / "two" / "checkpoint.h5");
  const auto b = vortex::read_checkpoint(dir / "one" / "checkpoint.h5");
  EXPECT_LT(relative_difference(a.particles.alpha, b.particles.alpha), 1e-4);
}

}  // namespace
}  // namespace loom::test
