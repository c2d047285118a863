// `loom gpe` as a user meets it: bad input rejected with one line naming the key (exit 2, no run directory
// left behind), a short run's outputs, a restart from its checkpoint that continues exactly, and the written
// input.toml re-running to the same result.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numbers>
#include <vector>

#include "apps/run_loom.hpp"
#include "loom/gpe/model/stationary_vortex.hpp"
#include "loom/gpe/run/checkpoint.hpp"
#include "loom/io/parameters.hpp"

namespace loom::test {
namespace {

// A small, fast problem: kappa = 1 vortex on a coarse BCC lattice.
const std::string small =
    "--grid.points_per_wavelength 5 --physics.g 50 --initial.kappa 1 --quiet --output.plots false";

TEST(GpeCli, BadInputIsRejectedBeforeAnythingIsWritten) {
  TempDir dir;
  const std::string out = (dir / "run").string();
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--grid.type hex", "error: grid.type = \"hex\": expected one of cubic, fcc, bcc, a15, c15, z\n"},
      {"--initial.kappa 1.5", "error: initial.kappa = 1.5: expected an integer in [-100, 100]\n"},
      {"--physics.lambda 0", "error: physics.lambda = 0.0: expected a number in (0, 100]\n"},
      {"--grid.equal_work_rule mean", "error: grid.equal_work_rule = \"mean\": expected one of paper, eq11\n"},
      {"/nonexistent/run.toml", "error: input file \"/nonexistent/run.toml\": no such file\n"},
      {"--initial.type ground --initial.kappa 2", ""},
      {"--time.dt 1.0", ""},
      {"--initial.type checkpoint", ""},
  };
  for (const Case& c : cases) {
    const RunResult r = run_loom("gpe " + small + " --output.dir " + out + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << ": " << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << c.args << ": " << r.err;
    if (!c.message.empty()) {
      EXPECT_EQ(r.err, c.message);
    }
    EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
  }
  const RunResult dt = run_loom("gpe " + small + " --output.dir " + out + " --time.dt 1.0");
  EXPECT_NE(dt.err.find("time.dt = 1"), std::string::npos) << dt.err;
  EXPECT_NE(dt.err.find("stability bound"), std::string::npos) << dt.err;
}

TEST(GpeCli, ShortRunWritesEveryOutput) {
  TempDir dir;
  const auto run = dir / "run";
  const RunResult r = run_loom("gpe " + small + " --time.t_end 0.2 --output.dir " + run.string());
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* f : {"input.toml", "series.csv", "summary.json", "psi.xdmf", "psi_0000.h5", "psi_0001.h5",
                        "checkpoint.h5", "slice_z0_initial.csv", "slice_z0_final.csv"})
    EXPECT_TRUE(std::filesystem::exists(run / f)) << f;
  const std::string series = slurp(run / "series.csv");
  EXPECT_EQ(series.rfind("t,norm,energy,mu,E,RMSE,max_abs_psi,", 0), 0u) << series.substr(0, 80);
  const auto summary = nlohmann::json::parse(slurp(run / "summary.json"));
  for (const char* key : {"chemical_potential", "initial", "final", "steps", "dt", "dof", "grid", "backend"})
    EXPECT_TRUE(summary.contains(key)) << key;
  EXPECT_NEAR(summary["initial"]["norm"].get<double>(), 1.0, 1e-12);
  EXPECT_LT(std::abs(summary["energy_drift"].get<double>()), 1e-2);  // 5 edges per wavelength: coarse
  EXPECT_EQ(summary["grid"], "bcc");
  EXPECT_EQ(summary["equal_work_rule"], "paper");  // how work_per_time_unit is counted
  // mu of kappa = 1, g = 50, lambda = 1 from the continuum solver, between bounds that hold for any g >= 0. With
  // e(g) the energy per particle of the lowest kappa = 1 state, concave in g (a minimum of functions linear in g)
  // and increasing (e' = int |psi_g|^4 / 2 > 0): mu = e(g) + g e'(g) lies above e(0) = 1 + |kappa| + lambda/2 = 2.5
  // and below e(0) + 2 g e'(0) = 2.5 + g int |phi_0|^4, phi_0 the g = 0 state rho e^{i phi} e^{-r^2/2} / pi^{3/4}:
  // int |phi_0|^4 = sqrt(pi/2) / (4 pi^2).
  const double mu = summary["chemical_potential"].get<double>();
  EXPECT_GT(mu, 2.5);
  EXPECT_LT(mu, 2.5 + 50 * std::sqrt(std::numbers::pi / 2) / (4 * std::numbers::pi * std::numbers::pi));
}

