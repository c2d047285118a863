// `loom fmm` as a user meets it (apps/loom/fmm.cpp): a run prints every phase and errors that are small; the
// CSV contract (header x,y,z,q in, potential,grad_x,grad_y,grad_z out, values equal to a direct sum computed
// here); malformed input reported by file and line with exit code 2; bad flags as one-line usage errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "apps/run_loom.hpp"
#include "io/temp_dir.hpp"

namespace loom::test {
namespace {

// The number after `key` in `text` (e.g. "gradient 1.2e-08").
double number_after(const std::string& text, const std::string& key) {
  const auto at = text.find(key);
  if (at == std::string::npos) return std::nan("");
  return std::stod(text.substr(at + key.size()));
}

TEST(FmmCli, LaplaceRunPrintsPhasesAndSmallErrors) {
  const RunResult r = run_loom("fmm --n 3000 --dist plummer --p 10 --theta 0.4 --backend cpu --samples 200");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* phase : {"build", "upward", "traversal", "m2l", "p2p", "downward", "total"})
    EXPECT_NE(r.out.find(std::string("\n") + phase + " "), std::string::npos) << phase << "\n" << r.out;
  EXPECT_LT(number_after(r.out, "potential "), 1e-6) << r.out;
  EXPECT_LT(number_after(r.out, "gradient "), 1e-6) << r.out;
}

TEST(FmmCli, BiotSavartRunReportsVelocityAndStretchingErrors) {
  const RunResult r = run_loom("fmm --n 3000 --kernel biot-savart --p 10 --backend cpu --samples 100");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(number_after(r.out, "velocity "), 1e-6) << r.out;
  EXPECT_LT(number_after(r.out, "stretching "), 1e-5) << r.out;
}

TEST(FmmCli, PeriodicRunIsCheckedAgainstEwald) {
  const RunResult r = run_loom("fmm --n 2000 --periodic true --p 12 --backend cpu --samples 50");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("against Ewald"), std::string::npos) << r.out;
  EXPECT_LT(number_after(r.out, "gradient "), 1e-5) << r.out;
}

TEST(FmmCli, JsonSummaryParses) {
  TempDir dir;
  const RunResult r =
      run_loom("fmm --n 2000 --p 6 --ncrit 16 --backend cpu --samples 50 --json " + (dir / "f.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(dir / "f.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["bodies"], 2000);
  EXPECT_EQ(j["p"], 6);
  EXPECT_GT(j["timings"]["total"].get<double>(), 0);
  EXPECT_LT(j["errors"]["gradient"].get<double>(), 1e-3);
  EXPECT_GT(j["stats"]["m2l_pairs"].get<long>(), 0);
}

TEST(FmmCli, CsvInputAndOutputFollowTheContract) {
  TempDir dir;
  // 60 bodies on a jittered lattice, charges of both signs
  std::vector<double> x, y, z, q;
  {
    std::ofstream f(dir / "bodies.csv");
    f << "x,y,z,q\n";
    for (int i = 0; i < 60; ++i) {
      x.push_back(0.1 * (i % 4) + 0.013 * std::sin(i));
      y.push_back(0.1 * (i / 4 % 5) + 0.011 * std::cos(3 * i));
      z.push_back(0.1 * (i / 20) - 0.007 * i);
      q.push_back(i % 3 == 0 ? -1.5 : 0.25 * (1 + i % 5));
      f.precision(17);
      f << x.back() << "," << y.back() << ", " << z.back() << "," << q.back() << (i % 7 == 0 ? "\r\n" : "\n");
    }
    f << "\n";  // trailing blank line
  }
  const RunResult r = run_loom("fmm --input " + (dir / "bodies.csv").string() + " --output " +
                               (dir / "result.csv").string() + " --p 14 --theta 0.3 --ncrit 4 --backend cpu");
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(dir / "result.csv");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "potential,grad_x,grad_y,grad_z");
  int row = 0;
  double max_err = 0;
  while (std::getline(in, line)) {
    ASSERT_LT(row, 60);
    std::stringstream s(line);
    double v[4];
    char comma;
    s >> v[0] >> comma >> v[1] >> comma >> v[2] >> comma >> v[3];
    ASSERT_TRUE(s) << line;
    double phi = 0, g[3] = {0, 0, 0};
    for (int j = 0; j < 60; ++j) {
      if (j == row) continue;
      const double d[3] = {x[row] - x[j], y[row] - y[j], z[row] - z[j]};
      const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], inv = 1 / std::sqrt(r2);
      phi += q[j] * inv;
      for (int k = 0; k < 3; ++k) g[k] -= q[j] * inv * inv * inv * d[k];
    }
    const double scale = std::abs(phi) + std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    max_err = std::max(max_err, std::abs(v[0] - phi) / scale);
    for (int k = 0; k < 3; ++k) max_err = std::max(max_err, std::abs(v[k + 1] - g[k]) / scale);
    ++row;
  }
  EXPECT_EQ(row, 60);
  EXPECT_LT(max_err, 1e-8);
  EXPECT_EQ(dir.files(), (std::vector<std::string>{"bodies.csv", "result.csv"}));  // no temporary left
}

