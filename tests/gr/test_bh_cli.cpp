// `loom bh` as a user meets it: bad input rejected with one line naming the key (exit 2, nothing written), a short
// run's outputs, a restart from its checkpoint that continues exactly like one uninterrupted run, and the
// per-module profile of `loom bench bh`.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "apps/run_loom.hpp"
#include "loom/io/hdf5_file.hpp"

namespace loom::test {
namespace {

const std::string quiet = " --quiet --output.plots false";
const std::string small = " --grid.extents 5,5,10";

TEST(BhCli, BadInputIsRejectedBeforeAnythingIsWritten) {
  TempDir dir;
  const std::string out = (dir / "run").string();
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--physics.spin 0.6,0.6,0.6",
       "error: physics.spin = \"0.6,0.6,0.6\": expected three comma-separated numbers chi_x,chi_y,chi_z with |chi| < "
       "1\n"},
      {"--physics.spin 0,0,1", ""},
      {"--physics.spin 0.1,0.2", ""},
      {"--physics.mass 0", "error: physics.mass = 0.0: expected a number in (0, 1000000]\n"},
      {"--time.t_end 1e300", ""},
      {"--time.dt 1e300", ""},
      {"--output.every 1e300", "error: output.every = 1e+300: expected 0 or a time <= time.t_end = 10\n"},
      {"--output.checkpoint_every 1e300", ""},
      {"--grid.extents 4,5,10",
       "error: grid.extents = \"4,5,10\": expected three integers N_r,N_theta,N_phi with 5 <= N_r <= 200, 5 <= "
       "N_theta <= 200 and N_phi = 2 N_theta\n"},
      {"--grid.extents 201,5,10", ""},
      {"--grid.extents 5,5,11", ""},
      {"--grid.extents 5,x,10", ""},
      {"--grid.radii 1.62,12,6",
       "error: grid.radii = \"1.62,12,6\": expected at least two increasing positive numbers (the shells' "
       "boundaries)\n"},
      {"--grid.radii 6", ""},
      {"--grid.map cubic",
       "error: grid.map = \"cubic\": expected linear, log or inverse (every shell), or 2 of them comma-separated (one "
       "per shell from the innermost)\n"},
      {"--grid.map inverse,linear,log", ""},  // three maps for two shells
      {"--grid.map inverse,", ""},
      {"--boundary.outer sommerfeld", ""},
      {"--boundary.interface strong", ""},
      {"--filter.target state", ""},
      {"--filter.angular spin", "error: filter.angular = \"spin\": expected one of scalar, tensor\n"},
      {"--filter.l_keep 2",  // l_max 4: the tensor filter (the default) keeps at most l_max - 3
       "error: filter.l_keep = 2: expected -1 or an integer in [0, 1] with filter.angular tensor (l_max - 3; "
       "filter.angular scalar allows up to l_max = 4)\n"},
      {"--filter.l_keep 5 --filter.angular scalar",
       "error: filter.l_keep = 5: expected -1 or an integer in [0, 4] (l_max = N_theta - 1)\n"},
      {"--damping.gamma1 -2", ""},
      {"--damping.gamma2 -0.5", ""},
      {"--initial.type checkpoint", ""},
      {"--initial.type checkpoint --initial.file /nonexistent.h5",
       "error: initial.file = \"/nonexistent.h5\": no such file\n"},
  };
  for (const Case& c : cases) {
    const RunResult r = run_loom("bh" + small + " --output.dir " + out + quiet + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << c.args << ": " << r.err;
    if (!c.message.empty()) {
      EXPECT_EQ(r.err, c.message);
    }
    EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
  }
  // An inner radius outside the horizon (r_+ = 1.84 m for |chi| = 0.54): excision would need incoming data.
  const RunResult outside = run_loom("bh" + small + " --grid.radii 2.5,6,12 --output.dir " + out + quiet);
  EXPECT_EQ(outside.code, 2) << outside.err;
  EXPECT_EQ(line_count(outside.err), 1u) << outside.err;
  EXPECT_EQ(outside.err.rfind("error: grid.radii = 2.5,6,12: the inner radius 2.5 m", 0), 0u) << outside.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(BhCli, ShortRunWritesEveryOutput) {
  TempDir dir;
  const auto run = dir / "run";
  const RunResult r = run_loom("bh" + small + " --time.t_end 0.5 --time.dt 0.05 --output.every 0.1 --output.dir " +
                               run.string() + quiet);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"input.toml", "series.csv", "summary.json", "checkpoint.h5", "fields.xdmf", "fields_0000.h5",
                        "fields_0001.h5"})
    EXPECT_TRUE(std::filesystem::exists(run / f)) << f;
  const std::string series = slurp(run / "series.csv");
  EXPECT_EQ(series.rfind("t,gauge_constraint,three_index_constraint,normalized_constraint,psi_error,pi_error,"
                         "phi_error,excision_speed\n",
                         0),
            0u)
      << series.substr(0, 120);
  EXPECT_EQ(line_count(series), 7u);  // header, t = 0 and five rows
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  EXPECT_NEAR(summary["t"].get<double>(), 0.5, 1e-12);
  EXPECT_EQ(summary["points"].get<int>(), 2 * 5 * 5 * 10);
  // the exact data has C_a = 0 to rounding: eq. 40 with the analytic gauge source
  EXPECT_LT(summary["initial"]["gauge_constraint"].get<double>(), 1e-13);
  // Each shell a curvilinear block of N_r x N_theta x (N_phi + 1) points, the last phi slice the first again, the
  // points on the shell's radii.
  const std::string xdmf = slurp(run / "fields.xdmf");
  EXPECT_NE(xdmf.find("TopologyType=\"3DSMesh\" Dimensions=\"11 5 5\""), std::string::npos) << xdmf;
  EXPECT_NE(xdmf.find("fields_0001.h5:/shell_1/fields/phi_error"), std::string::npos) << xdmf;
  const io::Hdf5Reader h5(run / "fields_0001.h5");
  ASSERT_EQ(h5.dims("shell_1/points"), (std::vector<std::size_t>{11, 5, 5, 3}));
  const auto x = h5.read_double("shell_1/points");
  const std::size_t slice = 3 * 5 * 5;
  for (std::size_t i = 0; i < slice; ++i) EXPECT_EQ(x[10 * slice + i], x[i]) << i;
  for (std::size_t p = 0; p < x.size() / 3; ++p) {
    const double radius = std::sqrt(x[3 * p] * x[3 * p] + x[3 * p + 1] * x[3 * p + 1] + x[3 * p + 2] * x[3 * p + 2]);
    EXPECT_GE(radius, 6 - 1e-12);
    EXPECT_LE(radius, 12 + 1e-12);
  }
}