// mu of the spherical ground state (lambda = 1, kappa = 0, int |psi|^2 = 1): u = r f solves
// -u''/2 + r^2 u/2 + g u^3 / (4 pi r^2) = mu u, u(0) = u(R) = 0, 4 pi int u^2 = 1. Second-order differences on
// r = h, 2h, .., R - h, relaxed by the normalised gradient flow (I + tau H[u_n]) u_{n+1} = u_n (a tridiagonal solve)
// until mu settles, then Richardson-extrapolated from h and h/2.
double radial_ground_state_mu(double g, double R, int intervals) {
  const double h = R / intervals, tau = 0.5;
  const int n = intervals - 1;
  std::vector<double> u(n), a(n), c(n), d(n);
  for (int i = 0; i < n; ++i) {
    const double r = (i + 1) * h;
    u[i] = r * std::exp(-r * r / 2);
  }
  auto normalise = [&] {
    double s = 0;
    for (double v : u) s += v * v;
    for (double& v : u) v /= std::sqrt(4 * std::numbers::pi * s * h);
  };
  auto diagonal = [&](int i) {
    const double r = (i + 1) * h;
    return 1 / (h * h) + r * r / 2 + g * u[i] * u[i] / (r * r);
  };
  auto mu_of = [&] {  // 4 pi h sum u H u
    double m = 0;
    for (int i = 0; i < n; ++i) {
      const double lap = (i > 0 ? u[i - 1] : 0) + (i + 1 < n ? u[i + 1] : 0);
      m += u[i] * (diagonal(i) * u[i] - lap / (2 * h * h));
    }
    return 4 * std::numbers::pi * h * m;
  };
  normalise();
  double mu = mu_of(), previous = 0;
  for (int it = 0; it < 100000 && std::abs(mu - previous) > 1e-14 * mu; ++it) {
    for (int i = 0; i < n; ++i) a[i] = 1 + tau * diagonal(i);  // Thomas algorithm, off-diagonals -tau / (2 h^2)
    const double off = -tau / (2 * h * h);
    for (int i = 1; i < n; ++i) {
      const double w = off / a[i - 1];
      a[i] -= w * off;
      u[i] -= w * u[i - 1];
    }
    u[n - 1] /= a[n - 1];
    for (int i = n - 2; i >= 0; --i) u[i] = (u[i] - off * u[i + 1]) / a[i];
    normalise();
    previous = mu;
    mu = mu_of();
  }
  return mu;
}

