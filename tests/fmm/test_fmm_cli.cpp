// `loom fmm` as a user meets it (apps/loom/fmm.cpp): a run prints every phase and writes what direct sums computed
// here give; the CSV contract (header x,y,z,q in, potential,grad_x,grad_y,grad_z or u_x..s_z out, values equal to sums
// computed here); malformed input reported by file and line with exit code 2; bad flags as one-line usage errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "apps/run_loom.hpp"
#include "fmm/biot_savart_reference.hpp"
#include "io/temp_dir.hpp"
#include "loom/fmm/bodies.hpp"
#include "loom/fmm/direct.hpp"
#include "loom/fmm/ewald.hpp"

namespace loom::test {
namespace {

// The number after `key` in `text` (e.g. "gradient 1.2e-08").
double number_after(const std::string& text, const std::string& key) {
  const auto at = text.find(key);
  if (at == std::string::npos) return std::nan("");
  return std::stod(text.substr(at + key.size()));
}

// The rows of N numbers of a result file after its header (empty when a row does not parse): potential, grad_x,
// grad_y, grad_z for Laplace, u_x, u_y, u_z, s_x, s_y, s_z for Biot-Savart.
template <std::size_t N = 4>
std::vector<std::array<double, N>> read_result_csv(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::array<double, N>> rows;
  while (std::getline(in, line)) {
    std::stringstream s(line);
    std::array<double, N> v{};
    char comma = ',';
    for (std::size_t k = 0; k < N && comma == ','; ++k) {
      s >> v[k];
      if (k + 1 < N) s >> comma;
    }
    if (!s || comma != ',') return {};
    rows.push_back(v);
  }
  return rows;
}

// Direct Laplace sums at `targets`, written here: phi_i = sum_j q_j / |r|, grad_i = -sum_j q_j r / |r|^3.
struct Bodies {
  std::vector<double> x, y, z, q;
};

void direct_sum(const Bodies& b, std::size_t i, double& phi, double g[3]) {
  phi = 0;
  g[0] = g[1] = g[2] = 0;
  for (std::size_t j = 0; j < b.q.size(); ++j) {
    if (j == i) continue;
    const double d[3] = {b.x[i] - b.x[j], b.y[i] - b.y[j], b.z[i] - b.z[j]};
    const double inv = 1 / std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    phi += b.q[j] * inv;
    for (int k = 0; k < 3; ++k) g[k] -= b.q[j] * inv * inv * inv * d[k];
  }
}

// A Plummer sphere of n bodies (radius from the inverse of its cumulative mass, r = (u^{-2/3} - 1)^{-1/2}, capped at
// 10; an isotropic direction) with charges in [-1, 1], from a linear congruential generator.
Bodies plummer(int n) {
  Bodies b;
  std::uint64_t state = 12345;
  auto uniform = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double(state >> 11) + 0.5) / 9007199254740992.0;
  };
  for (int i = 0; i < n; ++i) {
    const double r = std::min(10.0, 1 / std::sqrt(std::pow(uniform(), -2.0 / 3) - 1));
    const double cos_t = 2 * uniform() - 1, phi = 2 * 3.14159265358979 * uniform(),
                 sin_t = std::sqrt(1 - cos_t * cos_t);
    b.x.push_back(r * sin_t * std::cos(phi));
    b.y.push_back(r * sin_t * std::sin(phi));
    b.z.push_back(r * cos_t);
    b.q.push_back(2 * uniform() - 1);
  }
  return b;
}

// A clustered run with leaves small enough for the far field to be used (at the default ncrit 64 these 3000 bodies
// make no M2L pair, and any expansion error would go unseen): every phase printed, the written potential and
// gradient within 1e-6 (relative L2 over 200 targets) of direct sums computed here, and the errors the program
// reports equal to those measured here (its targets are the evenly spread k n / 200).
TEST(FmmCli, LaplaceRunMatchesDirectSumsComputedHere) {
  TempDir dir;
  const int n = 3000, samples = 200;
  const Bodies b = plummer(n);
  {
    std::ofstream f(dir / "bodies.csv");
    f.precision(17);
    f << "x,y,z,q\n";
    for (int i = 0; i < n; ++i) f << b.x[i] << "," << b.y[i] << "," << b.z[i] << "," << b.q[i] << "\n";
  }
  const RunResult r =
      run_loom("fmm --input " + (dir / "bodies.csv").string() + " --output " + (dir / "result.csv").string() +
               " --p 10 --theta 0.4 --ncrit 16 --backend cpu --samples " + std::to_string(samples));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* phase : {"build", "upward", "traversal", "m2l", "p2p", "downward", "total"})
    EXPECT_NE(r.out.find(std::string("\n") + phase + " "), std::string::npos) << phase << "\n" << r.out;
  const auto rows = read_result_csv(dir / "result.csv");
  ASSERT_EQ(rows.size(), std::size_t(n));
  double err_phi = 0, norm_phi = 0, err_grad = 0, norm_grad = 0;
  for (int k = 0; k < samples; ++k) {
    const std::size_t i = std::size_t(k) * n / samples;
    double phi, g[3];
    direct_sum(b, i, phi, g);
    err_phi += (rows[i][0] - phi) * (rows[i][0] - phi);
    norm_phi += phi * phi;
    for (int c = 0; c < 3; ++c) {
      err_grad += (rows[i][c + 1] - g[c]) * (rows[i][c + 1] - g[c]);
      norm_grad += g[c] * g[c];
    }
  }
  const double e_phi = std::sqrt(err_phi / norm_phi), e_grad = std::sqrt(err_grad / norm_grad);
  std::printf("relative L2 errors measured here: potential %.3e, gradient %.3e\n", e_phi, e_grad);
  EXPECT_GT(number_after(r.out, "levels; "), 1000) << r.out;  // the far field is used (13498 M2L pairs)
  EXPECT_LT(e_phi, 1e-6);                                     // 1.1e-7 measured; p = 6 gives 2e-4
  EXPECT_LT(e_grad, 1e-6);                                    // 2.0e-7 measured
  // the printed errors (3 digits) are these, up to the last digit
  EXPECT_NEAR(number_after(r.out, "potential "), e_phi, 0.01 * e_phi + 1e-14) << r.out;
  EXPECT_NEAR(number_after(r.out, "gradient "), e_grad, 0.01 * e_grad + 1e-14) << r.out;
}