std::vector<double> shells_of(const std::filesystem::path& checkpoint) {
  const io::Hdf5Reader h5(checkpoint);
  std::vector<double> all;
  for (const char* name : {"shell_0", "shell_1"}) {
    const auto v = h5.read_double(name);
    all.insert(all.end(), v.begin(), v.end());
  }
  return all;
}

TEST(BhCli, RestartContinuesExactly) {
  TempDir dir;
  const auto straight = dir / "straight", first = dir / "first", second = dir / "second";
  const std::string common = "bh" + small + " --time.dt 0.05 --output.fields false" + quiet;
  ASSERT_EQ(run_loom(common + " --time.t_end 0.4 --output.dir " + straight.string()).code, 0);
  ASSERT_EQ(run_loom(common + " --time.t_end 0.2 --output.dir " + first.string()).code, 0);
  const RunResult r = run_loom(common + " --time.t_end 0.4 --initial.type checkpoint --initial.file " +
                               (first / "checkpoint.h5").string() + " --output.dir " + second.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto a = shells_of(straight / "checkpoint.h5"), b = shells_of(second / "checkpoint.h5");
  ASSERT_EQ(a.size(), b.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) differ += a[i] != b[i];
  EXPECT_EQ(differ, 0u);
  const auto sa = nlohmann::json::parse(slurp(straight / "summary.json"));
  const auto sb = nlohmann::json::parse(slurp(second / "summary.json"));
  EXPECT_EQ(sa["steps"].get<int>(), 8);
  EXPECT_EQ(sb["steps"].get<int>(), 8);
  EXPECT_EQ(sa["t"].get<double>(), sb["t"].get<double>());
  // a checkpoint of another grid is refused
  const RunResult wrong = run_loom("bh --grid.extents 6,5,10 --time.t_end 0.4 --initial.type checkpoint "
                                   "--initial.file " + (first / "checkpoint.h5").string() + " --output.dir " +
                                   (dir / "wrong").string() + quiet);
  EXPECT_EQ(wrong.code, 2) << wrong.err;
  EXPECT_NE(wrong.err.find("expected a checkpoint of"), std::string::npos) << wrong.err;
}

TEST(BhCli, BenchProfilesEveryModule) {
  TempDir dir;
  const auto json = dir / "bench.json";
  const RunResult r = run_loom("bench bh" + small + " --backend cpu --steps 2 --warmup 1 --json " + json.string());
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* module : {"Jacobian", "Deriv", "Filter", "GHEqns", "ApplyBCs", "Other", "step"})
    EXPECT_NE(r.out.find(module), std::string::npos) << module;
  const auto j = nlohmann::json::parse(slurp(json));
  ASSERT_GE(j["profiles"].size(), 1u);
  for (const auto& p : j["profiles"]) {
    double sum = 0;
    for (const auto& [name, seconds] : p["modules_s_per_step"].items()) {
      EXPECT_GE(seconds.get<double>(), 0.0) << name;
      sum += seconds.get<double>();
    }
    EXPECT_NEAR(sum, p["step_s"].get<double>(), 1e-9 * p["step_s"].get<double>());
    EXPECT_GT(p["modules_s_per_step"]["GHEqns"].get<double>(), 0.0);
  }
  // the pies beside the JSON where matplotlib is installed (tools/plot_bench_bh.py)
  if (r.err.find("no plot:") == std::string::npos) {
    EXPECT_TRUE(std::filesystem::exists(dir / "bench_pies.png"));
  }
}

}  // namespace
}  // namespace loom::test