// The lattice ground state at g = 300 on a fine BCC lattice against the continuum mu from the radial solver
// above (and the program's continuum solver against it).
TEST(GpeCli, GroundStateMuMatchesAnIndependentRadialSolver) {
  const double coarse = radial_ground_state_mu(300, 9, 1800), fine = radial_ground_state_mu(300, 9, 3600);
  const double radial = (4 * fine - coarse) / 3;
  EXPECT_NEAR(fine, radial, 1e-4 * radial);  // the differences are second order and converged
  TempDir dir;
  const RunResult r = run_loom(
      "gpe --physics.g 300 --initial.kappa 0 --initial.type ground --grid.scaling dual_edge --grid.dual_edge 0.2 "
      "--time.t_end 0.01 --quiet --output.plots false --output.dir " +
      (dir / "run").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto summary = nlohmann::json::parse(slurp(dir / "run" / "summary.json"));
  const double lattice = summary["ground_state"]["mu"].get<double>();
  gpe::VortexProblem problem;
  problem.physics.g = 300;
  const double spectral = gpe::StationaryVortex::solve(problem).chemical_potential();
  std::printf("mu: radial %.10f, the program's continuum solver %.10f, lattice %.10f\n", radial, spectral, lattice);
  EXPECT_NEAR(spectral, radial, 1e-6 * radial);
  EXPECT_NEAR(lattice, radial, 3e-4 * radial);  // second order in the dual edge 0.2: 8.5e-5 measured
}

TEST(GpeCli, RestartContinuesExactly) {
  TempDir dir;
  const auto straight = dir / "straight", first = dir / "first", second = dir / "second";
  ASSERT_EQ(run_loom("gpe " + small + " --time.t_end 0.3 --output.dir " + straight.string()).code, 0);
  ASSERT_EQ(run_loom("gpe " + small + " --time.t_end 0.15 --output.dir " + first.string()).code, 0);
  const RunResult r = run_loom("gpe " + small + " --time.t_end 0.3 --initial.type checkpoint --initial.checkpoint " +
                               (first / "checkpoint.h5").string() + " --output.dir " + second.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto a = gpe::read_checkpoint(straight / "checkpoint.h5"), b = gpe::read_checkpoint(second / "checkpoint.h5");
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.time, b.time);
  ASSERT_EQ(a.current.size(), b.current.size());
  for (std::size_t i = 0; i < a.current.size(); ++i) {
    ASSERT_EQ(a.current[i].re, b.current[i].re) << i;
    ASSERT_EQ(a.current[i].im, b.current[i].im) << i;
  }
  // A mismatched physics value is refused.
  const RunResult bad = run_loom("gpe " + small + " --physics.g 60 --initial.type checkpoint --initial.checkpoint " +
                                 (first / "checkpoint.h5").string() + " --output.dir " + (dir / "bad").string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("physics.g = 60.0"), std::string::npos) << bad.err;
}

TEST(GpeCli, EffectiveInputReRunsToTheSameResult) {
  if (!io::toml_supported()) GTEST_SKIP() << "built without toml++";
  TempDir dir;
  const auto a = dir / "a", b = dir / "b";
  ASSERT_EQ(run_loom("gpe " + small + " --time.t_end 0.1 --grid.type c15 --output.dir " + a.string()).code, 0);
  const RunResult r = run_loom("gpe " + (a / "input.toml").string() + " --output.dir " + b.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto sa = nlohmann::json::parse(slurp(a / "summary.json")),
             sb = nlohmann::json::parse(slurp(b / "summary.json"));
  EXPECT_EQ(sb["grid"], "c15");
  EXPECT_EQ(sa["final"]["energy"], sb["final"]["energy"]);
  EXPECT_EQ(sa["dof"], sb["dof"]);
}

// `loom bench gpe` on the CPU: one row per kernel with a positive rate and the 48-byte traffic model; bad soa launch
// choices are usage errors.
TEST(GpeBenchCli, TimesEveryCpuKernelAndRejectsBadSoaChoices) {
  TempDir dir;
  const auto json = dir / "bench.json";
  const RunResult r =
      run_loom("bench gpe --backend cpu --grids bcc --dof 3000 --repeats 1 --warmup 0 --json " + json.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json));
  std::vector<std::string> variants;
  for (const auto& row : j["results"]) {
    variants.push_back(row["variant"]);
    EXPECT_GT(row["dof_updates_per_s"].get<double>(), 0) << row.dump();
    EXPECT_EQ(row["bytes_per_dof"].get<double>(), 48);
    EXPECT_EQ(row["dof"].get<long long>(), 12 * 6 * 6 * 6);  // (3000 / 12)^(1/3) rounds to 6 structures per edge
  }
  EXPECT_EQ(variants, (std::vector<std::string>{"plain", "soa"}));
  for (const std::string bad :
       {"--soa_vertices 3", "--soa_band_rows -1", "--soa_band_rows x", "--soa_columns -2", "--soa_order fast",
        "--march_ahead 3", "--march_rows wide", "--lattices 5x4", "--lattices 5x0x3", "--lattices 5x4x3x2"}) {
    const RunResult e = run_loom("bench gpe --backend cpu --grids bcc --dof 3000 " + bad);
    EXPECT_EQ(e.code, 2) << bad;
    EXPECT_EQ(line_count(e.err), 1u) << bad << ": " << e.err;
  }
}

// `--lattices` times boxes of nx x ny x nz structures after the cubes of --dof.
TEST(GpeBenchCli, TimesBoxesOfStructures) {
  TempDir dir;
  const auto json = dir / "bench.json";
  const RunResult r = run_loom(
      "bench gpe --backend cpu --grids bcc --kernels soa --dof 3000 --lattices 5x4x3,2x3x7 "
      "--repeats 1 --warmup 0 --json " +
      json.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json));
  std::vector<std::vector<int>> boxes;
  for (const auto& row : j["results"]) {
    boxes.push_back(row["structures"].get<std::vector<int>>());
    const auto& n = boxes.back();
    EXPECT_EQ(row["dof"].get<long long>(), 12LL * n[0] * n[1] * n[2]);
  }
  EXPECT_EQ(boxes, (std::vector<std::vector<int>>{{6, 6, 6}, {5, 4, 3}, {2, 3, 7}}));
  EXPECT_NE(r.out.find("5x4x3"), std::string::npos) << r.out;
}

// `--dof ""` times the boxes of --lattices only (as its help says); with no boxes either there is nothing to time.
TEST(GpeBenchCli, EmptyDofTimesTheLatticesOnly) {
  TempDir dir;
  const auto json = dir / "bench.json";
  const RunResult r = run_loom(
      "bench gpe --backend cpu --grids bcc --kernels soa --dof \"\" --lattices 2x3x4 --repeats 1 --warmup 0 --json " +
      json.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(j["results"].size(), 1u) << j.dump();
  EXPECT_EQ(j["results"][0]["structures"].get<std::vector<int>>(), (std::vector<int>{2, 3, 4}));
  const RunResult e = run_loom("bench gpe --backend cpu --dof \"\"");
  EXPECT_EQ(e.code, 2);
  EXPECT_EQ(line_count(e.err), 1u) << e.err;
  EXPECT_NE(e.err.find("dof"), std::string::npos) << e.err;
}

}  // namespace
}  // namespace loom::test