// The written velocity and stretching against the Gaussian-cutoff Biot-Savart sum computed here in long double
// (biot_savart_reference.hpp, the notes' cutoff by its own series) for the bodies the run generates: seed 1 gives
// positions from seed 1 and strengths from seed 3, the core radius 2/n^(1/3).
TEST(FmmCli, BiotSavartRunMatchesTheSumComputedHere) {
  TempDir dir;
  const Index n = 3000;
  const RunResult r = run_loom("fmm --n 3000 --kernel biot-savart --p 10 --backend cpu --samples 100 --output " +
                               (dir / "result.csv").string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_GT(number_after(r.out, "levels; "), 100) << r.out;  // 422 M2L pairs: the far field is used
  const auto rows = read_result_csv<6>(dir / "result.csv");
  ASSERT_EQ(rows.size(), std::size_t(n));
  const auto x = fmm::make_positions(fmm::Distribution::cube, n, 1);
  const auto alpha = fmm::make_uniform_vectors(n, -1, 1, 3);
  const long double sigma = 2.0L / std::cbrt(static_cast<long double>(n)), four_pi = 16 * std::atan(1.0L);
  auto to_long = [](fmm::Vec3d v) { return fmm::test::LongVec{v.x, v.y, v.z}; };
  long double du = 0, u2 = 0, ds = 0, s2 = 0;
  for (Index i = 0; i < n; i += 30) {  // 100 targets
    fmm::test::LongVec u{}, s{};
    for (Index j = 0; j < n; ++j) {
      if (j == i) continue;
      fmm::test::LongVec pu, ps;
      fmm::test::long_double_pair(to_long(x[i]) - to_long(x[j]), to_long(alpha[j]), sigma, to_long(alpha[i]), pu, ps);
      u += pu;
      s += ps;
    }
    u = (1 / four_pi) * u;
    s = (1 / four_pi) * s;
    const auto& row = rows[static_cast<std::size_t>(i)];
    const fmm::test::LongVec fu{row[0], row[1], row[2]}, fs{row[3], row[4], row[5]};
    du += norm2(fu - u);
    u2 += norm2(u);
    ds += norm2(fs - s);
    s2 += norm2(s);
  }
  const double e_u = double(std::sqrt(du / u2)), e_s = double(std::sqrt(ds / s2));
  std::printf("velocity %.3e stretching %.3e against the long double sum\n", e_u, e_s);
  EXPECT_LT(e_u, 1e-7);  // p 10
  EXPECT_LT(e_s, 1e-6);
  // the printed errors (against fmm/direct.cpp on the run's own samples) are of the same size
  EXPECT_LT(number_after(r.out, "velocity "), 1e-7) << r.out;
  EXPECT_LT(number_after(r.out, "stretching "), 1e-6) << r.out;
}

// The periodic run's written results against the Ewald sum computed here (fmm/ewald.*, itself checked against
// rock salt's Madelung constant in test_fmm_periodic) for the bodies the run generates: seed 1 (the default) gives
// positions from seed 1 and charges from seed 2, made neutral.
TEST(FmmCli, PeriodicRunMatchesEwaldComputedHere) {
  TempDir dir;
  const Index n = 2000;
  const RunResult r = run_loom("fmm --n 2000 --periodic true --p 12 --backend cpu --samples 50 --output " +
                               (dir / "result.csv").string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("against Ewald"), std::string::npos) << r.out;
  const auto x = fmm::make_positions(fmm::Distribution::cube, n, 1);
  auto q = fmm::make_uniform(n, -1, 1, 2);
  double mean = 0;
  for (double v : q) mean += v / double(n);
  for (double& v : q) v -= mean;
  const auto targets = fmm::sample_targets(n, 50);
  std::vector<double> phi;
  std::vector<fmm::Vec3d> grad;
  fmm::ewald_laplace(x, q, 2.0, targets, phi, grad);
  const auto rows = read_result_csv(dir / "result.csv");
  ASSERT_EQ(rows.size(), std::size_t(n));
  double err_phi = 0, norm_phi = 0, err_grad = 0, norm_grad = 0;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const auto& v = rows[std::size_t(targets[t])];
    err_phi += (v[0] - phi[t]) * (v[0] - phi[t]);
    norm_phi += phi[t] * phi[t];
    const double g[3] = {grad[t].x, grad[t].y, grad[t].z};
    for (int c = 0; c < 3; ++c) {
      err_grad += (v[c + 1] - g[c]) * (v[c + 1] - g[c]);
      norm_grad += g[c] * g[c];
    }
  }
  EXPECT_LT(std::sqrt(err_phi / norm_phi), 1e-6);    // 2.5e-7 measured
  EXPECT_LT(std::sqrt(err_grad / norm_grad), 1e-6);  // 1.6e-7 measured
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
  Bodies b;
  auto& [x, y, z, q] = b;
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
    double phi, g[3];
    direct_sum(b, std::size_t(row), phi, g);
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
