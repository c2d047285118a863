// `loom vortex`'s run lifecycle (docs/architecture.md, "Run lifecycle"; issue 17) as gpe and hit have it: the
// checkpoint carries a checksum, so a corrupted one is refused with exit 2 naming the key; SIGINT/SIGTERM stop the
// run after its step with a checkpoint that restarts and outputs that read; a run stopped inside an interval of
// physics.spreading = reinit restarts into the same steps as the run that was not stopped.
#include <gtest/gtest.h>

#include <csignal>
#include <sstream>
#include <nlohmann/json.hpp>

#include "apps/run_directory_check.hpp"
#include "io/corrupt_file.hpp"
#include "loom/io/parameters.hpp"
#include "loom/vortex/checkpoint.hpp"
#include "loom/vortex/config.hpp"
#include "loom/vortex/run.hpp"
#include "vortex/series_energy.hpp"

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

// Taylor-Green (amplitude 1: nonlinear) with physics.spreading reinit (auto), reinit.every 5, 12 steps to 0.6. One
// run is stopped after step 7, inside the interval 5..10 whose first half of the diffusion it carries (as a SIGINT
// stops it: VortexRun::finish with the signal); its checkpoint restarts to 0.6. The restart must end where the run
// that was not stopped does, to rounding: the same interval ended at step 10 with the same diffusion, no extra
// reinitialisation (before this session the stop ended the interval early and the restart owed its half again).
TEST(VortexLifecycle, RestartInsideASpreadingIntervalContinuesTheSameSteps) {
  TempDir dir;
  const std::string keys = "--particles.n 12 --initial.type taylor_green --physics.nu 0.05 --time.dt 0.05 "
                           "--reinit.every 5 --output.every 1 --fmm.order 6 --fmm.theta 0.6 --quiet true "
                           "--output.plots false --backend cpu --output.fields false";
  ASSERT_EQ(run_loom("vortex " + keys + " --time.t_end 0.6 --output.dir " + (dir / "whole").string()).code, 0);
  {
    io::Parameters p = vortex::vortex_parameters();
    std::istringstream words(keys + " --time.t_end 0.6 --output.dir " + (dir / "stopped").string());
    for (std::string key, value; words >> key >> value;) p.set_text(key.substr(2), value, io::ParamSource::flag);
    vortex::VortexRun run(vortex::make_vortex_config(p), p.to_toml());
    run.open_outputs(p);
    run.record();
    run.begin();
    for (int k = 0; k < 7; ++k) run.step();
    run.finish(SIGINT);
  }
  const auto stopped = vortex::read_checkpoint(dir / "stopped" / "checkpoint.h5");
  ASSERT_EQ(stopped.step, 7);
  EXPECT_TRUE(stopped.interval.open);
  EXPECT_NEAR(stopped.interval.start_time, 0.25, 1e-15);
  const RunResult r = run_loom("vortex " + keys + " --time.t_end 0.6 --initial.type checkpoint --initial.file " +
                               (dir / "stopped" / "checkpoint.h5").string() + " --output.dir " +
                               (dir / "second").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto whole = vortex::read_checkpoint(dir / "whole" / "checkpoint.h5");
  const auto second = vortex::read_checkpoint(dir / "second" / "checkpoint.h5");
  ASSERT_EQ(whole.step, 12);
  ASSERT_EQ(second.step, 12);
  ASSERT_EQ(second.particles.size(), whole.particles.size());
  double dx = 0, da = 0, a = 0;
  for (std::size_t i = 0; i < whole.particles.x.size(); ++i) {
    dx = std::max(dx, std::sqrt(fmm::norm2(second.particles.x[i] - whole.particles.x[i])));
    da = std::max(da, std::sqrt(fmm::norm2(second.particles.alpha[i] - whole.particles.alpha[i])));
    a = std::max(a, std::sqrt(fmm::norm2(whole.particles.alpha[i])));
  }
  EXPECT_LT(dx, 1e-12);
  EXPECT_LT(da, 1e-12 * a);
  // the stopped run's last row is the restart's first: the same copy of the cores with the pending diffusion
  const auto before = vortex::test::series_energies(dir / "stopped" / "series.csv");
  const auto after = vortex::test::series_energies(dir / "second" / "series.csv");
  ASSERT_EQ(before.rbegin()->first, 0.35);
  ASSERT_EQ(after.begin()->first, 0.35);
  EXPECT_NEAR(after.begin()->second, before.rbegin()->second, 1e-13 * before.rbegin()->second);
  EXPECT_NEAR(after.rbegin()->second, vortex::test::series_energies(dir / "whole" / "series.csv").rbegin()->second,
              1e-12 * after.rbegin()->second);
}
TEST(VortexLifecycle, SigtermStopsAfterTheStepWithCheckpointAndOutputs) { stop_by(SIGTERM); }

}  // namespace
}  // namespace loom::test