TEST(FmmCli, MalformedInputNamesTheLine) {
  TempDir dir;
  struct Case {
    const char* content;
    const char* message;  // expected in the one-line error
  };
  for (const Case& c : {
           Case{"x,y,z,q\n1,2,3,4\n1,2,3\n", "bad.csv:3: expected 4 numbers x,y,z,q, found 3 fields"},
           Case{"x,y,z,q\n1,2,3,4\n\n0.5,abc,1,1\n", "bad.csv:4: column y is not a finite number: \"abc\""},
           Case{"x,y,z,q\n1,2,3,4\n1,2,3,nan\n", "bad.csv:3: column q is not a finite number"},
           Case{"x,y,z,q\n1,2,3,4,5\n", "bad.csv:2: expected 4 numbers x,y,z,q, found 5 fields"},
           Case{"a,b,c,d\n1,2,3,4\n", "bad.csv:1: expected the header row x,y,z,q"},
           Case{"x,y,z,q\n", "bad.csv: no bodies after the header row"},
           Case{"x,y,z,q\n1,2,3,4x\n", "bad.csv:2: column q is not a finite number: \"4x\""},
       }) {
    {
      std::ofstream f(dir / "bad.csv");
      f << c.content;
    }
    const RunResult r = run_loom("fmm --backend cpu --input " + (dir / "bad.csv").string());
    EXPECT_EQ(r.code, 2) << c.content;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
  }
  const RunResult missing = run_loom("fmm --backend cpu --input " + (dir / "none.csv").string());
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("cannot open"), std::string::npos) << missing.err;
}

TEST(FmmCli, BadFlagsAreOneLineUsageErrors) {
  struct Case {
    const char* args;
    const char* message;
  };
  for (const Case& c : {
           Case{"fmm --dist torus", "error: dist = \"torus\": expected one of cube, sphere, plummer\n"},
           Case{"fmm --kernel stokes", "error: kernel = \"stokes\": expected one of laplace, biot-savart\n"},
           Case{"fmm --p 0", "error: p = 0: expected an integer in [1, 16]\n"},
           Case{"fmm --theta 1.5", "error: theta = 1.5: expected a number in (0, 1)\n"},
           Case{"fmm --n 10 --input x.csv", "error: n: does not apply with --input (the bodies come from the file)\n"},
           Case{"fmm --dist sphere --periodic true",
                "error: periodic = true: needs dist = \"cube\" (the box [-1, 1)^3)\n"},
       }) {
    const RunResult r = run_loom(c.args);
    EXPECT_EQ(r.code, 2) << c.args;
    EXPECT_TRUE(r.out.empty()) << c.args << ": " << r.out;
    EXPECT_EQ(r.err, c.message) << c.args;
  }
  const RunResult help = run_loom("fmm --help");
  EXPECT_EQ(help.code, 0);
  for (const char* key : {"--n", "--dist", "--p", "--theta", "--kernel", "--input", "--output", "--backend"})
    EXPECT_NE(help.out.find(key), std::string::npos) << key;
}

TEST(FmmCli, BenchQuickRunWritesJson) {
  TempDir dir;
  const RunResult r = run_loom("bench fmm --quick --backend cpu --kernel laplace --repeats 1 --warmup 0 --json " +
                               (dir / "b.json").string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("direct-sum kernel (cpu"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fastest cpu evaluation"), std::string::npos) << r.out;
  std::ifstream in(dir / "b.json");
  const auto j = nlohmann::json::parse(in);
  ASSERT_GE(j["runs"].size(), 4u);
  for (const auto& run : j["runs"]) {
    EXPECT_GT(run["evaluate"].get<double>(), 0);
    EXPECT_GT(run["p2p_interactions_per_second"].get<double>(), 0);
    if (run["p"] == 8) {
      EXPECT_LT(run["gradient_error"].get<double>(), 1e-4);
    }
  }
  EXPECT_GT(j["direct_kernel"][0]["interactions_per_second"].get<double>(), 0);
  EXPECT_FALSE(j["ceilings"].empty());
}

}  // namespace
}  // namespace loom::test
