// `loom lattice` as a user meets it: the facts and their JSON form for every grid, bad input as exit 2 with one
// line naming the key, the value and what is allowed, and the run directories of `dispersion` and `export`.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "apps/run_loom.hpp"

namespace loom::test {
namespace {

using Result = RunResult;
Result run(const std::string& args) { return run_loom(args); }
std::size_t lines(const std::string& s) { return line_count(s); }

TEST(LatticeCli, JsonFactsForEveryGrid) {
  struct Expect {
    const char* grid;
    int cells;
    std::vector<int> faces;
    double volume;
  };
  for (const Expect& e :
       {Expect{"cubic", 1, {6}, 1}, Expect{"fcc", 12, {4, 8}, 1}, Expect{"bcc", 12, {4}, 1}, Expect{"a15", 46, {4}, 1},
        Expect{"c15", 136, {4}, 1}, Expect{"z", 80, {4}, std::sqrt(3.0)}}) {
    const Result r = run(std::string("lattice --json --grid.type ") + e.grid);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"grid", "cells_per_structure", "faces_per_cell", "dual_edge_min", "dual_edge_mean",
                            "dual_edge_max", "cell_volume_min", "cell_volume_max", "equal_work_dual_edge"})
      EXPECT_TRUE(j.contains(key)) << e.grid << ": " << key;
    EXPECT_EQ(j["grid"], e.grid);
    EXPECT_EQ(j["cells_per_structure"], e.cells);
    EXPECT_EQ(j["faces_per_cell"].get<std::vector<int>>(), e.faces);
    EXPECT_NEAR(j["cell_volume_sum"].get<double>(), e.volume, 1e-12);
    EXPECT_LE(j["dual_edge_min"].get<double>(), j["dual_edge_mean"].get<double>() * (1 + 1e-14));
    EXPECT_LE(j["dual_edge_mean"].get<double>(), j["dual_edge_max"].get<double>() * (1 + 1e-14));
    EXPECT_LE(j["cell_volume_min"].get<double>(), j["cell_volume_max"].get<double>());
    EXPECT_GT(j["dual_edge_min"].get<double>(), 0);
  }
  const auto bcc = nlohmann::json::parse(run("lattice --json --grid.type bcc").out);
  EXPECT_NEAR(bcc["dual_edge_mean"].get<double>(), std::sqrt(2.0) / 4, 1e-12);  // truncated octahedra, cube edge 1
  EXPECT_NEAR(bcc["cell_volume_max"].get<double>(), 1.0 / 12, 1e-12);
  // paper: m F^2 h = 12 * 4^2 * 12 against the cubic's 36; eq11: sum #J * max D = 60 * 48 against 42
  EXPECT_EQ(bcc["equal_work_rule"], "paper");
  EXPECT_NEAR(bcc["equal_work_dual_edge"].get<double>(), std::pow(2304 / 36.0, 0.2) * std::sqrt(2.0) / 4, 1e-9);
  EXPECT_NEAR(bcc["equal_work_eq11"]["dual_edge"].get<double>(), std::pow(2880 / 42.0, 0.2) * std::sqrt(2.0) / 4, 1e-9);
  const auto cubic = nlohmann::json::parse(run("lattice --json --grid.type cubic").out);
  EXPECT_NEAR(cubic["equal_work_dual_edge"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(cubic["equal_work_eq11"]["dual_edge"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(cubic["work_per_time_unit"].get<double>(), 18, 1e-12);
  EXPECT_NEAR(cubic["equal_work_eq11"]["work_per_time_unit"].get<double>(), 42, 1e-12);
}

TEST(LatticeCli, TextSaysHowTheScaleIsDefined) {
  const Result r = run("lattice --grid.type c15");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* text :
       {"C15 grid", "136 primal 3-cells", "faces per cell: 4", "equal work", "eq. 11", "Table 1: 0.68"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.out;
}

TEST(LatticeCli, BadInputExitsTwoWithOneLine) {
  struct Case {
    const char* args;
    const char* message;
  };
  for (const Case& c : {
           Case{"lattice --grid.type hex",
                "error: grid.type = \"hex\": expected one of cubic, fcc, bcc, a15, c15, z\n"},
           Case{"lattice dispersion --grid.type hcp",
                "error: grid.type = \"hcp\": expected one of cubic, fcc, bcc, a15, c15, z\n"},
           Case{"lattice dispersion --dispersion.k_edge 0", "error: dispersion.k_edge = 0.0: expected a number in (0, 3.141592653589793]\n"},
           Case{"lattice export --grid.typ c15",
                "error: loom lattice export: unknown flag --grid.typ (did you mean --grid.type?); see loom lattice "
                "export --help\n"},
           Case{"lattice frob", "error: loom lattice: unknown command \"frob\" (commands: dispersion, export)\n"},
       }) {
    const Result r = run(c.args);
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_TRUE(r.out.empty()) << c.args << ": " << r.out;
    EXPECT_EQ(r.err, c.message) << c.args;
    EXPECT_EQ(lines(r.err), 1u);
  }
}

TEST(LatticeCli, HelpListsTheSubcommandsAndKeys) {
  const Result r = run("lattice --help");
  EXPECT_EQ(r.code, 0);
  for (const char* text : {"dispersion", "export", "--grid.type", "--json"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  const Result d = run("lattice dispersion --help");
  EXPECT_EQ(d.code, 0);
  for (const char* text : {"--dispersion.k_edge", "--dispersion.directions", "--output.dir", "--plot"})
    EXPECT_NE(d.out.find(text), std::string::npos) << text;
}

TEST(LatticeCli, DispersionWritesItsRunDirectory) {
  TempDir dir;
  const auto out = dir / "run";
  const Result r =
      run("lattice dispersion --grid.type bcc --dispersion.directions 24 --plot false --output.dir " + out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("anisotropy"), std::string::npos);
  const std::string csv = slurp(out / "dispersion.csv");
  EXPECT_EQ(csv.rfind("grid,direction,kx,ky,kz,theta,phi,eigenvalue,ratio\n", 0), 0u);
  EXPECT_EQ(lines(csv), 1u + 2 * 24);  // bcc and the cubic reference
  std::ifstream in(out / "summary.json");
  const auto j = nlohmann::json::parse(in);
  const double bcc = j["grids"]["bcc"]["anisotropy"].get<double>();
  const double cubic = j["grids"]["cubic"]["anisotropy"].get<double>();
  EXPECT_LT(bcc, cubic);
  EXPECT_DOUBLE_EQ(j["anisotropy"].get<double>(), bcc);
  EXPECT_TRUE(std::filesystem::exists(out / "input.toml"));
  // The same directory again is refused unless overwriting is asked for.
  const Result again = run("lattice dispersion --plot false --dispersion.directions 4 --output.dir " + out.string());
  EXPECT_EQ(again.code, 2);
  EXPECT_EQ(lines(again.err), 1u) << again.err;
}

TEST(LatticeCli, DispersionPlotWhenMatplotlibIsPresent) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "no /usr/bin/python3 with matplotlib";
  TempDir dir;
  const Result r =
      run("lattice dispersion --grid.type c15 --dispersion.directions 12 --output.dir " + (dir / "run").string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string png = slurp(dir / "run" / "dispersion.png");
  ASSERT_GT(png.size(), 8u) << r.err;
  EXPECT_EQ(png.substr(1, 3), "PNG");
}

TEST(LatticeCli, ExportWritesVtkFiles) {
  TempDir dir;
  const Result r = run("lattice export --grid.type c15 --output.dir " + (dir / "run").string());
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* name : {"c15_primal.vtk", "c15_dual.vtk"}) {
    const std::string text = slurp(dir / "run" / name);
    EXPECT_EQ(text.rfind("# vtk DataFile Version 3.0\n", 0), 0u) << name;
    EXPECT_NE(text.find("DATASET UNSTRUCTURED_GRID"), std::string::npos);
  }
  const Result scaled = run("lattice export --grid.type bcc --export.equal_work --output.dir " + (dir / "s").string());
  ASSERT_EQ(scaled.code, 0) << scaled.err;
  EXPECT_NE(scaled.out.find("scale 2.297"), std::string::npos) << scaled.out;  // the paper's rule: 64^(1/5)
}

}  // namespace
}  // namespace loom::test
