// `mpiexec -n N loom gpe` as a user meets it (section 4.2 of the DEC-GPE paper; issue 5, item 3): the run on 3 and 4
// ranks writes the outputs of the one-rank run (series, slices, snapshots, checkpoint, summary) to rounding, a
// checkpoint written on N ranks continues on M ranks to the straight one-rank result, and a run directory that
// cannot be made, or more ranks than layers, stop every rank with one message. Launches mpiexec itself (label mpi).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "apps/mpi_runs.hpp"
#include "gpe/relative_difference.hpp"
#include "loom/gpe/run/checkpoint.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::test {
namespace {

// A kappa = 2 vortex on a coarse BCC lattice, perturbed so that the splitting detector fires (slice_z0_split.csv),
// with snapshots every 0.1: every output a run makes.
const std::string problem =
    "--grid.points_per_wavelength 5 --physics.g 50 --initial.kappa 2 --initial.perturbation 0.2 --output.fields_every "
    "0.1 --quiet --output.plots false";
constexpr double tolerance = 1e-12;

TEST(GpeMpiCli, OutputsOnSeveralRanksEqualOneRank) {
  TempDir dir;
  const auto one = dir / "one";
  const RunResult r1 = run_on_ranks(1, "gpe " + problem + " --time.t_end 0.3 --output.dir " + one.string());
  ASSERT_EQ(r1.code, 0) << r1.err;
  for (int ranks : {3, 4}) {
    const auto many = dir / ("ranks" + std::to_string(ranks));
    const RunResult r = run_on_ranks(ranks, "gpe " + problem + " --time.t_end 0.3 --output.dir " + many.string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(line_count(r.out), 2u) << "rank 0 alone reports: " << r.out;
    const std::string what = std::to_string(ranks) + " ranks";
    for (const char* f : {"input.toml", "series.csv", "summary.json", "psi.xdmf", "psi_0000.h5", "psi_0003.h5",
                          "checkpoint.h5", "slice_z0_initial.csv", "slice_z0_split.csv", "slice_z0_final.csv"})
      EXPECT_TRUE(std::filesystem::exists(many / f)) << f << ", " << what;
    EXPECT_LT(csv_difference(many / "series.csv", one / "series.csv", 9), tolerance) << what;  // 9: wall_s
    for (const char* f : {"slice_z0_initial.csv", "slice_z0_split.csv", "slice_z0_final.csv"})
      EXPECT_LT(csv_difference(many / f, one / f), tolerance) << f << ", " << what;
    EXPECT_EQ(slurp(many / "psi.xdmf"), slurp(one / "psi.xdmf")) << what;
    for (const char* f : {"psi_0000.h5", "psi_0002.h5", "psi_0003.h5"}) {
      const io::Hdf5Reader a(many / f), b(one / f);
      for (const char* field : {"points", "fields/re", "fields/im", "fields/density"})
        EXPECT_LT(max_relative_difference(a.read_double(field), b.read_double(field)), tolerance)
            << f << " " << field << ", " << what;
    }
    const auto ca = gpe::read_checkpoint(many / "checkpoint.h5"), cb = gpe::read_checkpoint(one / "checkpoint.h5");
    EXPECT_EQ(ca.step, cb.step);
    EXPECT_EQ(ca.time, cb.time);
    EXPECT_LT(max_relative_difference(ca.current, cb.current), tolerance) << what;
    EXPECT_LT(max_relative_difference(ca.previous, cb.previous), tolerance) << what;
    EXPECT_LT(max_relative_difference(ca.reference, cb.reference), tolerance) << what;
    const auto sa = nlohmann::json::parse(slurp(many / "summary.json")),
               sb = nlohmann::json::parse(slurp(one / "summary.json"));
    EXPECT_EQ(sa["ranks"], ranks);
    EXPECT_EQ(sb["ranks"], 1);
    EXPECT_EQ(sa["steps"], sb["steps"]);
    EXPECT_EQ(sa["dt"], sb["dt"]);
    ASSERT_TRUE(sb["splitting"]["detected"].get<bool>());
    EXPECT_EQ(sa["splitting"]["time"], sb["splitting"]["time"]);
    EXPECT_EQ(sa["splitting"]["dominant_mode"], sb["splitting"]["dominant_mode"]);
    for (const char* key : {"norm", "energy", "mu", "max_abs_psi"})
      EXPECT_NEAR(sa["final"][key].get<double>(), sb["final"][key].get<double>(),
                  tolerance * std::abs(sb["final"][key].get<double>()))
          << key << ", " << what;
  }
}

// Restarts across rank counts: 2 -> 3 and 4 -> 1, each against the straight one-rank run.
TEST(GpeMpiCli, CheckpointsContinueOnAnotherNumberOfRanks) {
  TempDir dir;
  const auto straight = dir / "straight";
  ASSERT_EQ(run_on_ranks(1, "gpe " + problem + " --time.t_end 0.3 --output.dir " + straight.string()).code, 0);
  const auto reference = gpe::read_checkpoint(straight / "checkpoint.h5");
  for (auto [writers, readers] : {std::pair{2, 3}, std::pair{4, 1}}) {
    const std::string tag = std::to_string(writers) + "to" + std::to_string(readers);
    const auto first = dir / ("first" + tag), second = dir / ("second" + tag);
    const RunResult a = run_on_ranks(writers, "gpe " + problem + " --time.t_end 0.15 --output.dir " + first.string());
    ASSERT_EQ(a.code, 0) << a.err;
    const RunResult b =
        run_on_ranks(readers, "gpe " + problem +
                                  " --time.t_end 0.3 --initial.type checkpoint "
                                  "--initial.checkpoint " +
                                  (first / "checkpoint.h5").string() + " --output.dir " + second.string());
    ASSERT_EQ(b.code, 0) << b.err;
    const auto c = gpe::read_checkpoint(second / "checkpoint.h5");
    EXPECT_EQ(c.step, reference.step) << tag;
    EXPECT_EQ(c.time, reference.time) << tag;
    EXPECT_LT(max_relative_difference(c.current, reference.current), tolerance) << tag;
    EXPECT_LT(max_relative_difference(c.previous, reference.previous), tolerance) << tag;
  }
}

TEST(GpeMpiCli, AnUnusableRunDirectoryStopsEveryRankWithOneMessage) {
  TempDir dir;
  const auto taken = dir / "taken";
  std::filesystem::create_directories(taken);
  { std::ofstream(taken / "something") << "x"; }
  const RunResult r = run_on_ranks(3, "gpe " + problem + " --time.t_end 0.1 --output.dir " + taken.string());
  EXPECT_EQ(r.code, 2) << r.err;
  std::size_t errors = 0;
  for (std::size_t at = r.err.find("error: "); at != std::string::npos; at = r.err.find("error: ", at + 1)) ++errors;
  EXPECT_EQ(errors, 1u) << r.err;
  EXPECT_NE(r.err.find("output.dir"), std::string::npos) << r.err;
}

// The mechanics of the scaling benchmark (Fig. 9) on 3 ranks: every rank count timed, the strong problem fixed, the
// weak one growing with N, speedups relative to one rank; tools/fit_scaling.py reads the result (when Debian's
// python3 has numpy). The numbers themselves mean nothing on a small shared machine.
TEST(GpeMpiCli, ScalingBenchmarkTimesEveryRankCount) {
  TempDir dir;
  const auto json = dir / "scaling.json";
  const RunResult r = run_on_ranks(3,
                                   "bench gpe --backend cpu --strong_structures 4,4,9 --weak_structures 3,3,6 "
                                   "--repeats 1 --warmup 0 --json " +
                                       json.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(j["job_ranks"], 3);
  ASSERT_EQ(j["strong"]["points"].size(), 3u);
  ASSERT_EQ(j["weak"]["points"].size(), 3u);
  for (int n = 1; n <= 3; ++n) {
    const auto& strong = j["strong"]["points"][std::size_t(n - 1)];
    const auto& weak = j["weak"]["points"][std::size_t(n - 1)];
    EXPECT_EQ(strong["ranks"], n);
    EXPECT_EQ(strong["dof"], 4 * 4 * 9 * 12);
    EXPECT_GT(strong["seconds_per_step"].get<double>(), 0);
    EXPECT_NEAR(strong["speedup"].get<double>(),
                j["strong"]["points"][0]["seconds_per_step"].get<double>() / strong["seconds_per_step"].get<double>(),
                1e-12);
    EXPECT_EQ(weak["ranks"], n);
    EXPECT_GE(weak["dof"].get<double>(), 0.7 * n * 3 * 3 * 6 * 12);  // about n times the one-rank problem
    EXPECT_LE(weak["dof"].get<double>(), 1.5 * n * 3 * 3 * 6 * 12);
  }
  if (std::system("/usr/bin/python3 -c 'pass' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "no /usr/bin/python3 for the fit";
  const std::string fit = std::string("/usr/bin/python3 ") + LOOM_SOURCE_DIR + "/tools/fit_scaling.py " +
                          json.string() + " --json " + (dir / "fits.json").string() + " > /dev/null";
  ASSERT_EQ(std::system(fit.c_str()), 0);
  const auto fits = nlohmann::json::parse(slurp(dir / "fits.json"));
  const double p_t = fits[0]["strong"]["p_t"].get<double>();
  EXPECT_GE(p_t, 0.0);
  EXPECT_LE(p_t, 1.0);
  EXPECT_TRUE(fits[0]["weak"].contains("p_w"));
}

// Results as `loom bench gpe --json` writes them (bcc, cpu), with these speedups per rank count.
nlohmann::json scaling_results(const std::vector<int>& ranks, double (*strong)(int), double (*weak)(int)) {
  nlohmann::json j;
  j["grid"] = "bcc";
  j["backend"] = "cpu";
  for (int n : ranks) {
    j["strong"]["points"].push_back(
        {{"ranks", n}, {"speedup", strong(n)}, {"structures", nlohmann::json::array({4, 4, 9})}});
    if (weak != nullptr) j["weak"]["points"].push_back({{"ranks", n}, {"speedup", weak(n)}});
  }
  if (weak != nullptr) j["weak"]["growth"] = "z";
  return j;
}

// tools/fit_scaling.py's fits of `results`, read back as JSON.
nlohmann::json fits_of(const nlohmann::json& results) {
  TempDir dir;
  {
    std::ofstream out(dir / "results.json");
    out << results.dump();
  }
  const std::string fit = std::string("/usr/bin/python3 ") + LOOM_SOURCE_DIR + "/tools/fit_scaling.py " +
                          (dir / "results.json").string() + " --json " + (dir / "fits.json").string() + " > /dev/null";
  if (std::system(fit.c_str()) != 0) return {};
  return nlohmann::json::parse(slurp(dir / "fits.json"));
}

// tools/fit_scaling.py recovers the laws' parameters from speedups that follow them exactly (Amdahl p_t = 0.9,
// Gustafson p_w = 0.8), in plain Python (no numpy on the GPU machine).
TEST(GpeScalingFit, RecoversTheParametersOfExactLaws) {
  if (std::system("/usr/bin/python3 -c 'pass' > /dev/null 2>&1") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const auto fits = fits_of(scaling_results(
      {1, 2, 3, 4, 8}, [](int n) { return 1 / (0.1 + 0.9 / n); }, [](int n) { return 0.2 + 0.8 * n; }));
  ASSERT_TRUE(fits.is_array());
  EXPECT_NEAR(fits[0]["strong"]["p_t"].get<double>(), 0.9, 1e-9);
  EXPECT_NEAR(fits[0]["strong"]["max_speedup"].get<double>(), 10.0, 1e-6);
  EXPECT_NEAR(fits[0]["weak"]["p_w"].get<double>(), 0.8, 1e-12);
}

// Speedups past linear (timing noise on a small problem) fit p_t = 1, where Amdahl's law has no limit: the fits
// file says null rather than writing Infinity, which no JSON reader accepts.
TEST(GpeScalingFit, SpeedupsPastLinearHaveNoLimitAndStayJson) {
  if (std::system("/usr/bin/python3 -c 'pass' > /dev/null 2>&1") != 0) GTEST_SKIP() << "no /usr/bin/python3";
  const auto fits = fits_of(scaling_results({1, 2, 3}, [](int n) { return 1.2 * n - 0.2; }, nullptr));
  ASSERT_TRUE(fits.is_array());
  EXPECT_NEAR(fits[0]["strong"]["p_t"].get<double>(), 1.0, 1e-9);
  EXPECT_TRUE(fits[0]["strong"]["max_speedup"].is_null());
}

// The small problem has 5 layers of structures: 6 ranks cannot share them.
TEST(GpeMpiCli, MoreRanksThanLayersIsBadInputAndLeavesNothing) {
  TempDir dir;
  const auto out = dir / "run";
  const RunResult r = run_on_ranks(6, "gpe " + problem + " --time.t_end 0.1 --output.dir " + out.string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("error: 5 z layers cannot be split over 6 ranks"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace loom::test
