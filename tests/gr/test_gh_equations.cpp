// The pointwise GH right-hand side and constraints (gr/gh_equations.hpp) against an independent NumPy evaluation of
// LSKOR eqs. 35-37, C_a = H_a + psi^bc Gamma_abc and eq. 41 at random points (data/gh_reference.json, made by
// gh_reference.py from the paper's equations), and the exact Kerr-Schild data as a vacuum solution: the
// right-hand side vanishes when its derivatives are taken by sixth-order finite differences at single points.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <random>

#include "gr/ks_fd.hpp"
#include "loom/gr/gh_equations.hpp"
#include "loom/gr/kerr_schild.hpp"

namespace loom::gr {
namespace {

void pack(const nlohmann::json& full, double* out) {
  for (int a = 0; a < 4; ++a)
    for (int b = a; b < 4; ++b) out[sym(a, b)] = full[a][b].get<double>();
}

GhInput input_of(const nlohmann::json& v) {
  GhInput in{};
  pack(v["psi"], in.psi);
  pack(v["pi"], in.pi);
  for (int i = 0; i < 3; ++i) {
    pack(v["phi"][i], in.phi + i * pairs);
    pack(v["dpsi"][i], in.dpsi[i]);
    pack(v["dpi"][i], in.dpi[i]);
    for (int j = 0; j < 3; ++j) pack(v["dphi"][i][j], in.dphi[i] + j * pairs);
  }
  for (int a = 0; a < 4; ++a) {
    in.gauge[a] = v["gauge"][a].get<double>();
    for (int b = 0; b < 4; ++b) in.dgauge[a][b] = v["dgauge"][a][b].get<double>();
  }
  in.gamma0 = v["gamma0"].get<double>();
  in.gamma1 = v["gamma1"].get<double>();
  in.gamma2 = v["gamma2"].get<double>();
  return in;
}

TEST(GhEquations, MatchTheNumpyReference) {
  std::ifstream file(LOOM_GR_TEST_DATA "/gh_reference.json");
  ASSERT_TRUE(file) << "missing " LOOM_GR_TEST_DATA "/gh_reference.json";
  const nlohmann::json doc = nlohmann::json::parse(file);
  ASSERT_GE(doc["points"].size(), 5u);
  for (const auto& point : doc["points"]) {
    const GhInput in = input_of(point["input"]);
    const auto& out = point["output"];
    double rates[state_size], ca[4], ca2[4], ciab[3 * pairs];
    gh_rhs(in, rates, ca);
    gh_constraints(in, ca2, ciab);
    double expected[state_size];
    pack(out["dt_psi"], expected);
    pack(out["dt_pi"], expected + pi_offset);
    for (int i = 0; i < 3; ++i) pack(out["dt_phi"][i], expected + phi_offset + i * pairs);
    for (int c = 0; c < state_size; ++c) EXPECT_NEAR(rates[c], expected[c], 1e-12 * (1 + std::abs(expected[c]))) << c;
    for (int a = 0; a < 4; ++a) {
      EXPECT_NEAR(ca[a], out["gauge_constraint"][a].get<double>(), 1e-13);
      EXPECT_EQ(ca[a], ca2[a]);
    }
    double c3[3 * pairs];
    for (int i = 0; i < 3; ++i) pack(out["three_index_constraint"][i], c3 + i * pairs);
    for (int c = 0; c < 3 * pairs; ++c) EXPECT_NEAR(ciab[c], c3[c], 1e-14);
  }
}

// The exact state (psi, Pi, Phi) and the gauge source at y, as one vector for finite differences.
std::vector<double> exact(const KerrSchild& bh, const double (&y)[3]) {
  std::vector<double> v(state_size + 4);
  kerr_schild_state(bh, y, v.data(), v.data() + state_size);
  return v;
}

TEST(GhEquations, KerrSchildIsStationaryPointwise) {
  const KerrSchild bh{1.0, {0.2, 0.3, 0.4}};
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-8, 8);
  for (int trial = 0; trial < 10; ++trial) {
    const double x[3] = {u(rng), u(rng), u(rng)};
    if (x[0] * x[0] + x[1] * x[1] + x[2] * x[2] < 2.5) continue;
    const auto v = exact(bh, x);
    GhInput in{};
    for (int c = 0; c < pairs; ++c) in.psi[c] = v[c], in.pi[c] = v[pi_offset + c];
    for (int c = 0; c < 3 * pairs; ++c) in.phi[c] = v[phi_offset + c];
    for (int a = 0; a < 4; ++a) in.gauge[a] = v[state_size + a];
    for (int k = 0; k < 3; ++k) {
      const auto d = testing::central_difference([&](const double (&y)[3]) { return exact(bh, y); }, x, k, 1e-3);
      for (int c = 0; c < pairs; ++c) in.dpsi[k][c] = d[c], in.dpi[k][c] = d[pi_offset + c];
      for (int c = 0; c < 3 * pairs; ++c) in.dphi[k][c] = d[phi_offset + c];
      for (int a = 0; a < 4; ++a) in.dgauge[k + 1][a] = d[state_size + a];
    }
    in.gamma0 = 1.3, in.gamma1 = -1, in.gamma2 = 0.7;
    double rates[state_size];
    gh_rhs(in, rates);
    for (int c = 0; c < state_size; ++c) EXPECT_NEAR(rates[c], 0.0, 1e-8) << "component " << c;
  }
}

}  // namespace
}  // namespace loom::gr
